"""Progress on stderr while the CLI waits for a check: what the daemon is doing, after ~2 s.

A first check on a big repository can take a minute (the checker starts, reads the workspace,
checks every importer of a changed name); silence for that long reads as a hang. While the
request is out, a thread of its own asks the daemon's ``status`` on a second connection once a
second, from ``AFTER_S`` on, and prints the waiting workspace's activity when it changes (and
every ``REPEAT_S`` if it does not): ``prewrite: 4s: pyright 1.1.414: checking the files that
import the patched ones: 12 of 161 done``. It only reads: a failed poll prints nothing, and the
request's own answer (or error) is never delayed by it.
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING, TextIO

from prewrite.client import Client
from prewrite.errors import PrewriteError

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from prewrite.protocol import WorkspaceStatus
    from prewrite.runtime import RuntimePaths

AFTER_S = 2.0  # a check answered sooner prints nothing (PREWRITE_PROGRESS_AFTER_S overrides)
EVERY_S = 1.0
REPEAT_S = 10.0  # the same activity again after this long: still alive
POLL_TIMEOUT_S = 2.0


class Progress:
    """A context manager: prints the daemon's activity on ``root`` to ``out`` while open."""

    def __init__(
        self,
        paths: RuntimePaths,
        root: str,
        out: TextIO,
        after_s: float | None = None,
        poll: Callable[[], str] | None = None,
    ) -> None:
        """``poll``: what the daemon is doing (default: its ``status``, on a connection of
        its own); ``after_s``: silence before the first line."""
        self.paths, self.out = paths, out
        self.after_s = after_s if after_s is not None else _after_s()
        self._poll = poll or self._status
        self.root = os.path.realpath(root)
        self.lines: list[str] = []  # what was printed (tests read it)
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="prewrite progress", daemon=True)

    def __enter__(self) -> Progress:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(timeout=POLL_TIMEOUT_S + 1)

    def _run(self) -> None:
        if self._stop.wait(self.after_s):
            return
        last, printed_at = "", 0.0
        while not self._stop.is_set():
            said = self._poll()
            now = time.monotonic()
            if said and (said != last or now - printed_at >= REPEAT_S):
                self._print(f"prewrite: {now - self._started:.0f}s: {said}")
                last, printed_at = said, now
            self._stop.wait(EVERY_S)

    def _print(self, line: str) -> None:
        if self._stop.is_set():
            return  # the answer is in: a late line would print after it
        self.lines.append(line)
        try:
            print(line, file=self.out, flush=True)
        except (OSError, ValueError):
            self._stop.set()  # stderr closed: nobody reads it

    def _status(self) -> str:
        try:
            with Client(autostart=False, paths=self.paths, call_timeout_s=POLL_TIMEOUT_S) as c:
                status = c.status()
        except (PrewriteError, OSError):
            return ""
        return describe([w for w in status.workspaces if os.path.realpath(w.root) == self.root])


def _after_s() -> float:
    try:
        return max(0.0, float(os.environ.get("PREWRITE_PROGRESS_AFTER_S", AFTER_S)))
    except ValueError:
        return AFTER_S


def describe(workspaces: list[WorkspaceStatus]) -> str:
    """The activities of one root's workspaces (Python's and TypeScript's may both work)."""
    said: list[str] = []
    for ws in workspaces:
        if ws.activity:
            checker = ws.checker or ws.language
            what = ws.activity if ws.activity.startswith(checker) else f"{checker}: {ws.activity}"
            said.append(f"{what} ({ws.activity_s:.0f}s)")
        elif ws.backend_state == "starting":
            said.append(f"starting {ws.checker or ws.language}")
    return "; ".join(said)
