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
from prewrite.errors import ConnectionLost, DaemonUnavailable, PrewriteError, error_from_code
from prewrite.framing import recv_frame, send_frame
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyReply,
    ApplyRequest,
    CheckReply,
    CheckRequest,
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

_reply_decoder: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)


def daemon_command() -> list[str]:
    """The command that runs the daemon in the foreground.

    ``PREWRITE_DAEMON_CMD`` (whitespace-separated) overrides; otherwise this interpreter's
    ``prewrite_daemon`` module when it is installed, else ``prewrite-daemon`` on PATH.
    """
    override = os.environ.get("PREWRITE_DAEMON_CMD")
    if override:
        return override.split()
    if importlib.util.find_spec("prewrite_daemon") is not None:
        return [sys.executable, "-m", "prewrite_daemon"]
    exe = shutil.which("prewrite-daemon")
    if exe:
        return [exe]
    raise DaemonUnavailable(
        "the daemon is not installed: pip install 'prewrite[daemon]' or set PREWRITE_DAEMON_CMD"
    )


def spawn_daemon(paths: RuntimePaths, extra_args: Sequence[str] = ()) -> None:
    """Start the daemon detached from this process (it forks away; its output goes to the log).

    Returns once the launcher has exited; the daemon itself may still be starting.
    """
    ensure_private_dir(paths.runtime_dir)
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(paths.runtime_dir))
    with paths.log_file.open("ab") as log:
        launcher = subprocess.Popen(
            [*daemon_command(), "--detach", *extra_args],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
            start_new_session=True,
        )
    if launcher.wait(timeout=30) != 0:
        raise DaemonUnavailable(
            f"the daemon launcher exited with code {launcher.returncode}; see {paths.log_file}"
        )


class Client:
    """A connection to the prewrite daemon. Use as a context manager or call ``close()``."""

    def __init__(
        self,
        *,
        autostart: bool = True,
        start_timeout_s: float = 30.0,
        paths: RuntimePaths | None = None,
    ) -> None:
        self.paths = paths or runtime_paths()
        self._sock = self._connect(autostart, start_timeout_s)
        try:
            hello = self._call(Hello(PROTOCOL_VERSION, __version__), HelloReply)
        except BaseException:
            self._sock.close()
            raise
        self.daemon_pid = hello.pid
        self.daemon_version = hello.daemon_version

    # --- public API ---------------------------------------------------------------------------

    def check(
        self,
        root: str | os.PathLike[str],
        changes: Sequence[FileChange],
        *,
        python: str | None = None,
        timeout_s: float = 120.0,
    ) -> CheckReply:
        """Type-check ``changes`` as one unit; returns only the diagnostics they introduce."""
        request = CheckRequest(
            root=str(Path(root).resolve()),
            changes=list(changes),
            python=_absolute_python(python),
            timeout_s=timeout_s,
        )
        return self._call(request, CheckReply)

    def apply(
        self,
        root: str | os.PathLike[str],
        changes: Sequence[FileChange],
        *,
        python: str | None = None,
        timeout_s: float = 120.0,
        finish: bool = False,
    ) -> ApplyReply:
        """Run the ladder; only if it passes, write the patch all-or-nothing, then run the disk
        rungs (the affected tests; with ``finish``, the "once at the end" rungs too)."""
        request = ApplyRequest(
            root=str(Path(root).resolve()),
            changes=list(changes),
            python=_absolute_python(python),
            timeout_s=timeout_s,
            finish=finish,
        )
        return self._call(request, ApplyReply)

    def finish(self, root: str | os.PathLike[str], *, python: str | None = None) -> FinishReply:
        """Run the workspace's "once at the end" disk rungs."""
        request = FinishRequest(str(Path(root).resolve()), _absolute_python(python))
        return self._call(request, FinishReply)

    def stats(self, root: str | os.PathLike[str] | None = None) -> StatsReply:
        """Per-rung catch counts and median costs from the daemon's verdict record."""
        request = StatsRequest(str(Path(root).resolve()) if root is not None else None)
        return self._call(request, StatsReply)

    def status(self) -> StatusReply:
        return self._call(StatusRequest(), StatusReply)

    def stop(self) -> None:
        """Stop the daemon; returns once its status file is gone."""
        self._call(StopRequest(), StopReply)

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- internals ------------------------------------------------------------------------------

    def _call(self, request: Request, reply_type: type[R]) -> R:
        try:
            send_frame(self._sock, request)
            reply = recv_frame(self._sock, _reply_decoder)
        except OSError as exc:
            raise ConnectionLost(f"lost the daemon connection: {exc}") from exc
        if isinstance(reply, ErrorReply):
            raise error_from_code(reply.code, reply.message, reply.details)
        if not isinstance(reply, reply_type):
            raise PrewriteError(f"unexpected reply {type(reply).__name__}")
        return reply

    def _connect(self, autostart: bool, start_timeout_s: float) -> socket.socket:
        sock = _try_connect(self.paths.socket)
        if sock is not None:
            return sock
        if not autostart:
            raise DaemonUnavailable(f"no daemon listens on {self.paths.socket}")
        spawn_daemon(self.paths)
        return wait_for_daemon(self.paths, start_timeout_s)


def wait_for_daemon(paths: RuntimePaths, timeout_s: float) -> socket.socket:
    """Poll the socket until a daemon accepts (another racing instance counts too)."""
    deadline = time.monotonic() + timeout_s
    delay = 0.01
    while time.monotonic() < deadline:
        sock = _try_connect(paths.socket)
        if sock is not None:
            return sock
        time.sleep(delay)
        delay = min(delay * 2, 0.2)
    raise DaemonUnavailable(
        f"the daemon did not start within {timeout_s:.0f}s; see {paths.log_file}"
    )


def _try_connect(path: Path) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
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
