"""Where a workspace stands before its first check: trusted or not (and why), the interpreter a
check uses and whether prewrite may run it, the packages it sees, the daemon, ``prewrite`` on
``PATH``.

Each answer is the daemon's own function's (``prewrite.trust``, ``resolve_python``,
``interpreter_may_run``, the Python language's environment), asked the way the registry asks
it. One difference: the daemon also refuses an interpreter inside *another* untrusted workspace
it has open; the doctor knows no open workspaces, so it judges the interpreter against this
root and the user's trust list alone.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import psutil

from prewrite.errors import PrewriteError
from prewrite.runtime import read_status, runtime_paths
from prewrite.trust import is_trusted, trust_file, why_untrusted
from prewrite_daemon.doctor.report import DaemonState, Setup
from prewrite_daemon.languages.python.environment import resolve_python
from prewrite_daemon.languages.python.interpreter_trust import interpreter_may_run
from prewrite_daemon.languages.python.language import PYTHON

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class Place:
    """The workspace as a check would meet it."""

    root: Path
    trusted: bool
    python: str | None  # the interpreter checks use (None: none found, ``python_error`` says)
    run_python: str | None  # the same when prewrite may run it, else None
    site_dirs: list[Path] = field(default_factory=list["Path"])
    python_error: str | None = None


def locate(root: Path, python: str | None) -> Place:
    """``root`` (resolved, a directory) and the interpreter named, or the one a check finds."""
    trusted = is_trusted(root)
    try:
        found = resolve_python(root, python)
    except PrewriteError as exc:
        return Place(root, trusted, None, None, python_error=str(exc))
    may_run = interpreter_may_run(found, root, trusted, [], is_trusted)
    run_python = found if may_run else None
    try:
        site_dirs = PYTHON.environment(root, found, run_python, trusted).site_dirs
    except PrewriteError as exc:
        return Place(root, trusted, found, run_python, python_error=str(exc))
    return Place(root, trusted, found, run_python, site_dirs)


def setup(place: Place) -> Setup:
    return Setup(
        trusted=place.trusted,
        untrusted_why=why_untrusted(place.root),
        trust_file=str(trust_file()),
        python=place.python,
        python_runs=place.run_python is not None,
        python_note=_python_note(place),
        daemon=daemon_state(),
        prewrite_on_path=shutil.which("prewrite"),
    )


def _python_note(place: Place) -> str:
    if place.python is None:
        return place.python_error or "no interpreter found"
    if place.python_error is not None:
        return place.python_error
    if place.run_python is not None:
        return "run to learn its packages; the tests rung runs it"
    return (
        "not run: it is code of a repository you have not trusted (this one or another); its "
        "packages are read from disk"
    )


def daemon_state() -> DaemonState:
    """The status file the daemon writes once it listens, and whether its process lives."""
    paths = runtime_paths()
    status = read_status(paths)
    if status is None:
        return DaemonState(False, note="not running: the first check starts it")
    if not psutil.pid_exists(status.pid) or status.pid == os.getpid():
        note = f"not running: {paths.status_file} names pid {status.pid}, which has exited"
        return DaemonState(False, status.pid, status.version, status.socket, note)
    return DaemonState(True, status.pid, status.version, status.socket, "running")
