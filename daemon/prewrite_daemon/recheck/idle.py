"""Re-check a workspace's narrowed greens while nobody uses it; give way to anyone at once.

One re-checker per registered workspace, like its watcher: a task started on the first narrowed
green and stopped with the workspace. It wakes when the workspace lock comes free and no request
is under way (``busy``), waits ``settle_s`` (an agent's next request usually follows its last
reply at once), then takes each pending re-check in turn (``recheck/pending.py``), holding the lock
in the background (``recheck/background.py``, the loop it shares with the primer): any request on
the workspace cancels the attempt, which puts the checker back and hands the lock over, and the
re-check resumes at the next idle moment from what it had pulled. An attempt is bounded by
``timeout_s``; one that runs out resumes too, at most ``MAX_TIMEOUTS`` times, and one that fails
is given up (logged). A re-check that finds what the patch introduced in a pruned file calls
``on_miss`` (the registry records it, turns narrowing off, and tells the next reply).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import CheckTimeout, PrewriteError
from prewrite_daemon.limits import Deadline
from prewrite_daemon.recheck.background import BackgroundWork
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


class IdleRechecker(BackgroundWork[RecheckStatistics]):
    def __init__(
        self,
        workspace: Workspace,
        busy: Callable[[], bool],
        on_miss: Callable[[Workspace, PendingRecheck, list[Diagnostic]], None],
        timeout_s: float = RECHECK_TIMEOUT_S,
        settle_s: float = SETTLE_S,
    ) -> None:
        super().__init__(workspace, busy, settle_s, "recheck")
        self.on_miss = on_miss
        self.timeout_s = timeout_s
        self._started = self._completed = self._misses = 0

    def has_work(self) -> bool:
        return self.workspace.rechecks.first() is not None

    def statistics(self) -> RecheckStatistics:
        return RecheckStatistics(
            len(self.workspace.rechecks), self._started, self._preempted, self._completed,
            self._misses, self.workspace.rechecks.dropped,
        )  # fmt: skip

    async def turn(self) -> None:
        """One try at the first narrowed green; one that runs out of time resumes at the next turn
        from what it pulled, at most ``MAX_TIMEOUTS`` times."""
        ws = self.workspace
        item = ws.rechecks.first()
        if item is None:
            return
        try:
            item.attempts += 1
            self._started += 1
            await self.moved()
            async with asyncio.timeout(self.timeout_s):
                found = await recheck(ws, item, Deadline(self.timeout_s))
        except (TimeoutError, CheckTimeout):
            item.timeouts += 1
            if item.timeouts < MAX_TIMEOUTS:
                return  # what it pulled is kept: the next attempt goes on from there
            ws.rechecks.give_up(item, f"{MAX_TIMEOUTS} attempts of {self.timeout_s:.0f}s")
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
        await self.moved()
