"""The registry of warm workspaces, one per (root, language, interpreter), and their watchers.

A patch goes to the workspace of each language whose files it touches (by suffix and
configuration file): a repository with Python and TypeScript gets a pyright and a TypeScript
checker, and one patch across both is still one verdict (``routing.py``).

A workspace is registered synchronously before anything is awaited, so concurrent first
requests share one checker instead of spawning two; its lock serialises checks on that checker
and at most ``max_queue`` checks wait for it (more are ``busy``). A request's ``timeout_s`` covers
everything it waits for: the workspace, the checker's start, every retry. The least recently
used warm checkers beyond ``max_warm`` are stopped (memory is finite); a workspace whose root was
deleted or moved is released at once, and one whose trust changed (``prewrite trust``) is
stopped once idle (``retire``): a root never keeps a trusted and an untrusted checker.
Replies stay under the frame limit: candidate contents go
by reference (path and sha256) beyond a budget. A narrowing miss found by a workspace's idle
re-check turns narrowing off for its root and rides on the next reply about it
(``recheck/misses.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import PrewriteError
from prewrite.trust import is_trusted
from prewrite_daemon.apply import apply_patch, finish
from prewrite_daemon.backends.ready import ReadyCheckers
from prewrite_daemon.check.patch import resolve_root
from prewrite_daemon.check.planning import DEFAULT_PLANNING_BUDGET_S
from prewrite_daemon.check.routing import all_in_use, typecheck_all
from prewrite_daemon.entry import DEFAULT_MAX_QUEUE, Entry, warm_up
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.record import VerdictRecord, record_verdict
from prewrite_daemon.ladder.runner import Ladder
from prewrite_daemon.languages.python.environment import resolve_python
from prewrite_daemon.languages.python.interpreter_query import prefetch
from prewrite_daemon.languages.python.interpreter_trust import interpreter_may_run
from prewrite_daemon.languages.registry import DEFAULT, language_named, languages_for
from prewrite_daemon.limits import ReplyLimits, check_state_dir
from prewrite_daemon.recheck.misses import NarrowingMisses
from prewrite_daemon.retire import Retiring, stop_entry
from prewrite_daemon.watcher import WorkspaceWatcher
from prewrite_daemon.workspace import Workspace
from prewrite_daemon.worktrees import WorktreeWarmup, worktree_entries

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Awaitable, Callable

    from prewrite.protocol import (
        ApplyReply,
        ApplyRequest,
        CheckReply,
        CheckRequest,
        FinishReply,
        FinishRequest,
        StatsReply,
        WorkspaceStatus,
    )
    from prewrite_daemon.languages.base import Language


Key = tuple[Path, str, str, bool, bool]  # root, language, interpreter, trusted, it may run


def _key(ws: Workspace) -> Key:
    return (ws.root, ws.language.name, ws.python, ws.trusted, ws.run_python is not None)


class Registry:
    def __init__(
        self,
        state_dir: Path,
        max_warm: int = 4,
        watch: bool = True,
        protected: tuple[Path, ...] = (),
        *,
        max_queue: int = DEFAULT_MAX_QUEUE,
        limits: ReplyLimits | None = None,
        trusted: Callable[[Path], bool] | None = None,
        planning_budget_s: float = DEFAULT_PLANNING_BUDGET_S,
        watch_after_reply: bool = False,
        ready_checkers: bool = False,
        quiet: Callable[[], Awaitable[None]] | None = None,
        memory_budget: int | None = None,
        worktree_warmup: bool = False,
    ) -> None:
        """``trusted`` decides whether a root may run its own code (default: the user's list,
        ``prewrite.trust``); ``planning_budget_s`` bounds narrowing per check (``planning``);
        ``watch_after_reply``: new watchers wait for ``start_watchers`` (see there);
        ``ready_checkers``: checkers started ahead of need (``backends.ready``; the daemon's),
        warmed up once ``quiet`` returns (None: never); ``memory_budget``: bytes the warm
        checkers may hold together (``memory``; None: no budget); ``worktree_warmup``: a new
        git worktree of a watched workspace's repository is warmed up as it appears
        (``worktrees``; the daemon's default)."""
        self.state_dir = state_dir
        self.max_warm = max_warm
        self.memory_budget = memory_budget
        self.watch = watch
        self.watch_after_reply = watch_after_reply
        self._to_watch: list[Entry] = []
        self.max_queue = max_queue
        self.limits = limits or ReplyLimits()
        self.protected = (state_dir.resolve(), *(p.resolve() for p in protected))
        self.record = VerdictRecord(state_dir / "verdicts.sqlite3")
        self.misses = NarrowingMisses(self.record)
        self.planning_budget_s = planning_budget_s
        self._entries: dict[Key, Entry] = {}  # LRU order, oldest first
        self.trusted = trusted or is_trusted
        self._retiring = Retiring()  # superseded and released entries, and which ones go
        self._write_locks: dict[Path, asyncio.Lock] = {}
        self.ready = ReadyCheckers(state_dir / "ready", ready_checkers, quiet)
        self._serving = 0  # requests under way (``_ladder``)
        self.worktrees = WorktreeWarmup(worktree_warmup, self._make_prewarmed, self._start_watching)

    def _key(self, root: Path, python: str, language: Language) -> Key:
        trusted = self.trusted(root)
        others = [e.workspace.root for e in self._entries.values() if not e.workspace.trusted]
        others = [r for r in others if r != root]  # this root's trust is the one asked now
        may_run = interpreter_may_run(python, root, trusted, others, self.trusted)
        return (root, language.name, python, trusted, may_run)

    async def _ask_ahead(self, root: Path, python: str | None) -> None:
        """A new Python workspace asks its interpreter (~30-200 ms) off the event loop, before
        it is made (``interpreter_query.prefetch``); failures are left to its making."""
        try:
            resolved = resolve_python(root, python)
        except PrewriteError:
            return
        if any(k[:3] == (root, DEFAULT.name, resolved) for k in self._entries):
            return  # known: the common case costs no trust lookup here
        key = self._key(root, resolved, DEFAULT)
        if key[4]:  # its interpreter may run
            await asyncio.to_thread(prefetch, key[2])

    def entry(self, root: Path, python: str, language: Language = DEFAULT) -> Entry:
        """The workspace of (root, language, interpreter, trust); trusting a root later makes
        a new one, and the old one's checker stops (``retire.Retiring``)."""
        key = self._key(root, python, language)
        trusted, may_run = key[3], key[4]
        entry = self._entries.pop(key, None)
        if entry is None:
            for old in [k for k in self._entries if k[:3] == key[:3]]:
                self._retiring.superseded.append(self._entries.pop(old))
            name = f"{root}\0{python}\0{trusted}" + ("" if may_run else "\0read-only")
            if language is not DEFAULT:  # Python's shadows keep the place they had
                name += f"\0{language.name}"
            digest = hashlib.sha256(name.encode()).hexdigest()[:16]
            shadow = self.state_dir / "shadows" / digest
            workspace = Workspace(root, python, shadow, trusted, language, may_run=may_run)
            workspace.planning_budget_s = self.planning_budget_s
            workspace.take_ready = self.ready.take
            self.misses.apply(workspace)
            entry = Entry(workspace, self.state_dir, self.max_queue, self.limits, self.misses.found)
            entry.daemon_busy = lambda: self._serving > 0
        self._entries[key] = entry  # most recently used last
        return entry

    def entries_for(self, root: Path, python: str | None, paths: list[str]) -> list[Entry]:
        """The entries that judge a patch touching ``paths``; Python's first (it runs the
        disk rungs)."""
        return [
            self.entry(root, resolve_python(root, python), lang)
            for lang in languages_for(root, paths)
        ]

    def all_entries(self) -> list[Entry]:
        return list(self._entries.values())

    def entry_of(self, ws: Workspace) -> Entry | None:
        entry = self._entries.get(_key(ws))
        return entry if entry is not None and entry.workspace is ws else None

    def editor_workspace(self, root: Path, python: str | None, language: Language) -> Workspace:
        """The warm workspace an editor's document of ``language`` under ``root`` is served by."""
        return self.entry(root, resolve_python(root, python), language).workspace

    def workspace(self, root: str, python: str | None, language: str = "python") -> Workspace:
        resolved = resolve_root(root)
        lang = language_named(language)
        return self.entry(resolved, resolve_python(resolved, python), lang).workspace

    @contextlib.asynccontextmanager
    async def _ladder(
        self, root: Path, request: CheckRequest | ApplyRequest
    ) -> AsyncGenerator[tuple[list[Entry], Ladder]]:
        """The entries that judge ``request`` (held in use) and a ladder over them; while any
        is served, no workspace primes (``recheck/prime.py``), and they go on after the last."""
        self._serving += 1
        try:
            check_state_dir(self.state_dir)
            await self._ask_ahead(root, request.python)
            entries = self.entries_for(root, request.python, [c.path for c in request.changes])
            with all_in_use(entries):
                await self._retiring.evict(
                    self._entries, entries, self.trusted, self.max_warm, self.memory_budget
                )
                first = entries[0]
                ladder = Ladder(
                    root, load_config(root), first.ruff, typecheck_all(entries), self.protected,
                    node=first.node, trusted=self.trusted,
                )  # fmt: skip
                warm_up(entries, ladder, request)  # the checkers start while the rungs run
                yield entries, ladder
        finally:
            self._serving -= 1
            if not self._serving:
                for entry in list(self._entries.values()):
                    entry.primer.poke()

    async def check(self, request: CheckRequest) -> CheckReply:
        """Run the ladder on the request's patch; every verdict and refusal is recorded."""
        started = time.perf_counter()
        root = resolve_root(request.root)
        files = [c.path for c in request.changes]
        async with self._ladder(root, request) as (entries, ladder):
            try:
                reply = await entries[0].run_ladder(ladder, request)
            except PrewriteError as exc:
                total = (time.perf_counter() - started) * 1000
                record_verdict(self.record, root, None, exc, ladder.reports, files, total)
                raise
            total = (time.perf_counter() - started) * 1000
            record_verdict(self.record, root, reply, None, ladder.reports, files, total)
            self._to_watch += entries
            if not self.watch_after_reply:
                self.start_watchers()
        timings = {**reply.timings_ms, "total_ms": round(total, 1)}
        return self.misses.tell(root, msgspec.structs.replace(reply, timings_ms=timings))

    async def apply(self, request: ApplyRequest) -> ApplyReply:
        """The ladder, then the all-or-nothing write, then the disk rungs; all recorded."""
        started = time.perf_counter()
        root = resolve_root(request.root)
        files = [c.path for c in request.changes]
        async with self._ladder(root, request) as (entries, ladder):
            journal = self.state_dir / "journal" / entries[0].journal_key
            try:
                async with self._write_lock(root):
                    reply = await apply_patch(entries[0], request, ladder, journal)
                    for other in entries[1:]:
                        await other.sync()
            except PrewriteError as exc:
                total = (time.perf_counter() - started) * 1000
                record_verdict(self.record, root, None, exc, ladder.reports, files, total)
                raise
        total = (time.perf_counter() - started) * 1000
        failed = next((r.rung for r in ladder.reports if r.outcome == "fail"), None)
        outcome = "ok" if reply.ok else f"failed:{failed}"
        self.record.add(
            str(root), outcome, failed, total, files, ladder.reports, reply.check.suppressions
        )
        return msgspec.structs.replace(reply, check=self.misses.tell(root, reply.check))

    async def finish(self, request: FinishRequest) -> FinishReply:
        root = resolve_root(request.root)
        return await finish(root, self.trusted(root))

    def stats(self, root: str | None) -> StatsReply:
        return self.record.stats(str(resolve_root(root)) if root else None)

    def start_watchers(self) -> None:
        """Start the watchers checks asked for since the last call (``watch_after_reply``: the
        daemon calls it once a reply is out, as watchfiles sets a site-packages' watches up on
        the event loop, 0.65 s for 8,400 directories, which must not delay that reply)."""
        to_watch, self._to_watch = self._to_watch, []
        for entry in to_watch:
            self._start_watching(entry)

    def _start_watching(self, entry: Entry) -> None:
        if not self.watch or entry.watcher is not None or entry.closed:
            return
        if entry.workspace.backend is None:
            return

        async def release() -> None:
            await self._retiring.release(self._entries, _key(entry.workspace), entry)

        def tick() -> None:
            self.worktrees.look(entry)

        on_tick = tick if self.worktrees.enabled else None
        entry.watcher = WorkspaceWatcher(entry.workspace, on_root_gone=release, on_tick=on_tick)
        entry.watcher.start()

    def _make_prewarmed(self, source: Entry, root: Path) -> list[tuple[Entry, Entry]]:
        """``worktree_entries``, each made the least recently used: nobody asked for it yet."""
        entries = list(self._entries.values())
        made = worktree_entries(source, root, entries, self.max_warm, self.entry, resolve_python)
        for _twin, entry in made:
            key = _key(entry.workspace)
            self._entries = {key: self._entries.pop(key), **self._entries}
        return made

    def _write_lock(self, root: Path) -> asyncio.Lock:
        """One writer per root, whichever languages its patches touch."""
        return self._write_locks.setdefault(root, asyncio.Lock())

    def watcher(self, root: Path, python: str, language: str = "python") -> WorkspaceWatcher | None:
        found = [e for k, e in self._entries.items() if k[:3] == (root, language, python)]
        return found[-1].watcher if found else None

    def statuses(self) -> list[WorkspaceStatus]:
        return [e.workspace.status() for e in self._entries.values()]

    async def stop(self) -> None:
        entries = [*self._entries.values(), *self._retiring.leaving()]
        await asyncio.gather(*(stop_entry(e) for e in entries), self.ready.stop())
        self.record.close()
