"""Length-prefixed msgpack frames: a 4-byte big-endian length, then a msgspec-encoded body.

The header helpers are shared by the blocking client and the asyncio daemon. The blocking
helpers take an optional deadline (a ``time.monotonic()`` value) covering the whole frame, so a
peer that stops mid-frame cannot hold the caller past it: ``TimeoutError`` is raised instead.
"""

from __future__ import annotations

import struct
import time
from typing import TYPE_CHECKING, TypeVar

import msgspec

from prewrite.errors import ConnectionLost, FrameTooLarge

if TYPE_CHECKING:
    import socket

MAX_FRAME_BYTES = 64 * 1024 * 1024
HEADER = struct.Struct(">I")

_encoder = msgspec.msgpack.Encoder()
T = TypeVar("T")


def _limit(limit: int | None) -> int:
    return MAX_FRAME_BYTES if limit is None else limit


def encode_body(message: object, limit: int | None = None) -> bytes:
    """Serialise ``message``, refusing a body over ``limit`` (default ``MAX_FRAME_BYTES``)."""
    body = _encoder.encode(message)
    if len(body) > _limit(limit):
        raise FrameTooLarge(f"frame of {len(body)} bytes exceeds {_limit(limit)}")
    return body


def encode_frame(message: object, limit: int | None = None) -> bytes:
    """Serialise ``message`` and prefix its length."""
    body = encode_body(message, limit)
    return HEADER.pack(len(body)) + body


def body_length(header: bytes, limit: int | None = None) -> int:
    """Decode a header, refusing frames over the limit before reading their body."""
    (length,) = HEADER.unpack(header)
    if length > _limit(limit):
        raise FrameTooLarge(f"frame of {length} bytes exceeds {_limit(limit)}")
    return length


def settimeout_until(sock: socket.socket, deadline: float | None) -> None:
    """Bound the next blocking socket call by what is left of ``deadline`` (None: the socket's
    own timeout stays as it is)."""
    if deadline is None:
        return
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the deadline passed")
    sock.settimeout(left)


def _recv_exact(sock: socket.socket, n: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    remaining = n
    while remaining:
        settimeout_until(sock, deadline)
        chunk = sock.recv(min(remaining, 1 << 20))
        if not chunk:
            raise ConnectionLost("the daemon closed the connection before answering")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def send_frame(sock: socket.socket, message: object, deadline: float | None = None) -> None:
    """Write one frame to a blocking socket (before ``deadline``, else ``TimeoutError``)."""
    frame = encode_frame(message)
    settimeout_until(sock, deadline)
    sock.sendall(frame)  # since Python 3.5 the timeout bounds the whole sendall


def recv_frame(
    sock: socket.socket, decoder: msgspec.msgpack.Decoder[T], deadline: float | None = None
) -> T:
    """Read one frame from a blocking socket and decode it (before ``deadline``, else
    ``TimeoutError``)."""
    length = body_length(_recv_exact(sock, HEADER.size, deadline))
    return decoder.decode(_recv_exact(sock, length, deadline))
