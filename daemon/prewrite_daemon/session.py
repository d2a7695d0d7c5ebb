"""The registry of warm workspaces, one per (root, interpreter), and their watchers.

A workspace is registered synchronously before anything is awaited, so concurrent first
requests share one checker instead of spawning two; its lock serialises checks on that checker.
The least recently used warm checkers beyond ``max_warm`` are stopped (memory is finite).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import InvalidWorkspace, PrewriteError
from prewrite_daemon.apply import apply_patch, finish
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.record import VerdictRecord
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder, record_verdict
from prewrite_daemon.patch import PreparedPatch, resolve_root
from prewrite_daemon.watcher import WorkspaceWatcher
from prewrite_daemon.workspace import Workspace

if TYPE_CHECKING:
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

log = logging.getLogger(__name__)


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


class Entry:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.lock = asyncio.Lock()
        self.watcher: WorkspaceWatcher | None = None
        self.ruff = Ruff(workspace.root, workspace.python)
        self.write_lock = asyncio.Lock()  # one writer per workspace
        digest = hashlib.sha256(str(workspace.root).encode()).hexdigest()[:16]
        self.journal_key = digest

    async def sync(self) -> None:
        """Bring the checker's view up to date with the disk now (after a write)."""
        async with self.lock:
            self.workspace.refresh()

    async def typecheck(self, patch: PreparedPatch, timeout_s: float) -> CheckReply:
        async with self.lock:
            return await self.workspace.check(patch, timeout_s)


class Registry:
    def __init__(
        self,
        state_dir: Path,
        max_warm: int = 4,
        watch: bool = True,
        protected: tuple[Path, ...] = (),
    ) -> None:
        self.state_dir = state_dir
        self.max_warm = max_warm
        self.watch = watch
        self.protected = (state_dir.resolve(), *(p.resolve() for p in protected))
        self.record = VerdictRecord(state_dir / "verdicts.sqlite3")
        self._entries: dict[tuple[Path, str], Entry] = {}  # in LRU order, oldest first

    def entry(self, root: Path, python: str) -> Entry:
        key = (root, python)
        entry = self._entries.pop(key, None)
        if entry is None:
            digest = hashlib.sha256(f"{root}\0{python}".encode()).hexdigest()[:16]
            entry = Entry(Workspace(root, python, self.state_dir / "shadows" / digest))
        self._entries[key] = entry  # most recently used last
        return entry

    def workspace(self, root: str, python: str | None) -> Workspace:
        resolved = resolve_root(root)
        return self.entry(resolved, resolve_python(resolved, python)).workspace

    async def check(self, request: CheckRequest) -> CheckReply:
        """Run the ladder on the request's patch; every verdict and refusal is recorded."""
        started = time.perf_counter()
        root = resolve_root(request.root)
        entry = self.entry(root, resolve_python(root, request.python))
        await self._evict(keep=entry)
        ladder = Ladder(root, load_config(root), entry.ruff, entry.typecheck, self.protected)
        files = [c.path for c in request.changes]
        try:
            reply = await ladder.run(request)
        except PrewriteError as exc:
            total = (time.perf_counter() - started) * 1000
            record_verdict(self.record, root, None, exc, ladder.reports, files, total)
            raise
        total = (time.perf_counter() - started) * 1000
        record_verdict(self.record, root, reply, None, ladder.reports, files, total)
        if self.watch and entry.watcher is None and entry.workspace.backend is not None:
            entry.watcher = WorkspaceWatcher(entry.workspace, entry.lock)
            entry.watcher.start()
        timings = {**reply.timings_ms, "total_ms": round(total, 1)}
        return msgspec.structs.replace(reply, timings_ms=timings)

    async def apply(self, request: ApplyRequest) -> ApplyReply:
        """The ladder, then the all-or-nothing write, then the disk rungs; all recorded."""
        started = time.perf_counter()
        root = resolve_root(request.root)
        entry = self.entry(root, resolve_python(root, request.python))
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

    async def _evict(self, keep: Entry) -> None:
        others = [
            e for e in self._entries.values() if e is not keep and e.workspace.backend is not None
        ]
        excess = len(others) + 1 - self.max_warm
        for entry in others:
            if excess <= 0:
                break
            if entry.lock.locked():
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
        await asyncio.gather(*(self._stop_entry(e) for e in self._entries.values()))
        self.record.close()
