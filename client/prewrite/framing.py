"""Length-prefixed msgpack frames: a 4-byte big-endian length, then a msgspec-encoded body.

The header helpers are shared by the blocking client and the asyncio daemon.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, TypeVar

import msgspec

from prewrite.errors import ConnectionLost, FrameTooLarge

if TYPE_CHECKING:
    import socket

MAX_FRAME_BYTES = 64 * 1024 * 1024
HEADER = struct.Struct(">I")

_encoder = msgspec.msgpack.Encoder()
T = TypeVar("T")


def encode_frame(message: object) -> bytes:
    """Serialise ``message`` and prefix its length."""
    body = _encoder.encode(message)
    if len(body) > MAX_FRAME_BYTES:
        raise FrameTooLarge(f"frame of {len(body)} bytes exceeds {MAX_FRAME_BYTES}")
    return HEADER.pack(len(body)) + body


def body_length(header: bytes) -> int:
    """Decode a header, refusing frames over the limit before reading their body."""
    (length,) = HEADER.unpack(header)
    if length > MAX_FRAME_BYTES:
        raise FrameTooLarge(f"frame of {length} bytes exceeds {MAX_FRAME_BYTES}")
    return length


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks: list[bytes] = []
    remaining = n
    while remaining:
        chunk = sock.recv(min(remaining, 1 << 20))
        if not chunk:
            raise ConnectionLost("the daemon closed the connection before answering")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def send_frame(sock: socket.socket, message: object) -> None:
    """Write one frame to a blocking socket."""
    sock.sendall(encode_frame(message))


def recv_frame(sock: socket.socket, decoder: msgspec.msgpack.Decoder[T]) -> T:
    """Read one frame from a blocking socket and decode it."""
    length = body_length(_recv_exact(sock, HEADER.size))
    return decoder.decode(_recv_exact(sock, length))
