"""The hook's own deadline: it answers before the agent gives up on it — always, by refusing.

Claude Code kills a hook that overruns its ``timeout`` and then lets the edit through, so a hook
that hangs (on a FIFO, on a stuck daemon, on stdin that never ends) is a hole in the fence, not
a delay. Every read the hook does is bounded (``prewrite.files``) and every call it makes has a
deadline inside the hook's (``Budget``); the ``Watchdog`` is the backstop for whatever still
hangs: when the deadline passes with no answer given, a thread writes the refusal to stderr and
ends the process with exit 2. It uses ``os._exit``: no cleanup can hang it, and there is none to
do (the hook writes nothing but its answer).

``PREWRITE_HOOK_DEADLINE`` (seconds, set in the hook's command) moves the deadline; the default
is 110 s, inside the 120 s the README's settings give the hook. A repository cannot move it (its
``[tool.prewrite.hook] timeout`` only shortens the check inside it).
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import TracebackType

DEADLINE_ENV = "PREWRITE_HOOK_DEADLINE"
DEFAULT_DEADLINE_S = 110.0
EXIT_REFUSE = 2
WATCHDOG_MARGIN_S = 3.0  # the hook's own work ends this long before the watchdog fires


def hook_deadline_s() -> float:
    """The hook's deadline in seconds: ``PREWRITE_HOOK_DEADLINE`` when a positive number."""
    try:
        seconds = float(os.environ.get(DEADLINE_ENV, ""))
    except ValueError:
        return DEFAULT_DEADLINE_S
    return seconds if seconds > 0 else DEFAULT_DEADLINE_S


class Budget:
    """What is left of the hook's time, for the calls inside it to fit in."""

    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self._end - time.monotonic())


class Watchdog:
    """Refuse and exit 2 when ``seconds`` pass before ``claim()`` — the answer's start."""

    def __init__(self, seconds: float, refusal: str) -> None:
        self._refusal = refusal.rstrip("\n") + "\n"
        self._claimed = threading.Lock()  # held by whoever answers: the hook or the watchdog
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> Watchdog:
        self._timer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._timer.cancel()

    def claim(self) -> bool:
        """The hook is about to answer: True, and the watchdog stands down; False when the
        watchdog already answered (the process is exiting: write nothing)."""
        return self._claimed.acquire(blocking=False)

    def _fire(self) -> None:
        if not self._claimed.acquire(blocking=False):
            return  # the hook is answering
        try:
            os.write(2, self._refusal.encode())
        finally:
            os._exit(EXIT_REFUSE)
