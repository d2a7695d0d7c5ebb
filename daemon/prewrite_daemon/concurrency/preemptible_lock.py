"""The workspace lock, which background work may hold only while nobody else wants it.

The idle re-check (``recheck/idle.py``) uses the warm checker when no request does. It must never
delay one: it takes the lock only when the lock is free (it never queues), and whoever asks for
the lock next — an agent's check, an editor's request, a watcher batch, a sync after a write —
first tells the background holder to leave (``preempt``: it cancels the re-check, whose
``finally`` puts the checker back and releases). The lock is handed over at that release, as
``PriorityLock`` always does, so the asker goes first. ``on_free`` is told whenever a release
leaves the lock free: the moment background work may start again.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from prewrite_daemon.concurrency.priority_lock import PriorityLock

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Callable


class LockBusy(Exception):
    """The lock is held or awaited: background work does not start now."""


class PreemptibleLock(PriorityLock):
    def __init__(self) -> None:
        super().__init__()
        self._preempt: Callable[[], object] | None = None
        self.on_free: Callable[[], None] | None = None

    @property
    def held_in_background(self) -> bool:
        return self._preempt is not None

    def preempt(self) -> None:
        """Tell the background holder, if any, to leave (at its next await)."""
        preempt, self._preempt = self._preempt, None
        if preempt is not None:
            preempt()

    async def acquire(self, urgent: bool = False) -> bool:
        self.preempt()
        return await super().acquire(urgent)

    def release(self) -> None:
        super().release()
        if not self.locked() and self.on_free is not None:
            self.on_free()

    @contextlib.asynccontextmanager
    async def background(self, preempt: Callable[[], object]) -> AsyncGenerator[None]:
        """Hold the lock now, if it is free, until the block ends or someone else asks for it
        (then ``preempt`` is called, and must end the block at once). ``LockBusy`` if not free."""
        if self.locked():
            raise LockBusy
        await super().acquire()  # free: taken without waiting (no other task runs meanwhile)
        self._preempt = preempt
        try:
            yield
        finally:
            self._preempt = None
            self.release()
