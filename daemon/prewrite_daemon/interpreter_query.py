"""Asking a (trusted) interpreter what it imports from, and which executable answers alike.

One run answers both questions the daemon has: the package directories the fingerprint and the
layout watch (``site_dirs``), and what pyright will see when it runs the interpreter itself —
``sys.path`` without the working directory and ``sys.prefix``, asked the way pyright asks
(not isolated: ``PYTHONPATH``, the user site, ``.pth`` files count; the working directory
removed before anything but ``os`` and ``sys`` is imported).

**The equivalent executable.** pyright runs the interpreter it is given twice per start (search
paths, then again for its library watcher). A ``pyenv`` shim is a shell script that costs
~100-160 ms a run where the binary it ends in costs ~25 ms. So when the interpreter names
another ``sys.executable``, that executable is asked the same question, in the same place, with
the same environment; only if the two answers are identical is pyright given the executable
(``InterpreterAnswer.for_pyright``). Anything that makes them differ (a wrapper setting
``PYTHONPATH``, a different version) keeps the interpreter as given.
"""

from __future__ import annotations

import json
import os
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
    "'path': sys.path, 'prefix': sys.prefix, 'version': sys.version, "
    "'executable': sys.executable}))"
)


@dataclass(frozen=True)
class InterpreterAnswer:
    python: str  # as given
    site_dirs: list[Path]  # existing site-packages / dist-packages directories, in order
    executable: str  # its sys.executable
    raw: str  # the whole answer, to compare with another executable's
    for_pyright: str  # the interpreter pyright is told: ``python``, or its equivalent executable


def ask_interpreter(python: str) -> InterpreterAnswer:
    """Run ``python`` once (and its ``sys.executable`` once more when that differs)."""
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
    return InterpreterAnswer(python, found, executable, raw, _equivalent(python, executable, raw))


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


def _equivalent(python: str, executable: str, raw: str) -> str:
    if not executable or not os.path.isabs(executable) or executable == python:
        return python
    try:
        same = _run(executable) == raw
    except InvalidWorkspace:
        same = False
    return executable if same else python


def _run(python: str) -> str:
    try:
        return subprocess.run(
            [python, "-c", _QUERY], capture_output=True, text=True, timeout=QUERY_TIMEOUT_S,
            check=True, cwd="/",  # in no workspace; and "/" is dropped from the path first
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        raise InvalidWorkspace(f"cannot run the interpreter {python}: {exc}") from exc
