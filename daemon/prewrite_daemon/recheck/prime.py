"""A workspace's base diagnostics pulled ahead of its checks, while nobody uses it.

A check compares the candidate's diagnostics with the base's (the workspace as the disk has
it). On a warm workspace the base is mostly cached already and the checker has read the
program; on a new one — a git worktree the registry warms up as it appears (``worktrees``,
``Entry.prewarm``) — the first checks pay the checker's first analysis of every file they
compare, and then pull the bases as well. The primer does that work before anyone asks: it
pulls the bases of the workspace's files into its base cache exactly as a check does
(``checker.pull_base``: the disk's texts, opened and closed again), a few files at a time,
holding the workspace lock in the background like the idle re-checker (``recheck/background.py``,
the loop they share): any request cancels the chunk under way, which puts the checker back, and the
primer resumes at the next idle moment. The cache is the check's own, so whatever the disk does
meanwhile clears it as it clears a check's (``Workspace.sync``); priming changes no verdict, only
when its work is done.

Files the caller names first (the ones the repository's other checkout has compared lately)
go first; at most ``MAX_FILES`` in all. The primer stops for good when the checker stops or its
environment moves (the next check starts afresh and needs no stale help).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import CheckTimeout, PrewriteError
from prewrite_daemon.backends.base import BackendState, WholeProgram
from prewrite_daemon.checker import CheckContext, pull_base
from prewrite_daemon.limits import Deadline
from prewrite_daemon.recheck.background import BackgroundWork

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.languages.base import Scope
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

CHUNK = 8  # files pulled per turn of the lock: a request waits for at most one pull's cancel
MAX_FILES = 2000  # a bigger workspace primes its first files; checks pull the others
CHUNK_TIMEOUT_S = 60.0
SETTLE_S = 0.2  # idle this long before a chunk starts (a request often follows a reply)


@dataclass(frozen=True)
class PrimeStatistics:
    """A primer at one moment."""

    todo: int  # files whose base is still to pull
    primed: int  # files whose base it pulled
    started: int  # chunks that took the lock
    preempted: int  # chunks a request cancelled
    finished: bool  # nothing left to do (done, or given up: ``given_up``)
    given_up: str = ""  # why it stopped early, if it did


class Primer(BackgroundWork[PrimeStatistics]):
    def __init__(self, workspace: Workspace, busy: Callable[[], bool]) -> None:
        """``busy``: whether a request is under way on the workspace (then it waits)."""
        super().__init__(workspace, busy, SETTLE_S, "prime")
        self._todo: list[str] | None = None  # None: not listed yet
        self._first: list[str] = []
        self._begun = False
        self._primed = self._started_chunks = 0
        self._started = 0.0
        self._given_up = ""

    def start(self, first: Iterable[str]) -> None:
        """Prime the workspace's files in scope, ``first`` ahead of the others (listed at the
        first turn, once a checker runs: a request may be starting it now)."""
        if self._begun:
            return
        self._begun, self._first, self._started = True, list(first), time.monotonic()
        self.poke()

    def has_work(self) -> bool:
        return self._begun and self._todo != []

    def finished(self) -> bool:
        return self._todo == []

    def statistics(self) -> PrimeStatistics:
        todo, done = len(self._todo or ()), self._todo == []
        return PrimeStatistics(
            todo, self._primed, self._started_chunks, self._preempted, done, self._given_up
        )

    def _files(self) -> list[str]:
        ws = self.workspace
        assert ws.layout is not None
        scope, lang = ws.layout.scope, ws.language
        known = {r for r in ws.shadow.files if lang.is_source(r) and scope.covers(r)}
        ahead = [r for r in dict.fromkeys(self._first) if r in known]
        return [*ahead, *sorted(known.difference(ahead))][:MAX_FILES]

    def _give_up(self, why: str) -> None:
        log.info("priming %s stopped: %s", self.workspace.root, why)
        self._given_up, self._todo = why, []

    async def turn(self) -> None:
        """Pull the next ``CHUNK`` files' bases, as a check pulls them."""
        ws = self.workspace
        try:
            backend = ws.backend
            if backend is None or backend.exited or backend.state is not BackendState.RUNNING:
                self._give_up("the checker is not running")
            elif isinstance(backend, WholeProgram) or ws.layout is None:
                self._give_up("its checker answers for the whole program: no bases to pull")
            elif ws.peek_environment() != ws.backend_env:
                self._give_up("the environment moved")
            else:
                await self._pull_chunk(backend, ws.layout.scope)
        except (TimeoutError, CheckTimeout):
            self._give_up(f"a chunk took over {CHUNK_TIMEOUT_S:.0f} s")
        except PrewriteError as exc:
            self._give_up(f"a pull failed: {exc!r}")
        except Exception:
            log.exception("priming %s failed", ws.root)
            self._give_up("a pull failed (see the log)")
        await self.moved()

    async def _pull_chunk(self, backend: Backend, scope: Scope) -> None:
        ws = self.workspace
        ws.editor_layer.clear(backend)  # as for a check: the disk, no buffers
        ws.sync(backend)
        if self._todo is None:
            self._todo = self._files()
        self._started_chunks += 1
        await self.moved()
        rels = [r for r in self._todo[:CHUNK] if r in ws.shadow.files]
        ctx = CheckContext(ws.language, ws.shadow, None, backend, ws.base_cache, scope)
        total = self._primed + len(self._todo)
        with ws.activity.step("warming up: pulling the files' bases", total):
            ws.activity.advance(self._primed)  # ``status`` shows it, then idle
            async with asyncio.timeout(CHUNK_TIMEOUT_S):
                await pull_base(ctx, rels, Deadline(CHUNK_TIMEOUT_S))
        del self._todo[:CHUNK]
        self._primed += len(rels)
        if not self._todo:
            took = time.monotonic() - self._started
            log.info("primed %d bases of %s in %.1f s", self._primed, ws.root, took)
