"""What a workspace is doing now, in words a waiting user reads (``status``, the CLI's progress).

A first check can take a minute on a big repository (the checker starts, reads the workspace,
then checks every importer of a changed name); a user who sees nothing for that long assumes a
hang. Each step of a check says what it is doing here, with a count where it has one ("checking
12 of 161 files"); ``status`` reports it with how long it has lasted, and the CLI prints it on
stderr while it waits. It is a report, never a lock: written on the event loop, read by status.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Generator


class Activity:
    """The current step's description, since when, and its progress (done of total)."""

    def __init__(self) -> None:
        self._what: str = ""
        self._since: float = time.monotonic()
        self._done: int = 0
        self._total: int = 0

    def begin(self, what: str, total: int = 0) -> None:
        """A new step: ``what`` (e.g. "checking the importers"), ``total`` items if counted."""
        self._what, self._since, self._done, self._total = what, time.monotonic(), 0, total

    def advance(self, n: int = 1) -> None:
        self._done += n

    def end(self) -> None:
        self.begin("")

    @contextlib.contextmanager
    def step(self, what: str, total: int = 0) -> Generator[None]:
        """``what`` for the duration of the block; the step before it comes back after."""
        saved = (self._what, self._since, self._done, self._total)
        self.begin(what, total)
        try:
            yield
        finally:
            self._what, self._since, self._done, self._total = saved

    def describe(self) -> tuple[str, float]:
        """The step in words ("" when idle) and how many seconds it has lasted."""
        if not self._what:
            return "", 0.0
        what = self._what
        if self._total:
            what = f"{what}: {min(self._done, self._total)} of {self._total} done"
        return what, round(time.monotonic() - self._since, 1)
