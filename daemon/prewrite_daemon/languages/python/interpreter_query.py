"""Asking a (trusted) interpreter which package directories it imports from, once per new
workspace and off the event loop.

One run, not isolated (``PYTHONPATH``, the user site and ``.pth`` files count, as they do when
pyright runs the interpreter itself), from ``/`` with the working directory removed from
``sys.path`` before anything but ``os`` and ``sys`` is imported. ``Registry`` asks it in a thread
before a new workspace is made (``prefetch``), and the workspace takes that answer once
(``take_prefetched``), so a slow interpreter (a ``pyenv`` shim costs ~150 ms a run) no longer
holds the event loop.

pyright is still told the interpreter as given, never its ``sys.executable``: pyright runs it
from the shadow's directory, where a shim may resolve another version (``.python-version`` in
a parent of the state directory) than a run from anywhere the daemon could compare it in first.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from prewrite.errors import InvalidWorkspace

QUERY_TIMEOUT_S = 30.0
_QUERY = (
    "import os, sys; "
    "norm = lambda p: os.path.normcase(os.path.normpath(p)); "
    "cwd = norm(os.getcwd()); "
    "sys.path[:] = [p for p in sys.path if p and norm(p) != cwd]; "
    "import json, site; "
    "print(json.dumps({'site': list(site.getsitepackages()) + [site.getusersitepackages()], "
    "'path': sys.path, 'executable': sys.executable}))"
)


@dataclass(frozen=True)
class InterpreterAnswer:
    python: str  # as given
    site_dirs: list[Path]  # existing site-packages / dist-packages directories, in order
    executable: str  # its sys.executable


def ask_interpreter(python: str) -> InterpreterAnswer:
    """Run ``python`` once."""
    raw = _run(python)
    try:
        data = json.loads(raw)
        paths = [str(p) for p in [*data["site"], *data["path"]]]
        executable = str(data["executable"] or "")
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidWorkspace(
            f"{python} is not a Python interpreter (it printed {raw[:80]!r})"
        ) from exc
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.name in ("site-packages", "dist-packages") and path.is_dir() and path not in found:
            found.append(path)
    return InterpreterAnswer(python, found, executable)


_asked: dict[str, tuple[float, InterpreterAnswer]] = {}  # asked ahead, taken once
_asked_lock = threading.Lock()
FRESH_S = 10.0  # an answer asked ahead and not taken by then is asked again


def prefetch(python: str) -> None:
    """Ask ``python`` now, in a thread, for the workspace about to be made to take
    (``take_prefetched``): once, so a later workspace asks afresh, as it always did."""
    try:
        answer = ask_interpreter(python)
    except InvalidWorkspace:
        return  # asked again when the workspace is made, and refused there
    with _asked_lock:
        _asked[python] = (time.monotonic(), answer)


def take_prefetched(python: str) -> InterpreterAnswer | None:
    with _asked_lock:
        asked = _asked.pop(python, None)
    if asked is None or time.monotonic() - asked[0] > FRESH_S:
        return None
    return asked[1]


def _run(python: str) -> str:
    try:
        return subprocess.run(
            [python, "-c", _QUERY], capture_output=True, text=True, timeout=QUERY_TIMEOUT_S,
            check=True, cwd="/",  # in no workspace; and "/" is dropped from the path first
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        raise InvalidWorkspace(f"cannot run the interpreter {python}: {exc}") from exc
