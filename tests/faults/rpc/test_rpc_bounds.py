"""Bounds on a raw socket against a real daemon process: a path the filesystem cannot hold is
``bad_request``, a reply over the frame limit is a typed error and the connection serves on.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import pytest

from prewrite.errors import ErrorDetail
from prewrite.framing import HEADER, body_length, encode_frame
from prewrite.protocol import (
    PROTOCOL_VERSION,
    CheckRequest,
    ErrorReply,
    FileChange,
    Hello,
    HelloReply,
    Reply,
    Request,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopRequest,
    WorkspaceStatus,
)
from prewrite_daemon.rpc import serve_unix
from tests.faults.raw_daemon import RawConnection, expect
from tests.faults.raw_daemon import replies as _replies


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("pkg/" + "n" * 300 + ".py", id="component-300-bytes"),
        pytest.param("/".join(["d" * 200] * 25) + "/a.py", id="path-5000-bytes"),
        pytest.param("é" * 130 + ".py", id="component-263-utf8-bytes"),
    ],
)
def test_a_path_the_filesystem_cannot_hold_is_bad_request(
    conn: RawConnection, tmp_path: Path, path: str
) -> None:
    conn.hello()
    request = CheckRequest(str(tmp_path), [FileChange(path, None, "x = 1\n")], sys.executable)
    reply = expect(conn.ask(request), ErrorReply)
    assert reply.code == "bad_request", reply.message
    assert [d.path for d in reply.details] == [path]  # named as given
    expect(conn.ask(StatusRequest()), StatusReply)


def _status_of_size(n: int) -> StatusReply:
    ws = WorkspaceStatus("/w" * 50, "python", "running", 1, 1)
    return StatusReply(1, "v", "/s", 0.0, [ws] * n)


async def _ask(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: Request
) -> Reply:
    writer.write(encode_frame(request))
    await writer.drain()
    length = body_length(await reader.readexactly(HEADER.size))
    return _replies.decode(await reader.readexactly(length))


async def test_a_reply_over_the_frame_limit_is_a_typed_error_and_the_connection_serves_on(
    tmp_path: Path,
) -> None:
    limit = 4096
    big_error = ErrorReply("stale_base", "m" * 5000, [ErrorDetail("x" * 200, "p")] * 500)

    async def handler(request: Request) -> Reply:
        match request:
            case Hello():
                return HelloReply(PROTOCOL_VERSION, "test", os.getpid())
            case StatsRequest():
                return big_error
            case _:
                return _status_of_size(1 if isinstance(request, StopRequest) else 1000)

    sent: list[Reply] = []
    path = Path(tempfile.mkdtemp(prefix="pw-", dir="/tmp")) / "s.sock"
    server = await serve_unix(str(path), handler, sent.append, max_frame_bytes=limit)
    try:
        reader, writer = await asyncio.open_unix_connection(str(path))
        try:
            expect(await _ask(reader, writer, Hello(PROTOCOL_VERSION, "t")), HelloReply)
            too_big = expect(await _ask(reader, writer, StatusRequest()), ErrorReply)
            assert too_big.code == "frame_too_large"
            assert "status_reply" in too_big.message
            error = expect(await _ask(reader, writer, StatsRequest()), ErrorReply)
            assert error.code == "stale_base"  # an error keeps its code, cut to fit
            assert 0 < len(error.details) < 500
            assert "more details left out" in error.message
            small = expect(await _ask(reader, writer, StopRequest()), StatusReply)
            assert len(small.workspaces) == 1  # the connection kept serving
        finally:
            writer.close()
            await writer.wait_closed()
    finally:
        server.close()
        await server.wait_closed()
        path.unlink(missing_ok=True)
        path.parent.rmdir()
    assert len(sent) == 4  # every request got exactly one reply
