"""The registry of warm workspaces, one per (root, interpreter), and their watchers.

A workspace is registered synchronously before anything is awaited, so concurrent first
requests share one checker instead of spawning two; its lock serialises checks on that checker
and at most ``max_queue`` checks wait for it (more are ``busy``). A request's ``timeout_s`` covers
everything it waits for: the workspace, the checker's start, every retry. The least recently
used warm checkers beyond ``max_warm`` are stopped (memory is finite); a workspace whose root was
deleted or moved is released at once. Replies stay under the frame limit: candidate contents go
by reference (path and sha256) beyond a budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import (
    Busy,
    CheckTimeout,
    FrameTooLarge,
    InvalidWorkspace,
    PrewriteError,
    StateDirUnwritable,
)
from prewrite.framing import MAX_FRAME_BYTES
from prewrite_daemon.apply import apply_patch, finish
from prewrite_daemon.backends.base import BackendState
from prewrite_daemon.checker import Deadline
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.record import VerdictRecord
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder, record_verdict
from prewrite_daemon.patch import PreparedPatch, resolve_root
from prewrite_daemon.watcher import WorkspaceWatcher, dir_identity
from prewrite_daemon.workspace import Workspace

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Generator

    from prewrite.protocol import (
        ApplyReply,
        ApplyRequest,
        CandidateFile,
        CheckReply,
        CheckRequest,
        DiskResult,
        FinishReply,
        FinishRequest,
        StatsReply,
        WorkspaceStatus,
    )

log = logging.getLogger(__name__)

DEFAULT_MAX_QUEUE = 16  # checks waiting for one workspace; more are answered ``busy``
INLINE_CONTENT_BYTES = 8 * 1024 * 1024  # candidate contents sent inline per reply, at most
DISK_RESERVE_BYTES = 1024 * 1024  # room kept in an apply's reply for the disk rungs' results


def resolve_python(root: Path, given: str | None) -> str:
    """The interpreter whose packages the checker sees: given, else the root's venv, else PATH."""
    if given:
        if not Path(given).exists():
            raise InvalidWorkspace(f"interpreter not found: {given}")
        return given
    for name in (".venv", "venv"):
        candidate = root / name / "bin" / "python"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("python3") or shutil.which("python")
    if not found:
        raise InvalidWorkspace("no Python interpreter found; pass --python")
    return found


