"""Work a workspace's checker does while nobody uses it, one turn at a time, preempted at once.

The idle re-checker (``recheck/idle.py``) and the primer (``recheck/prime.py``) share this
shape: a task per workspace that wakes when it is poked (the workspace lock came free), waits
``settle_s`` (a request often follows a reply at once), then takes turns while there is work and
nobody is busy. Each turn holds the workspace lock in the background
(``concurrency/preemptible_lock.py``): it starts only if the lock is free, and any request for
the lock cancels it, which puts the checker back (the turn's ``finally`` blocks) and hands the lock
over; the work resumes at the next idle moment. A subclass says whether there is work
(``has_work``), does one turn (``turn``, under the lock) and what its statistics are; the
loop, the preemption count and the waiting on statistics live here.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Generic, TypeVar

from prewrite_daemon.concurrency.preemptible_lock import LockBusy

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.workspace import Workspace

S = TypeVar("S")


class BackgroundWork(ABC, Generic[S]):
    def __init__(
        self, workspace: Workspace, busy: Callable[[], bool], settle_s: float, name: str
    ) -> None:
        """``busy``: whether a request is under way (then no turn starts); ``name``: the task's."""
        self.workspace = workspace
        self.busy = busy
        self.settle_s = settle_s
        self._name = name
        self._preempted = 0  # turns a request cancelled
        self._progress = asyncio.Condition()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    @abstractmethod
    def has_work(self) -> bool:
        """Whether a turn would have something to do."""

    @abstractmethod
    async def turn(self) -> None:
        """One piece of the work, under the workspace lock; cancelled when a request comes."""

    @abstractmethod
    def statistics(self) -> S:
        """The work at one moment (an immutable record)."""

    def finished(self) -> bool:
        """Whether the task may end (it ends once this holds after a round of turns)."""
        return False

    def poke(self) -> None:
        """The workspace may be idle now: start (or wake) the task if there is work."""
        if self._stopped or not self.has_work():
            return
        if self._task is None:
            name = f"{self._name} {self.workspace.root}"
            self._task = asyncio.create_task(self._run(), name=name)
        self._wake.set()

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def wait_until(self, predicate: Callable[[S], bool]) -> None:
        """Until the statistics satisfy ``predicate`` (tests and the bench wait on it)."""
        async with self._progress:
            await self._progress.wait_for(lambda: predicate(self.statistics()))

    async def moved(self) -> None:
        """The statistics changed: wake whoever waits on them."""
        async with self._progress:
            self._progress.notify_all()

    async def _run(self) -> None:
        while not self.finished():
            await self._wake.wait()
            self._wake.clear()
            if self.settle_s:
                await asyncio.sleep(self.settle_s)  # a debounce, not a wait for an event
            await self._turns()
        await self.moved()

    async def _turns(self) -> None:
        """Turns until the work is done, someone is busy, a request preempts one or the lock is
        taken (its release pokes us)."""
        while self.has_work() and not self.busy():
            async with asyncio.TaskGroup() as tg:
                turn = tg.create_task(self._locked_turn())
            if turn.cancelled():  # preempted: again at the next idle moment
                self._preempted += 1
                await self.moved()
                return
            if not turn.result():
                return

    async def _locked_turn(self) -> bool:
        """One turn under the background lock; False if the lock was not free."""
        task = asyncio.current_task()
        assert task is not None
        try:
            async with self.workspace.lock.background(task.cancel):
                await self.turn()
        except LockBusy:
            return False
        return True
