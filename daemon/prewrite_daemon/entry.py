"""One registered workspace: the bounded queue in front of its lock, ruff, watcher, re-checker.

The lock that serialises checks on the workspace's checker is the workspace's own; the entry
puts a queue in front of it: at most ``max_queue`` checks wait, more are ``busy``; a check's
deadline covers its wait. The workspace is idle when no request uses it and its lock is free:
then its narrowed greens are re-checked (``recheck/idle.py``). A request that will type-check on
a workspace without a running checker warms it up first (``warm_up``): the checker starts in the
queue's first place while the ladder's cheap rungs (parse, ruff) run, not after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import Busy, InvalidWorkspace, PrewriteError, StateDirUnwritable
from prewrite_daemon.ladder.node_tools import NodeTools
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.limits import Deadline, ReplyLimits, unwritable_message, within
from prewrite_daemon.recheck.idle import IdleRechecker
from prewrite_daemon.recheck.prime import Primer
from prewrite_daemon.watcher import dir_identity

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Callable, Generator, Sequence
    from pathlib import Path

    from prewrite.protocol import ApplyRequest, CheckReply, CheckRequest, Diagnostic
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.ladder.runner import Ladder
    from prewrite_daemon.recheck.pending import PendingRecheck
    from prewrite_daemon.watcher import WorkspaceWatcher
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

DEFAULT_MAX_QUEUE = 16  # checks waiting for one workspace; more are answered ``busy``
# A warm-up's own budget, not the request's: a first check cut short by its deadline leaves the
# checker starting (and the graph building), so the retry finds it warm, not started again.
WARM_UP_S = 300.0


@dataclass(frozen=True)
class EntryStatistics:
    """A workspace's queue at one moment."""

    waiting: int  # checks waiting for the workspace lock
    max_queue: int
    locked: bool  # a check (or the watcher) holds the workspace
    users: int  # requests under way that use this workspace
    closed: bool  # released: its root was deleted or moved


