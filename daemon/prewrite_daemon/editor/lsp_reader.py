"""An editor connection's reader, bounded: pygls reads a message of whatever ``Content-Length``
the editor names, buffering it whole before it parses a byte of it.

``BoundedReader`` is the reader pygls's message loop (``pygls.io_.run_async``) is given: a header
line is bounded by the stream's own limit (1 MiB, ``ValueError`` past it), and a message body by
``MAX_MESSAGE_BYTES`` — named in the header, refused before it is read. Either ends that editor's
session (``FrameTooLarge``), never the daemon: its framing cannot be resynchronised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.errors import FrameTooLarge
from prewrite.framing import MAX_FRAME_BYTES

if TYPE_CHECKING:
    import asyncio

# An agent's frame limit: an editor's didOpen of the largest file prewrite edits fits.
MAX_MESSAGE_BYTES = MAX_FRAME_BYTES


class BoundedReader:
    """``readline`` as the stream's; ``readexactly`` refuses more than ``limit`` bytes."""

    def __init__(self, reader: asyncio.StreamReader, limit: int = MAX_MESSAGE_BYTES) -> None:
        self._reader = reader
        self._limit = limit

    async def readline(self) -> bytes:
        return await self._reader.readline()

    async def readexactly(self, n: int) -> bytes:
        if n > self._limit:
            raise FrameTooLarge(f"an LSP message of {n} bytes, over the limit of {self._limit}")
        return await self._reader.readexactly(n)
