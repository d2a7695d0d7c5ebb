"""Framing over real sockets: frames round trip in order and across several reads, oversized headers
and messages are refused before the body is read, a truncated stream is ``connection_lost``,
deadlines (a silent peer, one already past, one met) and a limit lowered per call.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import TYPE_CHECKING

import pytest

from prewrite import framing
from prewrite.errors import ConnectionLost, FrameTooLarge
from prewrite.framing import HEADER, MAX_FRAME_BYTES, body_length, encode_frame
from prewrite.protocol import CheckRequest, FileChange, StatusRequest
from tests.unit.wire_samples import REQUESTS
from tests.unit.wire_samples import request_decoder as _requests

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    a.settimeout(10)
    b.settimeout(10)
    with a, b:
        yield a, b


# --- framing --------------------------------------------------------------------------------


def test_frames_round_trip_in_order(pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    for request in REQUESTS:
        framing.send_frame(a, request)
    assert [framing.recv_frame(b, _requests) for _ in REQUESTS] == REQUESTS


def test_frame_larger_than_one_recv_round_trips(pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    big = CheckRequest(root="/w", changes=[FileChange("big.py", None, "x" * (3 << 20))])
    # The socket buffer is far smaller than the frame: the sender must run concurrently.
    sender = threading.Thread(target=framing.send_frame, args=(a, big))
    sender.start()
    try:
        assert framing.recv_frame(b, _requests) == big
    finally:
        sender.join()


def test_oversized_header_raises_before_reading_the_body(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    a, b = pair
    a.sendall(HEADER.pack(MAX_FRAME_BYTES + 1) + b"body")
    with pytest.raises(FrameTooLarge) as exc_info:
        framing.recv_frame(b, _requests)
    assert exc_info.value.code == "frame_too_large"
    assert b.recv(16) == b"body"  # the body was never consumed


def test_header_at_the_limit_is_accepted() -> None:
    assert body_length(HEADER.pack(MAX_FRAME_BYTES)) == MAX_FRAME_BYTES
    with pytest.raises(FrameTooLarge):
        body_length(HEADER.pack(MAX_FRAME_BYTES + 1))


def test_encoding_an_oversized_message_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(framing, "MAX_FRAME_BYTES", 16)
    with pytest.raises(FrameTooLarge):
        encode_frame(CheckRequest(root="/w", changes=[FileChange("a.py", None, "x" * 64)]))


@pytest.mark.parametrize(
    "sent",
    [
        pytest.param(b"", id="nothing"),
        pytest.param(b"\x00\x00", id="half-header"),
        pytest.param(HEADER.pack(10) + b"abcd", id="half-body"),
    ],
)
def test_truncated_stream_raises_connection_lost(
    pair: tuple[socket.socket, socket.socket], sent: bytes
) -> None:
    a, b = pair
    a.sendall(sent)
    a.shutdown(socket.SHUT_WR)
    with pytest.raises(ConnectionLost):
        framing.recv_frame(b, _requests)


def test_a_silent_peer_is_a_timeout_at_the_deadline(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    a, b = pair
    a.sendall(HEADER.pack(10) + b"abc")  # part of a frame, then nothing
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        framing.recv_frame(b, _requests, deadline=started + 0.3)
    assert 0.3 <= time.monotonic() - started < 1.3


def test_a_deadline_already_past_sends_nothing(pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    with pytest.raises(TimeoutError):
        framing.send_frame(a, StatusRequest(), deadline=time.monotonic() - 1)
    b.setblocking(False)
    with pytest.raises(BlockingIOError):
        b.recv(1)


def test_a_frame_within_its_deadline_round_trips(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    a, b = pair
    framing.send_frame(a, StatusRequest(), deadline=time.monotonic() + 5)
    assert framing.recv_frame(b, _requests, deadline=time.monotonic() + 5) == StatusRequest()
    assert b.gettimeout() is not None  # bounded by the deadline, never blocking forever


def test_the_limit_can_be_lowered_per_call() -> None:
    message = CheckRequest(root="/w", changes=[FileChange("a.py", None, "x" * 64)])
    assert len(encode_frame(message, limit=1024)) < 1024
    with pytest.raises(FrameTooLarge):
        encode_frame(message, limit=32)
    with pytest.raises(FrameTooLarge):
        body_length(HEADER.pack(33), limit=32)