class Entry:
    """One registered workspace: its lock and queue, ruff and watcher."""

    def __init__(
        self,
        workspace: Workspace,
        state_dir: Path,
        max_queue: int = DEFAULT_MAX_QUEUE,
        limits: ReplyLimits | None = None,
        on_miss: Callable[[Workspace, PendingRecheck, list[Diagnostic]], None] | None = None,
    ) -> None:
        """``on_miss``: told when the idle re-check finds a narrowed green wrong."""
        self.workspace = workspace
        self.state_dir = state_dir
        self.max_queue = max_queue
        self.limits = limits or ReplyLimits()
        self.watcher: WorkspaceWatcher | None = None
        self.ruff = Ruff(workspace.root, workspace.run_python)
        self.node = NodeTools(workspace.root)
        digest = hashlib.sha256(str(workspace.root).encode()).hexdigest()[:16]
        self.journal_key = digest
        self.root_id = dir_identity(workspace.root)
        self.closed = False
        self._waiting = 0
        self._users = 0
        self._requests = 0
        self.rechecker = IdleRechecker(workspace, self._busy, on_miss or _log_only)
        # Priming is speculative: it waits while any request is served, here or elsewhere.
        self.daemon_busy: Callable[[], bool] = lambda: False  # the registry's (``Registry``)
        self.primer = Primer(workspace, lambda: self._busy() or self.daemon_busy())
        workspace.lock.on_free = self._idle_now
        self._warming: asyncio.Task[None] | None = None
        self._prewarming: asyncio.Task[None] | None = None

    def statistics(self) -> EntryStatistics:
        return EntryStatistics(
            self._waiting, self.max_queue, self.workspace.lock.locked(), self._users, self.closed
        )

    def root_gone(self) -> bool:
        return self.root_id is None or dir_identity(self.workspace.root) != self.root_id

    @contextlib.contextmanager
    def in_use(self) -> Generator[None]:
        """Mark a user (a request, an attached editor): the LRU does not stop a workspace
        someone is using."""
        self._users += 1
        try:
            yield
        finally:
            self._users -= 1

    @contextlib.contextmanager
    def serving(self) -> Generator[None]:
        """Mark a request under way: the workspace is not idle, no re-check runs meanwhile (an
        attached editor is a user but not a request: its requests take the lock)."""
        self._requests += 1
        self.workspace.lock.preempt()
        try:
            yield
        finally:
            self._requests -= 1
            if not self._busy():
                self._idle_now()

    def _busy(self) -> bool:
        return self.closed or self._requests > 0 or self.workspace.lock.locked()

    def _idle_now(self) -> None:
        """The workspace may be idle: its background work (re-checks, priming) may go on."""
        self.rechecker.poke()
        self.primer.poke()

    def prewarm(self, first: Sequence[str], on_ready: Callable[[], None]) -> None:
        """Warm this workspace up before anyone asks (a new git worktree of a warm repository,
        ``worktrees``): start its checker, call ``on_ready`` once it runs (the registry starts
        watching), build its graph, then prime its bases (``recheck/prime.py``), ``first``
        first. A request meanwhile waits for the checker's start as it would have, and
        preempts the priming."""
        if self._prewarming is None and not self.closed:
            self._prewarming = asyncio.create_task(
                self._prewarm(first, on_ready), name=f"prewarm {self.workspace.root}"
            )

    async def _prewarm(self, first: Sequence[str], on_ready: Callable[[], None]) -> None:
        warming = self.warm_up() or self._warming  # ours, or a request's that came first
        if warming is not None:
            await asyncio.wait([warming])  # never cancels it: a request may be waiting on it
        if self.closed:
            return
        on_ready()
        self.workspace.build_graph()
        self.primer.start(first)  # it lists the files once it holds the lock and a checker

    async def stop_prewarm(self) -> None:
        """End the warm-up of ``prewarm`` and its priming (the registry stops the entry)."""
        if self._prewarming is not None:
            self._prewarming.cancel()
            await asyncio.gather(self._prewarming, return_exceptions=True)
        await self.primer.stop()

    def warm_up(self, timeout_s: float | None = None) -> asyncio.Task[None] | None:
        """Start the workspace's checker now, in a task of the entry's own (returned), if none
        runs and nobody holds the workspace: the type check that follows waits for it in the
        queue (it asked after) instead of starting it after the ladder's cheap rungs. Its
        failure is only logged: the check meets it again at its own admission, and answers.
        ``timeout_s`` is the warm-up's own: the request's deadline does not end it."""
        ws = self.workspace
        if self._warming is not None or self.closed or ws.lock.locked() or ws.checker_running():
            return None
        if self.max_queue < 1:
            return None  # the check that follows could not wait behind it: ``busy``
        budget = WARM_UP_S if timeout_s is None else timeout_s
        self._warming = asyncio.create_task(self._warm(budget), name=f"warm up {ws.root}")
        return self._warming

    async def _warm(self, timeout_s: float) -> None:
        try:
            async with within(timeout_s, "starting the checker"), self._turn():
                if not self.closed and not self.workspace.checker_running():
                    await self.workspace.prepare()  # else the check got there first
        except (PrewriteError, OSError) as exc:
            log.info("warming up %s: %s", self.workspace.root, exc)
        except Exception:
            log.exception("warming up %s failed", self.workspace.root)
        finally:
            self._warming = None

    async def stop_warm_up(self) -> None:
        """End a warm-up under way (the registry stops the workspace next)."""
        warming = self._warming
        if warming is not None:
            warming.cancel()
            await asyncio.gather(warming, return_exceptions=True)

    async def sync(self) -> None:
        """Bring the checker's view up to date with the disk now (after a write)."""
        async with self.workspace.lock:
            if not self.closed:
                self.workspace.refresh()

    async def run_ladder(self, ladder: Ladder, request: CheckRequest) -> CheckReply:
        """The ladder on ``request`` within its ``timeout_s``; contents within the reply budget."""
        async with within(request.timeout_s, "the ladder"):
            reply = await ladder.run(request)
        return self.limits.by_reference(reply, request.return_contents)

    async def typecheck(self, patch: PreparedPatch, timeout_s: float) -> CheckReply:
        """Wait for the workspace (a bounded queue), then check: ``timeout_s`` covers both,
        the checker's start and every retry."""
        deadline = Deadline(timeout_s)
        async with within(timeout_s, "waiting for the workspace, then type checking"):
            async with self._turn():
                return await self._check(patch, deadline)

    async def _check(self, patch: PreparedPatch, deadline: Deadline) -> CheckReply:
        if self.closed:
            raise InvalidWorkspace(f"the workspace root {self.workspace.root} was deleted or moved")
        try:
            return await self.workspace.check(patch, deadline.left())
        except OSError as exc:
            if not self._in_state_dir(exc):
                raise
            raise StateDirUnwritable(unwritable_message(self.state_dir, exc)) from exc

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncGenerator[None]:
        """Hold the workspace lock; at most ``max_queue`` wait for it, beyond that ``busy``."""
        lock = self.workspace.lock
        if lock.locked() and self._waiting >= self.max_queue:
            raise Busy(
                f"{self._waiting} check(s) already wait for {self.workspace.root} (the queue "
                f"holds {self.max_queue}); retry later"
            )
        self._waiting += 1
        try:
            await lock.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            lock.release()

    def _in_state_dir(self, exc: OSError) -> bool:
        """Whether ``exc`` is about the daemon's own state (shadow, journal), not the user's."""
        name = exc.filename if isinstance(exc.filename, str) else ""
        state = str(self.state_dir)
        return name == state or name.startswith(state + os.sep)


def _log_only(ws: Workspace, item: PendingRecheck, missed: list[Diagnostic]) -> None:
    del item
    log.warning("narrowing miss in %s: %d diagnostic(s) missed", ws.root, len(missed))


def warm_up(entries: list[Entry], ladder: Ladder, request: CheckRequest | ApplyRequest) -> None:
    """Warm up the entries' checkers if the request's ladder will reach its type check."""
    try:
        type_checks = ladder.config.restricted(request.rungs).enabled("typecheck")
    except PrewriteError:
        return  # the ladder refuses the request itself
    if type_checks:
        for entry in entries:
            entry.warm_up()  # outlives the request: a check cut short leaves it warming
