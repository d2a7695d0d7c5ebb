"""The Unix-socket RPC server: frames in, one reply out per request, errors typed.

Invariant: every decoded request gets exactly one reply. A malformed frame body gets a
``bad_request`` reply and the connection keeps serving; an oversized frame header cannot be
resynchronised, so it gets ``frame_too_large`` and the connection is closed. A reply that would
exceed the frame limit (or cannot be encoded) is replaced by a typed error reply, never dropped.
A client that hangs up mid-request cancels its request (the check reverts its overlays on the
way out). A patch over the input limits, or naming a path with a control character, is refused
as it is decoded, before any work is spent on it (``prewrite.admission``).

Requests are handled one at a time per connection, but a client may pipeline: frames sent before
a reply are read after it, in order, every byte of them (see ``_run_watching_hangup``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import struct
from collections.abc import Awaitable, Callable

import msgspec

from prewrite.admission import admit
from prewrite.errors import (
    BadRequest,
    ErrorDetail,
    FrameTooLarge,
    InternalError,
    PrewriteError,
    VersionMismatch,
)
from prewrite.framing import HEADER, MAX_FRAME_BYTES, body_length, encode_frame
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyRequest,
    CheckRequest,
    EditorAttached,
    ErrorReply,
    Hello,
    Reply,
    Request,
)

log = logging.getLogger(__name__)

Handler = Callable[[Request], Awaitable[Reply]]
# After ``EditorAttached`` is sent, the connection is the editor session's (LSP from then on).
Takeover = Callable[[EditorAttached, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
_decoder: msgspec.msgpack.Decoder[Request] = msgspec.msgpack.Decoder(Request)
_SO_PEERCRED = getattr(socket, "SO_PEERCRED", 17)
MAX_KEPT_DETAILS = 100  # an error reply over the frame limit keeps this many details
MAX_TEXT = 1000  # ... each cut to this many characters


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process on the other end of a Unix socket (Linux SO_PEERCRED)."""
    creds = sock.getsockopt(socket.SOL_SOCKET, _SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid


def error_reply(exc: PrewriteError) -> ErrorReply:
    return ErrorReply(code=exc.code, message=exc.message, details=exc.details)


class Connection:
    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        handler: Handler,
        on_sent: Callable[[Reply], None],
        max_frame_bytes: int = MAX_FRAME_BYTES,
        takeover: Takeover | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.handler = handler
        self.on_sent = on_sent
        self.takeover = takeover
        self.max_frame_bytes = max_frame_bytes
        self.greeted = False
        self._read_ahead = b""  # what the hang-up probe read: the start of the next frame

    async def serve(self) -> None:
        try:
            while True:
                try:
                    header = await self._read_header()
                except asyncio.IncompleteReadError:
                    return  # a hang-up between requests (or inside a header: nothing to answer)
                try:
                    length = body_length(header, self.max_frame_bytes)
                except FrameTooLarge as exc:
                    await self._send(error_reply(exc))
                    return
                body = await self.reader.readexactly(length)
                reply = await self._answer(body)
                if reply is None:
                    return  # the client hung up mid-request
                try:
                    await self._send(reply)
                finally:
                    self.on_sent(reply)
                if isinstance(reply, EditorAttached) and self.takeover is not None:
                    if self._read_ahead:  # the editor may only speak once attached
                        log.warning("bytes sent before the attach reply; closing")
                        return
                    await self.takeover(reply, self.reader, self.writer)
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            self.writer.close()

    async def _answer(self, body: bytes) -> Reply | None:
        try:
            request = _decoder.decode(body)
        except msgspec.DecodeError as exc:
            return error_reply(BadRequest(f"malformed request: {exc}"))
        if isinstance(request, Hello):
            if request.protocol_version != PROTOCOL_VERSION:
                return error_reply(
                    VersionMismatch(
                        f"daemon speaks protocol {PROTOCOL_VERSION}, "
                        f"client {request.protocol_version}"
                    )
                )
            self.greeted = True
        elif not self.greeted:
            return error_reply(BadRequest("the first message must be hello"))
        if isinstance(request, CheckRequest | ApplyRequest):
            try:
                admit(request.changes)
            except PrewriteError as exc:
                return error_reply(exc)
        return await self._run_watching_hangup(request)

    async def _read_header(self) -> bytes:
        """The next frame's header, starting with the byte the hang-up probe read, if any."""
        ahead, self._read_ahead = self._read_ahead, b""
        return ahead + await self.reader.readexactly(HEADER.size - len(ahead))

    async def _run_watching_hangup(self, request: Request) -> Reply | None:
        """Run the handler; cancel it if the client closes the connection meanwhile.

        The hang-up probe reads one byte. End of stream (or a broken connection) means the
        client is gone: the handler is cancelled, and there is no reply (None). A byte means the
        client pipelined its next frame: the byte is kept as the start of that frame, read after
        this reply, and the request runs to its end (no longer watched). This holds however the
        probe and the handler interleave, including both finishing in the same loop turn.
        """
        work = asyncio.ensure_future(self._dispatch(request))
        probe = asyncio.ensure_future(self.reader.read(1))
        try:
            await asyncio.wait({work, probe}, return_when=asyncio.FIRST_COMPLETED)
            probe.cancel()  # a no-op if it read already: its byte is kept below
            await asyncio.gather(probe, return_exceptions=True)
            hung_up = self._keep_read_ahead(probe)
            if work.done() or not hung_up:
                return await work
            log.info("client hung up during %s; cancelling it", type(request).__name__)
            return None
        finally:  # the hang-up, or our own caller cancelled: no task outlives the request
            probe.cancel()
            work.cancel()
            await asyncio.gather(probe, work, return_exceptions=True)

    def _keep_read_ahead(self, probe: asyncio.Future[bytes]) -> bool:
        """Keep what the (finished) probe read for the next header; True if the client hung up."""
        if probe.cancelled():
            return False  # it read nothing: the handler finished first
        if probe.exception() is not None:
            return True  # e.g. the connection was reset
        self._read_ahead = probe.result()
        return not self._read_ahead  # b"": end of stream

    async def _dispatch(self, request: Request) -> Reply:
        try:
            return await self.handler(request)
        except PrewriteError as exc:
            log.info("%s -> %s: %s", type(request).__name__, exc.code, exc.message)
            return error_reply(exc)
        except Exception:
            log.exception("unexpected failure handling %s", type(request).__name__)
            return error_reply(InternalError("unexpected failure in the daemon; see its log"))

    async def _send(self, reply: Reply) -> None:
        self.writer.write(self._frame(reply))
        await self.writer.drain()

    def _frame(self, reply: Reply) -> bytes:
        """The reply's frame; one that cannot be sent becomes a typed error that can."""
        try:
            return encode_frame(reply, self.max_frame_bytes)
        except FrameTooLarge as exc:
            log.error("%s could not be sent: %s", type(reply).__name__, exc.message)
            for kept in (MAX_KEPT_DETAILS, 10, 0):
                try:
                    return encode_frame(too_large_reply(reply, exc, kept), self.max_frame_bytes)
                except FrameTooLarge:
                    continue
            return encode_frame(error_reply(FrameTooLarge("the reply was too large to send")))
        except Exception:
            log.exception("cannot encode %s", type(reply).__name__)
            return encode_frame(error_reply(InternalError("the daemon could not encode its reply")))


def too_large_reply(reply: Reply, exc: FrameTooLarge, max_details: int) -> ErrorReply:
    """What a client is told instead of a reply over the frame limit (bounded in size).

    An error keeps its code and its first ``max_details`` details; any other reply becomes
    ``frame_too_large``.
    """
    if isinstance(reply, ErrorReply):
        kept = reply.details[:max_details]
        note = f" ({len(reply.details) - len(kept)} more details left out: too large)"
        details = [ErrorDetail(d.message[:MAX_TEXT], d.path and d.path[:MAX_TEXT]) for d in kept]
        return ErrorReply(reply.code, reply.message[:MAX_TEXT] + note, details)
    return ErrorReply(
        FrameTooLarge.code,
        f"the {reply.__struct_config__.tag} could not be sent: {exc.message}; "
        "ask for contents by reference (return_contents=false) or a smaller patch",
    )


def _nothing(_reply: Reply) -> None:
    return None


async def serve_unix(
    path: str,
    handler: Handler,
    on_sent: Callable[[Reply], None] = _nothing,
    max_frame_bytes: int = MAX_FRAME_BYTES,
    takeover: Takeover | None = None,
) -> asyncio.Server:
    """Listen on ``path`` (mode 0600); peers of another uid are refused.

    ``on_sent`` runs after each reply was written (or failed to be): the daemon stops there,
    so the ``stop`` reply always goes out first. ``max_frame_bytes`` bounds frames both ways.
    """

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock: socket.socket = writer.get_extra_info("socket")
        if peer_uid(sock) != os.getuid():
            log.warning("refused a connection from another user")
            writer.close()
            return
        await Connection(reader, writer, handler, on_sent, max_frame_bytes, takeover).serve()

    old_umask = os.umask(0o177)
    try:
        server = await asyncio.start_unix_server(on_connect, path, limit=1 << 20)
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    return server
