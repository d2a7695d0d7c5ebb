"""Watching a workspace: changes on disk reach the shadow and the checker before they are asked.

One watcher per workspace (watchfiles, debounced, with a stop event): the source tree
recursively, the interpreter's package directories at their top level (an install or uninstall
adds or removes a ``*.dist-info`` there). Each batch is applied under the workspace lock: source
changes are synced into the shadow and announced to pyright; a moved environment restarts the
checker now rather than at the next check.

Correctness never depends on the watcher — every check re-scans and re-fingerprints at admission
and before answering. Watching makes the next check cheaper. If watching fails, the workspace is
marked for a full resync and watching stops.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import watchfiles

from prewrite.errors import PrewriteError

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

DEBOUNCE_MS = 200
READY_TICK_MS = 1000


class WorkspaceWatcher:
    def __init__(self, workspace: Workspace, lock: asyncio.Lock) -> None:
        self.workspace = workspace
        self.lock = lock
        self.batches = 0
        self.applied = asyncio.Event()  # set after each batch is applied (tests wait on it)
        self.ready = asyncio.Event()  # set once every watch is in place
        self._ready_loops: set[int] = set()
        self._loops = 2 if workspace.site_dirs else 1
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"watch {self.workspace.root}")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        ws = self.workspace
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._watch([ws.root], recursive=True, filtered=True))
                if ws.site_dirs:
                    # Unfiltered: the default filter drops everything under a ".venv" path.
                    tg.create_task(self._watch(ws.site_dirs, recursive=False, filtered=False))
        except* Exception as group:
            log.error("watching %s failed (%s); next check resyncs", ws.root, group.exceptions)
            ws.resync_needed = True

    async def _watch(self, paths: list[Path], recursive: bool, filtered: bool) -> None:
        changes = watchfiles.awatch(  # pyright: ignore[reportUnknownMemberType]  (trio's Event)
            *paths,
            watch_filter=watchfiles.DefaultFilter() if filtered else None,
            debounce=DEBOUNCE_MS,
            stop_event=self._stop,
            recursive=recursive,
            ignore_permission_denied=True,
            rust_timeout=READY_TICK_MS,
            yield_on_timeout=True,  # an empty batch proves the watch is set up
        )
        async for batch in changes:
            self._ready_loops.add(id(paths))
            if len(self._ready_loops) == self._loops:
                self.ready.set()
            if not batch:
                continue
            async with self.lock:
                await self._apply()
            self.applied.set()

    async def _apply(self) -> None:
        ws = self.workspace
        self.batches += 1
        backend = ws.backend
        if backend is None or backend.exited:
            return  # the next check starts one on the state of that moment
        try:
            env = ws.environment()
            if env != ws.backend_env:
                await ws.ensure_backend(env)
            else:
                ws.sync(backend)
        except PrewriteError as exc:
            log.warning("applying changes to %s failed: %s", ws.root, exc)