def check_state_dir(state_dir: Path) -> None:
    """Refuse to work with a state directory the daemon cannot write; the error names it."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A real write, not os.access: it also sees read-only mounts, quotas, a full inode table.
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=state_dir)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise StateDirUnwritable(unwritable_message(state_dir, exc)) from exc


def unwritable_message(state_dir: Path, exc: OSError) -> str:
    reason = f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc.strerror or exc)
    return (
        f"the daemon's state directory {state_dir} is not writable ({reason}); it holds the "
        "checkers' shadow trees, write journals and the verdict record: make it writable, or "
        "move it (PREWRITE_RUNTIME_DIR, else XDG_CACHE_HOME)"
    )


@contextlib.asynccontextmanager
async def within(timeout_s: float, what: str) -> AsyncGenerator[None]:
    """Bound everything inside by ``timeout_s``: running out is ``timeout``, never a verdict."""
    deadline = asyncio.timeout(timeout_s)
    try:
        async with deadline:
            yield
    except TimeoutError:
        if not deadline.expired():
            raise
        raise CheckTimeout(f"no verdict within {timeout_s:.1f}s ({what})") from None


@dataclass(frozen=True)
class ReplyLimits:
    """What a reply may hold: ``frame_bytes`` in all, ``inline_bytes`` of candidate contents."""

    frame_bytes: int = MAX_FRAME_BYTES
    inline_bytes: int = INLINE_CONTENT_BYTES

    @property
    def disk_bytes(self) -> int:
        """Room an apply keeps for its disk rungs' results (decided before it writes)."""
        return min(DISK_RESERVE_BYTES, self.frame_bytes // 4)

    def by_reference(self, reply: CheckReply, return_contents: bool) -> CheckReply:
        """Contents inline while they fit the budget (none unless asked for); the rest by
        reference: path and sha256, ``content_omitted``."""
        budget = self.inline_bytes
        files: list[CandidateFile] = []
        for f in reply.files:
            if f.content is None:
                files.append(f)
                continue
            # A str has at most as many characters as its UTF-8 has bytes: no need to encode
            # one that cannot fit anyway.
            size = len(f.content) if len(f.content) > budget else len(f.content.encode())
            if return_contents and size <= budget:
                budget -= size
                files.append(f)
            else:
                files.append(msgspec.structs.replace(f, content=None, content_omitted=True))
        return msgspec.structs.replace(reply, files=files)

    def check_fits(self, message: object, reserve: int, what: str) -> None:
        """``FrameTooLarge`` unless ``message`` plus ``reserve`` bytes fit in one frame."""
        size = len(msgspec.msgpack.encode(message)) + reserve
        if size > self.frame_bytes:
            raise FrameTooLarge(
                f"{what} would be {size} bytes, over the frame limit of {self.frame_bytes}; "
                "nothing was written"
            )

    def fit_disk(self, results: list[DiskResult]) -> list[DiskResult]:
        """The disk rungs' results cut to their reserved room: output tails, then the lists
        (command, failed tests), halved until they fit."""
        fitted = results
        chars = max((len(r.output) for r in results), default=0)
        items = max((max(len(r.command), len(r.failed)) for r in results), default=0)
        while len(msgspec.msgpack.encode(fitted)) > self.disk_bytes and (chars or items):
            chars, items = chars // 2, items // 2
            fitted = [
                msgspec.structs.replace(
                    r,
                    command=r.command[:items],
                    failed=r.failed[:items],
                    output=r.output[-chars:] if chars else "",
                )
                for r in results
            ]
        return fitted


@dataclass(frozen=True)
class EntryStatistics:
    """A workspace's queue at one moment."""

    waiting: int  # checks waiting for the workspace lock
    max_queue: int
    locked: bool  # a check (or the watcher) holds the workspace
    users: int  # requests under way that use this workspace
    closed: bool  # released: its root was deleted or moved


class Entry:
    """One registered workspace: its lock and queue, ruff, watcher and writer lock."""

    def __init__(
        self,
        workspace: Workspace,
        state_dir: Path,
        max_queue: int = DEFAULT_MAX_QUEUE,
        limits: ReplyLimits | None = None,
    ) -> None:
        self.workspace = workspace
        self.state_dir = state_dir
        self.max_queue = max_queue
        self.limits = limits or ReplyLimits()
        self.lock = asyncio.Lock()
        self.watcher: WorkspaceWatcher | None = None
        self.ruff = Ruff(workspace.root, workspace.python)
        self.write_lock = asyncio.Lock()  # one writer per workspace
        digest = hashlib.sha256(str(workspace.root).encode()).hexdigest()[:16]
        self.journal_key = digest
        self.root_id = dir_identity(workspace.root)
        self.closed = False
        self._waiting = 0
        self._users = 0

    def statistics(self) -> EntryStatistics:
        return EntryStatistics(
            self._waiting, self.max_queue, self.lock.locked(), self._users, self.closed
        )

    def root_gone(self) -> bool:
        return self.root_id is None or dir_identity(self.workspace.root) != self.root_id

    @contextlib.contextmanager
    def in_use(self) -> Generator[None]:
        """Mark a request under way: the LRU does not stop a workspace someone is using."""
        self._users += 1
        try:
            yield
        finally:
            self._users -= 1

    async def sync(self) -> None:
        """Bring the checker's view up to date with the disk now (after a write)."""
        async with self.lock:
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
        try:
            async with within(timeout_s, "waiting for the workspace, then type checking"):
                async with self._turn():
                    return await self._check(patch, deadline)
        except (CheckTimeout, asyncio.CancelledError):  # this deadline, the ladder's, a hang-up
            self._forget_interrupted_start()
            raise

    async def _check(self, patch: PreparedPatch, deadline: Deadline) -> CheckReply:
        if self.closed:
            raise InvalidWorkspace(f"the workspace root {self.workspace.root} was deleted or moved")
        try:
            return await self.workspace.check(patch, deadline.left())
        except OSError as exc:
            if not self._in_state_dir(exc):
                raise
            raise StateDirUnwritable(unwritable_message(self.state_dir, exc)) from exc

    def _forget_interrupted_start(self) -> None:
        """A checker whose start was cut short (and which stopped itself) is no crash:
        forget it, so the next check starts one afresh instead of counting a crash toward
        ``backend_failed``. (Workspace.ensure_backend is where this belongs.)"""
        backend = self.workspace.backend
        if backend is not None and backend.state in (BackendState.ERRORED, BackendState.EXITED):
            self.workspace.backend = None

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncGenerator[None]:
        """Hold the workspace lock; at most ``max_queue`` wait for it, beyond that ``busy``."""
        if self.lock.locked() and self._waiting >= self.max_queue:
            raise Busy(
                f"{self._waiting} check(s) already wait for {self.workspace.root} (the queue "
                f"holds {self.max_queue}); retry later"
            )
        self._waiting += 1
        try:
            await self.lock.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self.lock.release()

    def _in_state_dir(self, exc: OSError) -> bool:
        """Whether ``exc`` is about the daemon's own state (shadow, journal), not the user's."""
        name = exc.filename if isinstance(exc.filename, str) else ""
        state = str(self.state_dir)
        return name == state or name.startswith(state + os.sep)


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
    ) -> None:
        self.state_dir = state_dir
        self.max_warm = max_warm
        self.watch = watch
        self.max_queue = max_queue
        self.limits = limits or ReplyLimits()
        self.protected = (state_dir.resolve(), *(p.resolve() for p in protected))
        self.record = VerdictRecord(state_dir / "verdicts.sqlite3")
        self._entries: dict[tuple[Path, str], Entry] = {}  # in LRU order, oldest first
        self._releasing: set[Entry] = set()  # gone roots whose checker is being stopped

    def entry(self, root: Path, python: str) -> Entry:
        key = (root, python)
        entry = self._entries.pop(key, None)
        if entry is None:
            digest = hashlib.sha256(f"{root}\0{python}".encode()).hexdigest()[:16]
            workspace = Workspace(root, python, self.state_dir / "shadows" / digest)
            entry = Entry(workspace, self.state_dir, self.max_queue, self.limits)
        self._entries[key] = entry  # most recently used last
        return entry

    def workspace(self, root: str, python: str | None) -> Workspace:
        resolved = resolve_root(root)
        return self.entry(resolved, resolve_python(resolved, python)).workspace

    async def check(self, request: CheckRequest) -> CheckReply:
        """Run the ladder on the request's patch; every verdict and refusal is recorded."""
        started = time.perf_counter()
        root = resolve_root(request.root)
        check_state_dir(self.state_dir)
        entry = self.entry(root, resolve_python(root, request.python))
        with entry.in_use():
            await self._evict(keep=entry)
            ladder = Ladder(root, load_config(root), entry.ruff, entry.typecheck, self.protected)
            files = [c.path for c in request.changes]
            try:
                reply = await entry.run_ladder(ladder, request)
            except PrewriteError as exc:
                total = (time.perf_counter() - started) * 1000
                record_verdict(self.record, root, None, exc, ladder.reports, files, total)
                raise
            total = (time.perf_counter() - started) * 1000
            record_verdict(self.record, root, reply, None, ladder.reports, files, total)
            self._start_watching(entry)
        timings = {**reply.timings_ms, "total_ms": round(total, 1)}
        return msgspec.structs.replace(reply, timings_ms=timings)

    async def apply(self, request: ApplyRequest) -> ApplyReply:
        """The ladder, then the all-or-nothing write, then the disk rungs; all recorded."""
        started = time.perf_counter()
        root = resolve_root(request.root)
        check_state_dir(self.state_dir)
        entry = self.entry(root, resolve_python(root, request.python))
        with entry.in_use():
            await self._evict(keep=entry)
            ladder = Ladder(root, load_config(root), entry.ruff, entry.typecheck, self.protected)
            journal = self.state_dir / "journal" / entry.journal_key
            files = [c.path for c in request.changes]
            try:
                async with entry.write_lock:
                    reply = await apply_patch(entry, request, ladder, journal)
            except PrewriteError as exc:
                total = (time.perf_counter() - started) * 1000
                record_verdict(self.record, root, None, exc, ladder.reports, files, total)
                raise
        total = (time.perf_counter() - started) * 1000
        failed = next((r.rung for r in ladder.reports if r.outcome == "fail"), None)
        outcome = "ok" if reply.ok else f"failed:{failed}"
        self.record.add(str(root), outcome, failed, total, files, ladder.reports)
        return reply

    async def finish(self, request: FinishRequest) -> FinishReply:
        return await finish(resolve_root(request.root))

    def stats(self, root: str | None) -> StatsReply:
        return self.record.stats(str(resolve_root(root)) if root else None)

    def _start_watching(self, entry: Entry) -> None:
        if not self.watch or entry.watcher is not None or entry.closed:
            return
        if entry.workspace.backend is None:
            return

        async def release() -> None:
            await self._release(entry)

        entry.watcher = WorkspaceWatcher(entry.workspace, entry.lock, on_root_gone=release)
        entry.watcher.start()

    async def _release(self, entry: Entry) -> None:
        """Forget a workspace whose root is gone and stop its checker (its watcher is ending
        by itself). Requests that still hold it get ``invalid_workspace`` at their turn."""
        ws = entry.workspace
        entry.closed = True
        if self._entries.get((ws.root, ws.python)) is entry:
            del self._entries[(ws.root, ws.python)]
        self._releasing.add(entry)
        try:
            async with entry.lock:
                await ws.stop()
        finally:
            self._releasing.discard(entry)
        log.info("released the workspace %s: its root was deleted or moved", ws.root)

    async def _evict(self, keep: Entry) -> None:
        # Roots gone that no watcher reported (none runs, or it has not ticked yet).
        for entry in [e for e in self._entries.values() if e is not keep and e.root_gone()]:
            stats = entry.statistics()
            if stats.locked or stats.users:
                continue  # whoever holds it gets invalid_workspace or its own error
            if entry.watcher is not None:
                await entry.watcher.stop()
            await self._release(entry)
        others = [
            e for e in self._entries.values() if e is not keep and e.workspace.backend is not None
        ]
        excess = len(others) + 1 - self.max_warm
        for entry in others:
            if excess <= 0:
                break
            stats = entry.statistics()
            if stats.locked or stats.users:
                continue
            ws = entry.workspace
            log.info("stopping the idle checker of %s (more than %d warm)", ws.root, self.max_warm)
            del self._entries[(ws.root, ws.python)]
            await self._stop_entry(entry)
            excess -= 1

    async def _stop_entry(self, entry: Entry) -> None:
        if entry.watcher is not None:
            await entry.watcher.stop()
        await entry.workspace.stop()

    def watcher(self, root: Path, python: str) -> WorkspaceWatcher | None:
        entry = self._entries.get((root, python))
        return entry.watcher if entry else None

    def statuses(self) -> list[WorkspaceStatus]:
        return [e.workspace.status() for e in self._entries.values()]

    async def stop(self) -> None:
        entries = [*self._entries.values(), *self._releasing]
        await asyncio.gather(*(self._stop_entry(e) for e in entries))
        self.record.close()
