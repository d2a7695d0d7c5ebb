"""Protocol abuse on a raw socket against a real daemon process (no checker ever starts): the
handshake and malformed input — garbage bodies, a request before ``hello``, a wrong protocol
version, an oversized frame header, pipelined frames, ``status``, connections served independently.
"""

from __future__ import annotations

import msgspec
import pytest

from prewrite.framing import HEADER, MAX_FRAME_BYTES, encode_frame
from prewrite.protocol import (
    PROTOCOL_VERSION,
    Hello,
    HelloReply,
    Request,
    StatsReply,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopReply,
    StopRequest,
)
from prewrite.runtime import read_status
from tests.faults.raw_daemon import DaemonProc, RawConnection, error_code, expect


def test_hello_names_the_daemon(conn: RawConnection, shared: DaemonProc) -> None:
    reply = conn.hello()
    assert reply.protocol_version == PROTOCOL_VERSION
    assert reply.pid == shared.proc.pid


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\xc1", id="never-used-byte"),
        pytest.param(b"\x92\x01", id="truncated-array"),
        pytest.param(msgspec.msgpack.encode(42), id="not-a-map"),
        pytest.param(msgspec.msgpack.encode({"type": "format_disk"}), id="unknown-tag"),
        pytest.param(msgspec.msgpack.encode({"type": "hello"}), id="missing-fields"),
        pytest.param(msgspec.msgpack.encode(StopReply()), id="a-reply"),
    ],
)
def test_garbage_body_is_bad_request_and_the_connection_keeps_serving(
    conn: RawConnection, body: bytes
) -> None:
    assert error_code(conn.ask_raw(body)) == "bad_request"
    conn.hello()
    assert error_code(conn.ask_raw(body)) == "bad_request"
    expect(conn.ask(StatusRequest()), StatusReply)


@pytest.mark.parametrize("request_", [StatusRequest(), StopRequest()], ids=["status", "stop"])
def test_a_request_before_hello_is_refused(
    conn: RawConnection, shared: DaemonProc, request_: Request
) -> None:
    assert error_code(conn.ask(request_)) == "bad_request"
    assert shared.proc.poll() is None  # an ungreeted stop stopped nothing
    assert shared.paths.status_file.exists()
    conn.hello()
    expect(conn.ask(StatusRequest()), StatusReply)


def test_a_wrong_protocol_version_is_refused(conn: RawConnection) -> None:
    reply = conn.ask(Hello(PROTOCOL_VERSION + 1, "from-the-future"))
    assert error_code(reply) == "version_mismatch"
    assert error_code(conn.ask(StatusRequest())) == "bad_request"  # still not greeted


def test_an_oversized_frame_header_is_answered_then_closed(conn: RawConnection) -> None:
    conn.hello()
    conn.sock.sendall(HEADER.pack(MAX_FRAME_BYTES + 1))
    assert error_code(conn.recv()) == "frame_too_large"
    assert conn.sock.recv(1) == b""  # the daemon hung up: the stream cannot be resynchronised


def test_pipelined_frames_are_answered_in_order_and_the_connection_serves_on(
    conn: RawConnection,
) -> None:
    """A client that sends its next frame before the reply (here: in the same write as hello).

    Both are answered, in order, and the stream stays in step: the byte the daemon's hang-up
    probe reads while hello is handled is the start of the status frame, and is kept.
    """
    conn.sock.sendall(encode_frame(Hello(PROTOCOL_VERSION, "t")) + encode_frame(StatusRequest()))
    expect(conn.recv(), HelloReply)
    expect(conn.recv(), StatusReply)
    three = [StatusRequest(), StatsRequest(), StatusRequest()]
    conn.sock.sendall(b"".join(encode_frame(r) for r in three))
    assert [type(conn.recv()) for _ in three] == [StatusReply, StatsReply, StatusReply]
    expect(conn.ask(StatusRequest()), StatusReply)


def test_status_describes_the_daemon(conn: RawConnection, shared: DaemonProc) -> None:
    conn.hello()
    reply = expect(conn.ask(StatusRequest()), StatusReply)
    assert reply.pid == shared.proc.pid
    assert reply.socket == str(shared.paths.socket)
    assert reply.uptime_s >= 0
    status_file = read_status(shared.paths)
    assert status_file is not None
    assert (status_file.pid, status_file.socket) == (shared.proc.pid, str(shared.paths.socket))


def test_connections_are_served_independently(shared: DaemonProc) -> None:
    idle, busy = RawConnection(shared.paths.socket), RawConnection(shared.paths.socket)
    try:
        idle.hello()
        busy.hello()
        expect(busy.ask(StatusRequest()), StatusReply)
        expect(idle.ask(StatusRequest()), StatusReply)
    finally:
        idle.close()
        busy.close()
