"""A workspace's lock, with a fast lane: an editor's request goes before waiting agent checks.

One checker serves agents and editors, one holder at a time. A person waiting on a hover must
not queue behind every agent check already waiting (each may take seconds), so waiters of the
urgent class are handed the lock first; within a class, first come first served. The holder is
never interrupted: an editor that finds a normal holder at work longer than a moment goes to
the spare checker instead (``editor/spare.py``), which is why the holder's class is known. The
lock is handed over directly on release (never free while someone waits), so no later arrival
can barge in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator
    from types import TracebackType


class PriorityLock:
    def __init__(self) -> None:
        self._held = False
        self._holder_urgent = False
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._normal: deque[asyncio.Future[None]] = deque()

    def locked(self) -> bool:
        return self._held

    def held_by_normal(self) -> bool:
        """Held by an agent check or a watcher batch, not an editor's request."""
        return self._held and not self._holder_urgent

    def waiting(self) -> int:
        return sum(not f.done() for f in (*self._urgent, *self._normal))

    async def acquire(self, urgent: bool = False) -> bool:
        if not self._held:
            self._held, self._holder_urgent = True, urgent
            return True
        queue = self._urgent if urgent else self._normal
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # handed the lock as we were cancelled: pass it on
            elif turn in queue:
                queue.remove(turn)
            raise
        return True

    def release(self) -> None:
        if not self._held:
            raise RuntimeError("release of an unheld PriorityLock")
        for urgent, queue in ((True, self._urgent), (False, self._normal)):
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    self._holder_urgent = urgent
                    turn.set_result(None)  # handed over: still held
                    return
        self._held = False

    @contextlib.asynccontextmanager
    async def first(self) -> AsyncGenerator[None]:
        """Hold the lock, ahead of the normal waiters (an editor's request)."""
        await self.acquire(urgent=True)
        try:
            yield
        finally:
            self.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
