"""Re-check a workspace's narrowed greens while nobody uses it; give way to anyone at once.

One re-checker per registered workspace, like its watcher: a task started on the first narrowed
green and stopped with the workspace. It wakes when the workspace lock comes free and no request
is under way (``busy``), waits ``settle_s`` (an agent's next request usually follows its last
reply at once), then takes each pending re-check in turn (``recheck/pending.py``), holding the lock
in the background (``concurrency/preemptible_lock.py``): any request on the workspace cancels the
attempt, which puts the checker back and hands the lock over, and the re-check resumes at the next
idle moment from what it had pulled. An attempt is bounded by ``timeout_s``; one that runs out
resumes too, at most ``MAX_TIMEOUTS`` times, and one that fails is given up (logged). A re-check
that finds what the patch introduced in a pruned file calls ``on_miss`` (the registry records it,
turns narrowing off, and tells the next reply).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import CheckTimeout, PrewriteError
from prewrite_daemon.concurrency.preemptible_lock import LockBusy
from prewrite_daemon.limits import Deadline
from prewrite_daemon.recheck.pending import recheck

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.recheck.pending import PendingRecheck
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

RECHECK_TIMEOUT_S = 60.0  # one attempt at one narrowed green
MAX_TIMEOUTS = 5  # attempts that ran out of time (each resumes where the last one stopped)
SETTLE_S = 0.5  # idle this long before a re-check starts


@dataclass(frozen=True)
class RecheckStatistics:
    """A re-checker at one moment."""

    queued: int  # narrowed greens waiting
    started: int  # attempts that took the lock
    preempted: int  # attempts a request cancelled
    completed: int  # re-checks finished: clean, a miss, or given up
    misses: int
    dropped: int  # narrowed greens forgotten unchecked (the tree moved, a full queue, a failure)


class IdleRechecker:
    def __init__(
        self,
        workspace: Workspace,
        busy: Callable[[], bool],
        on_miss: Callable[[Workspace, PendingRecheck, list[Diagnostic]], None],
        timeout_s: float = RECHECK_TIMEOUT_S,
        settle_s: float = SETTLE_S,
    ) -> None:
        self.workspace = workspace
        self.busy = busy
        self.on_miss = on_miss
        self.timeout_s = timeout_s
        self.settle_s = settle_s
        self._started = self._preempted = self._completed = self._misses = 0
        self._progress = asyncio.Condition()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # the entry pokes it when the lock comes free (``Entry``)

    def poke(self) -> None:
        """The workspace may be idle now: start (or wake) the re-checker if there is work."""
        if self._stopped or not len(self.workspace.rechecks):
            return
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"recheck {self.workspace.root}")
        self._wake.set()

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def statistics(self) -> RecheckStatistics:
        return RecheckStatistics(
            len(self.workspace.rechecks), self._started, self._preempted, self._completed,
            self._misses, self.workspace.rechecks.dropped,
        )  # fmt: skip

    async def wait_until(self, predicate: Callable[[RecheckStatistics], bool]) -> None:
        """Until the statistics satisfy ``predicate`` (tests wait on it, under a timeout)."""
        async with self._progress:
            await self._progress.wait_for(lambda: predicate(self.statistics()))

    async def _moved(self) -> None:
        async with self._progress:
            self._progress.notify_all()

    async def _run(self) -> None:
        queue = self.workspace.rechecks
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self.settle_s:
                await asyncio.sleep(self.settle_s)  # a debounce, not a wait for an event
            while (item := queue.first()) is not None and not self.busy():
                async with asyncio.TaskGroup() as tg:
                    attempt = tg.create_task(self._attempt(item))
                if attempt.cancelled():  # preempted: again at the next idle moment
                    self._preempted += 1
                    await self._moved()
                    break
                if not attempt.result():
                    break  # the lock was taken meanwhile: its release wakes us

    async def _attempt(self, item: PendingRecheck) -> bool:
        """One try at ``item`` under the background lock; False if the lock was not free."""
        ws = self.workspace
        task = asyncio.current_task()
        assert task is not None
        try:
            async with ws.lock.background(task.cancel):
                item.attempts += 1
                self._started += 1
                await self._moved()
                async with asyncio.timeout(self.timeout_s):
                    found = await recheck(ws, item, Deadline(self.timeout_s))
        except LockBusy:
            return False
        except (TimeoutError, CheckTimeout):
            item.timeouts += 1
            if item.timeouts >= MAX_TIMEOUTS:
                ws.rechecks.give_up(item, f"{MAX_TIMEOUTS} attempts of {self.timeout_s:.0f}s")
            else:
                return True  # what it pulled is kept: the next attempt goes on from there
        except PrewriteError as exc:
            ws.rechecks.give_up(item, f"the re-check failed: {exc!r}")
        except Exception:
            log.exception("re-checking a narrowed green of %s failed", ws.root)
            ws.rechecks.give_up(item, "the re-check failed (see the log)")
        else:
            ws.rechecks.done(item)
            if found:
                self._misses += 1
                self.on_miss(ws, item, found)
        self._completed += 1
        await self._moved()
        return True
