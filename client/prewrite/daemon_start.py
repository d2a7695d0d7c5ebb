"""Finding the per-user daemon, or starting it: its command, the detached launch, the socket.

A client connects to the daemon's socket; when none listens (and it may start one) it runs the
daemon's launcher detached (``spawn_daemon``) and polls the socket until a daemon accepts
(``wait_for_daemon``). Only the standard library is imported here.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
from typing import TYPE_CHECKING

from prewrite.errors import DaemonUnavailable
from prewrite.runtime import ensure_private_dir

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.runtime import RuntimePaths

LAUNCH_TIMEOUT_S = 30.0
POLL_S = 0.01


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


def connect_daemon(
    paths: RuntimePaths, connect_timeout_s: float, *, autostart: bool, start_timeout_s: float
) -> socket.socket:
    """A connection to the daemon at ``paths``; with ``autostart`` it is started if none listens
    (``DaemonUnavailable`` otherwise)."""
    sock = _try_connect(paths.socket, connect_timeout_s)
    if sock is not None:
        return sock
    if not autostart:
        raise DaemonUnavailable(f"no daemon listens on {paths.socket}")
    spawn_daemon(paths)
    return wait_for_daemon(paths, start_timeout_s)


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
