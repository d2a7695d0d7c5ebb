"""The blocking Python client: connect to the per-user daemon (starting it if needed:
``daemon_start``) and ask.

Only the standard library and msgspec are imported here, so an agent loop can ``import prewrite``
without the daemon's dependencies.
"""

from __future__ import annotations

import os
import shutil
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec

from prewrite import __version__
from prewrite.daemon_start import connect_daemon
from prewrite.errors import (
    ConnectionLost,
    DaemonUnavailable,
    DaemonUnresponsive,
    PrewriteError,
    error_from_code,
)
from prewrite.framing import encode_frame, recv_frame, settimeout_until
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyReply,
    ApplyRequest,
    CheckReply,
    CheckRequest,
    EditorAttach,
    EditorAttached,
    ErrorReply,
    FileChange,
    FinishReply,
    FinishRequest,
    Hello,
    HelloReply,
    Reply,
    Request,
    StatsReply,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopReply,
    StopRequest,
)
from prewrite.runtime import runtime_paths

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import TracebackType

    from prewrite.runtime import RuntimePaths

R = TypeVar("R")

DEFAULT_CALL_TIMEOUT_S = 30.0  # the handshake and the quick requests (status, stats, stop)
REPLY_MARGIN_S = 5.0  # past a request's own timeout: encoding, transfer, scheduling
PROBE_EVERY_S = 30.0  # apply/finish past the ladder's deadline: prove the daemon is alive
PROBE_TIMEOUT_S = 10.0

_reply_decoder: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)


