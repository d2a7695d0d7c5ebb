"""dmypy's own wire, spoken from the daemon: one request per connection to the server's socket.

``python -m mypy.dmypy check`` is a new interpreter importing mypy's client for every check:
80 ms on an idle machine, 200 to 300 ms under load, more than dmypy's own increment on httpx
(about 100 ms). The request it sends is small and its answer is the server's, unchanged, so the
daemon sends it itself: the same command and arguments (``mypy/dmypy/client.py: request``), the
same reply read the same way (``check_output``: ``error`` is a failure, else ``out``, ``err``
and ``status``).

The framing is mypy's private business (``mypy/ipc.py``) and has changed twice: from 1.20 a
4-byte big-endian length before each JSON frame; from 1.7 to 1.19 each frame in base64 followed
by a space; before 1.7 one unframed JSON, not spoken here (``framing_for``: None, the client
process is run). The server may send frames carrying its own stdout and stderr before the one
marked ``final``. ``DmypyBackend`` asks ``status`` first: a server that does not answer it on
this wire is asked through its client process from then on, so a future framing costs speed,
never an answer.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import struct
from typing import Any, Literal, cast

log = logging.getLogger(__name__)

Framing = Literal["length", "base64"]
FRAME_CAP = 64 * 1024 * 1024  # a report larger than this is no answer we keep (nor a sane one)
READ_SIZE = 1 << 16
_HEADER = struct.Struct("!L")
# What mypy's client adds to every request: the server formats a check's report by them (and
# deletes them for other commands), so they must be there. The report is JSON lines or
# ``--no-pretty`` text either way; the width is the client's own when its output is captured.
_CLIENT_ARGS = {"is_tty": False, "terminal_width": 80}


class DmypyWireError(OSError):
    """The server's socket refused, closed early, or sent what is not a frame of JSON."""


def framing_for(version: str) -> Framing | None:
    """The framing of this mypy version's dmypy (None: not spoken; an unreadable version: the
    newest, which the probe at start then confirms or refuses)."""
    try:
        major, minor = (int(part) for part in version.split(".")[:2])
    except ValueError:
        return "length"
    if (major, minor) >= (1, 20):
        return "length"
    if (major, minor) >= (1, 7):
        return "base64"
    return None


async def request(
    connection: str, framing: Framing, command: str, **args: object
) -> dict[str, Any]:
    """The server's final answer to ``command``; frames before it (the server's own stdout and
    stderr) go to the log. The caller bounds the wait (``Child.wait``)."""
    try:
        reader, writer = await asyncio.open_unix_connection(connection, limit=READ_SIZE)
    except OSError as exc:
        raise DmypyWireError(f"cannot reach dmypy at {connection}: {exc}") from exc
    try:
        writer.write(_frame(framing, {**args, **_CLIENT_ARGS, "command": command}))
        await writer.drain()
        frames = _Frames(reader, framing)
        while True:
            answer = await frames.next()
            for stream in ("stdout", "stderr"):
                said = answer.pop(stream, None)
                if said:
                    log.info("[dmypy %s] %s", stream, str(said).rstrip())
            if answer.pop("final", False):
                return answer
    except (OSError, asyncio.IncompleteReadError) as exc:
        raise DmypyWireError(f"dmypy's socket failed: {exc}") from exc
    finally:
        writer.close()


def _frame(framing: Framing, data: dict[str, object]) -> bytes:
    body = json.dumps(data).encode()
    if framing == "length":
        return _HEADER.pack(len(body)) + body
    return base64.encodebytes(body) + b" "  # what ``codecs.encode(.., "base64")`` gives


class _Frames:
    """The frames of one connection, in order (both framings may put several in one read)."""

    def __init__(self, reader: asyncio.StreamReader, framing: Framing) -> None:
        self._reader = reader
        self._framing = framing

    async def next(self) -> dict[str, Any]:
        if self._framing == "length":
            (size,) = _HEADER.unpack(await self._reader.readexactly(_HEADER.size))
            if size > FRAME_CAP:
                raise DmypyWireError(f"a frame of {size} bytes (the cap is {FRAME_CAP})")
            body = await self._reader.readexactly(size)
        else:
            body = await self._until_space()
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise DmypyWireError(f"not a JSON frame: {body[:200]!r}") from exc
        if not isinstance(data, dict):
            raise DmypyWireError(f"not a JSON object: {body[:200]!r}")
        return cast("dict[str, Any]", data)

    async def _until_space(self) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                chunk = await self._reader.readuntil(b" ")
            except asyncio.LimitOverrunError as exc:  # no space in the buffer yet: take it all
                chunk = await self._reader.readexactly(exc.consumed)
            size += len(chunk)
            if size > FRAME_CAP:
                raise DmypyWireError(f"a frame past {FRAME_CAP} bytes")
            if chunk.endswith(b" "):
                chunks.append(chunk[:-1])
                break
            chunks.append(chunk)
        try:
            return base64.decodebytes(b"".join(chunks))
        except ValueError as exc:
            raise DmypyWireError("not a base64 frame") from exc
