"""``backends.dmypy_wire``: dmypy's request and answer on its socket, in both of mypy's framings.

A fake server frames as ``mypy/ipc.py`` does (1.20 on: a 4-byte length; 1.7 to 1.19: base64 and a
space), sends one frame of its own stdout and then the final answer; the real server is spoken to
by the mypy e2e tests (``tests/e2e/test_differential_mypy.py``).
"""

from __future__ import annotations

import asyncio
import base64
import json
import struct
from typing import TYPE_CHECKING, Any

import pytest

from prewrite_daemon.backends.dmypy_wire import DmypyWireError, Framing, framing_for, request

if TYPE_CHECKING:
    from pathlib import Path


def _mypy_frame(framing: Framing, data: dict[str, Any]) -> bytes:
    body = json.dumps(data).encode()
    if framing == "length":
        return struct.pack("!L", len(body)) + body
    return base64.encodebytes(body) + b" "  # mypy: codecs.encode(data, "base64") + b" "


async def _read_request(reader: asyncio.StreamReader, framing: Framing) -> dict[str, Any]:
    if framing == "length":
        (size,) = struct.unpack("!L", await reader.readexactly(4))
        return json.loads(await reader.readexactly(size))
    return json.loads(base64.decodebytes((await reader.readuntil(b" "))[:-1]))


async def _serve(
    path: Path, framing: Framing, reply: bytes | None, seen: list[dict[str, Any]]
) -> asyncio.Server:
    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await _read_request(reader, framing))
        if reply is None:  # a long answer: stdout first, then the final frame in pieces
            big = "x" * 200_000
            writer.write(_mypy_frame(framing, {"stdout": "a note\n"}))
            answer = {"out": big, "err": "", "status": 1, "final": True}
            frame = _mypy_frame(framing, answer)
            for i in range(0, len(frame), 7000):
                writer.write(frame[i : i + 7000])
                await writer.drain()
        else:
            writer.write(reply)
        await writer.drain()
        writer.close()

    return await asyncio.start_unix_server(one, str(path))


@pytest.mark.parametrize("framing", ["length", "base64"])
async def test_a_check_is_asked_and_its_final_answer_read(tmp_path: Path, framing: Framing) -> None:
    seen: list[dict[str, Any]] = []
    sock = tmp_path / "s"
    async with await _serve(sock, framing, None, seen):
        answer = await request(str(sock), framing, "check", files=["pkg"], export_types=False)
    assert answer == {"out": "x" * 200_000, "err": "", "status": 1}
    assert seen == [{"files": ["pkg"], "export_types": False, "is_tty": False,
                     "terminal_width": 80, "command": "check"}]  # fmt: skip


@pytest.mark.parametrize(
    "reply",
    [b"", b"\x00\x00\x00\x05{}", b"\x00\x00\x00\x02[]", b"\x00\x00\x00\x03abc"],
    ids=["closed", "cut", "not-an-object", "not-json"],
)
async def test_an_answer_that_is_not_whole_is_a_wire_error(tmp_path: Path, reply: bytes) -> None:
    sock = tmp_path / "s"
    async with await _serve(sock, "length", reply, []):
        with pytest.raises(DmypyWireError):
            await request(str(sock), "length", "status")


async def test_no_server_is_a_wire_error(tmp_path: Path) -> None:
    with pytest.raises(DmypyWireError):
        await request(str(tmp_path / "nobody"), "length", "status")


def test_the_framing_follows_mypys_version() -> None:
    assert framing_for("2.4.1") == "length"
    assert framing_for("1.20.0") == "length"
    assert framing_for("1.19.1") == "base64"
    assert framing_for("1.7.0") == "base64"
    assert framing_for("1.6.1") is None  # one unframed JSON: its client process is asked
    assert framing_for("dev") == "length"  # the probe at start decides