class Client:
    """A connection to the prewrite daemon. Use as a context manager or call ``close()``.

    Every call has a deadline of its own on the socket, so a stopped or hung daemon is
    ``DaemonUnresponsive``, never a hang: ``call_timeout_s`` for the handshake and the quick
    requests (status, stats, stop), a check's ``timeout_s`` plus ``REPLY_MARGIN_S`` for a check.
    ``apply`` and ``finish`` run disk rungs whose length the client cannot know: past the
    ladder's deadline the client keeps waiting only while the daemon answers a handshake on a
    second connection (probed every ``PROBE_EVERY_S``). After a failed call the connection is
    closed (the stream cannot be resynchronised); open a new client.
    """

    def __init__(
        self,
        *,
        autostart: bool = True,
        start_timeout_s: float = 30.0,
        paths: RuntimePaths | None = None,
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        self.paths = paths or runtime_paths()
        self.call_timeout_s = call_timeout_s
        self._peer_pid: int | None = None  # known once the handshake is answered
        self._sock: socket.socket | None = connect_daemon(
            self.paths, call_timeout_s, autostart=autostart, start_timeout_s=start_timeout_s
        )
        try:
            hello = self._call(Hello(PROTOCOL_VERSION, __version__), HelloReply, call_timeout_s)
        except BaseException:
            self.close()
            raise
        self.daemon_pid = self._peer_pid = hello.pid
        self.daemon_version = hello.daemon_version

    # --- public API ---------------------------------------------------------------------------

    def check(
        self,
        root: str | os.PathLike[str],
        changes: Sequence[FileChange],
        *,
        python: str | None = None,
        timeout_s: float = 120.0,
        return_contents: bool = True,
        rungs: Sequence[str] | None = None,
        intent: str | None = None,
    ) -> CheckReply:
        """Type-check ``changes`` as one unit; returns only the diagnostics they introduce.

        ``timeout_s`` bounds the daemon's work (queueing and checker start included); the
        client waits ``REPLY_MARGIN_S`` more for the answer, then raises ``DaemonUnresponsive``.
        ``rungs`` runs only those rungs (e.g. ``["typecheck"]``); policy and anchor always run.
        ``intent`` says what the patch is for; a workspace's reviewer judges the patch by it.
        """
        request = CheckRequest(
            root=str(Path(root).resolve()),
            changes=list(changes),
            python=_absolute_python(python),
            timeout_s=timeout_s,
            return_contents=return_contents,
            rungs=None if rungs is None else list(rungs),
            intent=intent,
        )
        return self._call(request, CheckReply, timeout_s + REPLY_MARGIN_S)

    def apply(
        self,
        root: str | os.PathLike[str],
        changes: Sequence[FileChange],
        *,
        python: str | None = None,
        timeout_s: float = 120.0,
        finish: bool = False,
        return_contents: bool = True,
        rungs: Sequence[str] | None = None,
        intent: str | None = None,
    ) -> ApplyReply:
        """Run the ladder; only if it passes, write the patch all-or-nothing, then run the disk
        rungs (the affected tests; with ``finish``, the "once at the end" rungs too)."""
        request = ApplyRequest(
            root=str(Path(root).resolve()),
            changes=list(changes),
            python=_absolute_python(python),
            timeout_s=timeout_s,
            finish=finish,
            return_contents=return_contents,
            rungs=None if rungs is None else list(rungs),
            intent=intent,
        )
        return self._call(request, ApplyReply, timeout_s + REPLY_MARGIN_S, patient=True)

    def finish(self, root: str | os.PathLike[str], *, python: str | None = None) -> FinishReply:
        """Run the workspace's "once at the end" disk rungs."""
        request = FinishRequest(str(Path(root).resolve()), _absolute_python(python))
        return self._call(request, FinishReply, self.call_timeout_s, patient=True)

    def stats(self, root: str | os.PathLike[str] | None = None) -> StatsReply:
        """Per-rung catch counts and median costs from the daemon's verdict record."""
        request = StatsRequest(str(Path(root).resolve()) if root is not None else None)
        return self._call(request, StatsReply, self.call_timeout_s)

    def status(self) -> StatusReply:
        return self._call(StatusRequest(), StatusReply, self.call_timeout_s)

    def stop(self) -> None:
        """Stop the daemon; returns once its status file is gone."""
        self._call(StopRequest(), StopReply, self.call_timeout_s)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def attach_editor(self) -> socket.socket:
        """Turn this connection into an editor session; the socket is the caller's from now on
        (it carries LSP, not this protocol), and this client is closed."""
        self._call(EditorAttach(), EditorAttached, self.call_timeout_s)
        sock, self._sock = self._sock, None
        assert sock is not None
        return sock

    # --- internals ------------------------------------------------------------------------------

    def _call(
        self, request: Request, reply_type: type[R], wait_s: float, *, patient: bool = False
    ) -> R:
        sock = self._sock
        if sock is None:
            raise ConnectionLost("this connection was closed; open a new client")
        frame = encode_frame(request)  # too large: refused before anything is sent
        deadline = time.monotonic() + wait_s
        try:
            settimeout_until(sock, deadline)
            sock.sendall(frame)
            self._wait_readable(sock, deadline, patient)
            # The reply has begun: the rest comes at the daemon's send speed.
            rest = max(deadline, time.monotonic() + self.call_timeout_s)
            reply = recv_frame(sock, _reply_decoder, rest)
        except TimeoutError:
            self.close()
            raise DaemonUnresponsive(self._unresponsive(request, wait_s)) from None
        except OSError as exc:
            self.close()
            raise ConnectionLost(f"lost the daemon connection: {exc}") from exc
        except msgspec.DecodeError as exc:
            self.close()
            raise ConnectionLost(f"the daemon sent an undecodable reply: {exc}") from exc
        except BaseException:
            self.close()  # a frame cut short (or an interrupt) leaves the stream unusable
            raise
        if isinstance(reply, ErrorReply):
            raise error_from_code(reply.code, reply.message, reply.details)
        if not isinstance(reply, reply_type):
            raise PrewriteError(f"unexpected reply {type(reply).__name__}")
        return reply

    def _wait_readable(self, sock: socket.socket, deadline: float, patient: bool) -> None:
        """Block until the reply's first byte (or a hang-up) arrives; ``TimeoutError`` past
        ``deadline`` — unless ``patient`` and the daemon still answers a handshake."""
        while True:
            try:
                settimeout_until(sock, deadline)
                sock.recv(1, socket.MSG_PEEK)  # leaves the byte for recv_frame
                return
            except TimeoutError:
                if not patient or not self._daemon_answers():
                    raise
                deadline = time.monotonic() + PROBE_EVERY_S

    def _daemon_answers(self) -> bool:
        """Whether the same daemon answers a handshake on a second connection right now."""
        try:
            probe = Client(
                autostart=False,
                paths=self.paths,
                call_timeout_s=min(self.call_timeout_s, PROBE_TIMEOUT_S),
            )
        except PrewriteError:
            return False
        probe.close()
        return probe.daemon_pid == self._peer_pid

    def _unresponsive(self, request: Request, wait_s: float) -> str:
        who = f"the daemon (pid {self._peer_pid})" if self._peer_pid else "the daemon"
        op = type(request).__name__
        return (
            f"{who} did not answer {op} within {wait_s:.1f}s: it is stopped, hung or "
            f"overloaded; see {self.paths.log_file}"
        )


def _absolute_python(python: str | None) -> str | None:
    """Resolve an interpreter name on *this* PATH, since the daemon's PATH may differ."""
    if python is None:
        return None
    if os.sep in python:
        return str(Path(python).absolute())
    found = shutil.which(python)
    if found is None:
        raise DaemonUnavailable(f"interpreter {python!r} not found on PATH")
    return found
