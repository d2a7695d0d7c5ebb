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


class WorkspaceWatcher:
    def __init__(self, workspace: Workspace, lock: asyncio.Lock) -> None:
        self.workspace = workspace
        self.lock = lock
        self.batches = 0
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
                tg.create_task(self._watch([ws.root], recursive=True))
                if ws.site_dirs:
                    tg.create_task(self._watch(ws.site_dirs, recursive=False))
        except* Exception as group:
            log.error("watching %s failed (%s); next check resyncs", ws.root, group.exceptions)
            ws.resync_needed = True

    async def _watch(self, paths: list[Path], recursive: bool) -> None:
        changes = watchfiles.awatch(  # pyright: ignore[reportUnknownMemberType]  (trio's Event)
            *paths,
            debounce=DEBOUNCE_MS,
            stop_event=self._stop,
            recursive=recursive,
            ignore_permission_denied=True,
        )
        async for _batch in changes:
            async with self.lock:
                await self._apply()

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
