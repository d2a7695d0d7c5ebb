"""The registry of warm workspaces: one shadow, import graph and checker per (root, interpreter).

This is the one owner of mutable workspace state. A workspace is registered synchronously before
anything is awaited, so concurrent first requests share one checker instead of spawning two;
its lock serialises checks on that checker.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import shutil
import time
from pathlib import Path

from prewrite.errors import BackendFailed, ErrorDetail, InvalidWorkspace, StaleBase
from prewrite.protocol import CheckReply, CheckRequest, Diagnostic, WorkspaceStatus

from prewrite_daemon.backends.base import Backend, BackendState
from prewrite_daemon.backends.pyright import make_pyright
from prewrite_daemon.checker import CheckContext, run_check
from prewrite_daemon.imports import ImportGraph
from prewrite_daemon.patch import PreparedPatch, prepare_patch, resolve_root
from prewrite_daemon.shadow import ShadowTree

log = logging.getLogger(__name__)

MAX_RESTARTS = 3
RESTART_WINDOW_S = 300.0


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


class Workspace:
    def __init__(self, root: Path, python: str, shadow_root: Path) -> None:
        self.root = root
        self.python = python
        self.lock = asyncio.Lock()
        self.shadow = ShadowTree(root, shadow_root)
        self.graph = ImportGraph()
        self.backend: Backend | None = None
        self.base_cache: dict[str, list[Diagnostic]] = {}
        self.generation = 0
        self.checks = 0
        self._restarts: list[float] = []

    def status(self) -> WorkspaceStatus:
        backend = self.backend
        state = backend.state.value if backend else "not started"
        pid = backend.pid if backend and backend.state is BackendState.RUNNING else None
        return WorkspaceStatus(
            root=str(self.root),
            python=self.python,
            backend_state=state,
            generation=self.generation,
            checks=self.checks,
            server_pid=pid,
        )

    async def check(self, request: CheckRequest, root: Path) -> CheckReply:
        async with self.lock:
            t0 = time.perf_counter()
            patch = prepare_patch(root, request.changes)  # cheap: fail fast before any start
            backend = await self._ensure_backend()
            self._sync(backend)
            self._verify_same_base(patch)
            t_sync = time.perf_counter()
            ctx = CheckContext(self.shadow, self.graph, backend, self.base_cache)
            reply = await run_check(ctx, patch, request.timeout_s)
            self.checks += 1
            timings = dict(reply.timings_ms)
            timings["sync_ms"] = round((t_sync - t0) * 1000, 1)
            timings["total_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            return CheckReply(reply.ok, reply.diagnostics, reply.checked_files, timings)

    def _verify_same_base(self, patch: PreparedPatch) -> None:
        """The shadow must hold exactly the bytes the patch was validated against."""
        moved = [
            ErrorDetail("changed on disk while the check started", e.path)
            for e in patch.edits
            if e.is_python and self.shadow.read_text(e.path) != e.old_text
        ]
        if moved:
            raise StaleBase("the workspace changed while the check started; retry", moved)

    async def stop(self) -> None:
        if self.backend is not None:
            await self.backend.stop()

    def _sync(self, backend: Backend) -> None:
        """Bring the shadow, the import graph and the checker up to date with the workspace."""
        scan = self.shadow.sync()
        if not scan.changed:
            return
        for rel in scan.changed:
            if rel.endswith((".py", ".pyi")):
                self.graph.update(
                    rel, self.shadow.read_text(rel) if rel in self.shadow.files else None
                )
        backend.files_changed(scan.events)
        self.base_cache.clear()
        self.generation += 1

    async def _ensure_backend(self) -> Backend:
        backend = self.backend
        if backend is not None and backend.state is BackendState.RUNNING and not backend.exited:
            return backend
        now = time.monotonic()
        self._restarts = [t for t in self._restarts if now - t < RESTART_WINDOW_S]
        if backend is not None:
            if len(self._restarts) >= MAX_RESTARTS:
                raise BackendFailed(
                    f"the checker failed {MAX_RESTARTS} times in {RESTART_WINDOW_S:.0f}s; "
                    "see the daemon log"
                )
            self._restarts.append(now)
            await backend.stop()
        # A fresh checker gets a fresh shadow: nothing of an earlier overlay can survive.
        self.shadow.create()
        self.graph = ImportGraph()
        for rel in self.shadow.files:
            if rel.endswith((".py", ".pyi")):
                self.graph.update(rel, self.shadow.read_text(rel))
        self.base_cache.clear()
        self.generation += 1
        backend = make_pyright(self.shadow.shadow_root, self.python)
        self.backend = backend
        await backend.start()
        return backend


class Registry:
    """Warm workspaces by (root, interpreter); the least recently used past the cap stop."""

    def __init__(self, state_dir: Path, max_warm: int = 4) -> None:
        self.state_dir = state_dir
        self.max_warm = max_warm
        self._workspaces: dict[tuple[Path, str], Workspace] = {}  # in LRU order, oldest first

    def workspace(self, root: Path, python: str) -> Workspace:
        key = (root, python)
        ws = self._workspaces.pop(key, None)
        if ws is None:
            digest = hashlib.sha256(f"{root}\0{python}".encode()).hexdigest()[:16]
            ws = Workspace(root, python, self.state_dir / "shadows" / digest)
        self._workspaces[key] = ws  # most recently used last
        return ws

    async def check(self, request: CheckRequest) -> CheckReply:
        root = resolve_root(request.root)
        python = resolve_python(root, request.python)
        ws = self.workspace(root, python)
        await self._evict(keep=ws)
        return await ws.check(request, root)

    async def _evict(self, keep: Workspace) -> None:
        """Stop idle warm checkers beyond ``max_warm``, oldest first (memory is finite)."""
        others = [w for w in self._workspaces.values() if w is not keep and w.backend is not None]
        excess = len(others) + 1 - self.max_warm
        for ws in others:
            if excess <= 0:
                break
            if ws.lock.locked():
                continue
            log.info("stopping the idle checker of %s (more than %d warm)", ws.root, self.max_warm)
            del self._workspaces[(ws.root, ws.python)]
            await ws.stop()
            excess -= 1

    def statuses(self) -> list[WorkspaceStatus]:
        return [ws.status() for ws in self._workspaces.values()]

    async def stop(self) -> None:
        await asyncio.gather(*(ws.stop() for ws in self._workspaces.values()))
