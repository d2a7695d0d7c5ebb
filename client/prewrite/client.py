"""The blocking Python client: connect to the per-user daemon (starting it if needed) and ask.

Only the standard library and msgspec are imported here, so an agent loop can ``import prewrite``
without the daemon's dependencies.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec

from prewrite import __version__
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
from prewrite.runtime import RuntimePaths, ensure_private_dir, runtime_paths

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import TracebackType

R = TypeVar("R")

DEFAULT_CALL_TIMEOUT_S = 30.0  # the handshake and the quick requests (status, stats, stop)
REPLY_MARGIN_S = 5.0  # past a request's own timeout: encoding, transfer, scheduling
PROBE_EVERY_S = 30.0  # apply/finish past the ladder's deadline: prove the daemon is alive
PROBE_TIMEOUT_S = 10.0
LAUNCH_TIMEOUT_S = 30.0

_reply_decoder: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)


def daemon_command() -> list[str]:
    """The command that runs the daemon in the foreground.

    ``PREWRITE_DAEMON_CMD`` (whitespace-separated) overrides; otherwise this interpreter's
    ``prewrite_daemon`` module when it is installed, else ``prewrite-daemon`` on PATH.

    The module runs isolated (``-I``): ``python -m`` would put the caller's directory first on
    ``sys.path``, so a ``yaml.py`` in the folder an agent starts from would run inside the daemon,
    and a folder named ``prewrite`` there would shadow the client package; ``PYTHON*`` variables
    (which a repository's ``.envrc`` may set) and the user's site-packages are ignored too. An
    install the daemon can then not import (one found through ``PYTHONPATH`` only) sets
    ``PREWRITE_DAEMON_CMD``.
    """
    override = os.environ.get("PREWRITE_DAEMON_CMD")
    if override:
        return override.split()
    if importlib.util.find_spec("prewrite_daemon") is not None:
        return [sys.executable, "-I", "-m", "prewrite_daemon"]
    exe = shutil.which("prewrite-daemon")
    if exe:
        return [exe]
    raise DaemonUnavailable(
        "the daemon is not installed: pip install 'prewrite[daemon]' or set PREWRITE_DAEMON_CMD"
    )


def spawn_daemon(paths: RuntimePaths, extra_args: Sequence[str] = ()) -> None:
    """Start the daemon detached from this process (it forks away; its output goes to the log).

    Returns once the launcher has exited; the daemon itself may still be starting. A launcher
    that fails (e.g. an unwritable state directory) is reported with what it logged.
    """
    ensure_private_dir(paths.runtime_dir)
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=os.path.abspath(paths.runtime_dir))
    trust = env.get("PREWRITE_TRUST_FILE")
    if trust:  # the daemon runs in "/": a relative setting must name the same file there
        env["PREWRITE_TRUST_FILE"] = os.path.abspath(trust)
    with paths.log_file.open("ab") as log:
        logged_from = log.tell()
        launcher = subprocess.Popen(
            [*daemon_command(), "--detach", *extra_args],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
            cwd="/",  # never the caller's directory (a repository): nothing of it is imported
            start_new_session=True,
        )
    try:
        code = launcher.wait(timeout=LAUNCH_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        launcher.kill()
        launcher.wait()
        raise DaemonUnavailable(
            f"the daemon launcher did not return within {LAUNCH_TIMEOUT_S:.0f}s; "
            f"see {paths.log_file}"
        ) from None
    if code != 0:
        said = _logged_since(paths.log_file, logged_from)
        raise DaemonUnavailable(
            f"the daemon did not start (launcher exit code {code})"
            + (f": {said}" if said else "")
            + f"; see {paths.log_file}"
        )


def _logged_since(log_file: Path, offset: int, limit: int = 2000) -> str:
    """The last lines the launcher wrote to the log (bounded), as one line."""
    try:
        with log_file.open("rb") as f:
            f.seek(max(offset, f.seek(0, os.SEEK_END) - limit))
            text = f.read(limit).decode(errors="replace")
    except OSError:
        return ""
    return " | ".join(line.strip() for line in text.splitlines()[-3:] if line.strip())


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
        self._sock: socket.socket | None = self._connect(autostart, start_timeout_s)
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

    def _connect(self, autostart: bool, start_timeout_s: float) -> socket.socket:
        sock = _try_connect(self.paths.socket, self.call_timeout_s)
        if sock is not None:
            return sock
        if not autostart:
            raise DaemonUnavailable(f"no daemon listens on {self.paths.socket}")
        spawn_daemon(self.paths)
        return wait_for_daemon(self.paths, start_timeout_s)


POLL_S = 0.01


def wait_for_daemon(paths: RuntimePaths, timeout_s: float) -> socket.socket:
    """Poll the socket until a daemon accepts (another racing instance counts too)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        sock = _try_connect(paths.socket, max(0.1, deadline - time.monotonic()))
        if sock is not None:
            return sock
        # A refused connect costs microseconds; a daemon starting takes ~0.5 s. Every poll
        # missed is the first check's wait (a backoff to 0.2 s cost up to 0.2 s of it).
        time.sleep(POLL_S)
    raise DaemonUnavailable(
        f"the daemon did not start within {timeout_s:.0f}s; see {paths.log_file}"
    )


def _try_connect(path: Path, timeout_s: float) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout_s)  # a stopped daemon's full backlog must not block connect()
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        return None
    return sock


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
