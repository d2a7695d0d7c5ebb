"""Watching a workspace: changes on disk reach the shadow and the checker before they are asked.

One watcher per workspace (watchfiles, debounced, with a stop event): the source tree
recursively; the interpreter's package directories recursively (an install or uninstall adds or
removes a ``*.dist-info``; a package edited in place changes its sources, which no stamp of the
fingerprint shows: the watcher counts those edits into the fingerprint); the directories outside
the root that the checker reads sources from (editable installs' sources, ``extraPaths``).
Each batch is applied under the workspace lock: source changes are synced into the shadow and
announced to pyright; a moved environment restarts the checker now rather than at the next check.

Correctness never depends on the watcher for the root and for sources outside it — every check
re-scans and re-fingerprints them at admission and before answering; watching makes the next
check cheaper. An in-place edit inside site-packages is seen through the watcher only (stamping
thousands of installed files twice per check would cost more than the check): within about one
debounce. If watching fails, the workspace is marked for a full resync and watching stops.

A root that was deleted or moved (checked on every tick, at most ``READY_TICK_MS`` apart) ends
the watch and calls ``on_root_gone``: the registry releases the warm checker at once rather than
when the LRU gets to it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from typing import TYPE_CHECKING

import watchfiles

from prewrite.errors import PrewriteError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

DEBOUNCE_MS = 200
READY_TICK_MS = 1000

DirId = tuple[int, int]  # st_dev, st_ino


def dir_identity(path: Path) -> DirId | None:
    """Which directory ``path`` names now; None if it names none (deleted, or not a dir)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


class WorkspaceWatcher:
    def __init__(
        self,
        workspace: Workspace,
        on_root_gone: Callable[[], Awaitable[None]] | None = None,
        on_tick: Callable[[], None] | None = None,
    ) -> None:
        """``on_tick``: called on each batch of the root's watch, empty ones included (about
        once a second while nothing moves): the registry looks for new git worktrees then."""
        self.workspace = workspace
        self.on_root_gone = on_root_gone
        self.on_tick = on_tick
        self.batches = 0
        self.applied = asyncio.Event()  # set after each batch is applied (tests wait on it)
        self.ready = asyncio.Event()  # set once every watch is in place
        self.root_gone = asyncio.Event()  # set once the root was deleted or moved, and released
        self._root_id = dir_identity(workspace.root)
        self._ready_loops: set[int] = set()
        self._outside = workspace.watched_outside()
        self._loops = 1 + bool(workspace.site_dirs) + bool(self._outside)
        self._stop = asyncio.Event()
        self._stopping = False  # stop() was called: the owner is releasing the workspace itself
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"watch {self.workspace.root}")

    async def stop(self) -> None:
        self._stopping = True
        self._stop.set()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def root_moved(self) -> bool:
        """Whether the root is no longer the directory this watcher started on."""
        return self._root_id is None or dir_identity(self.workspace.root) != self._root_id

    async def _run(self) -> None:
        ws = self.workspace
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._watch([ws.root], filtered=True))
                if ws.site_dirs:
                    # Unfiltered: the default filter drops everything under a ".venv" path.
                    tg.create_task(self._watch(ws.site_dirs, filtered=False, libraries=True))
                if self._outside:
                    tg.create_task(self._watch(self._outside, filtered=True))
        except* Exception as group:
            if not self.root_moved():
                log.error("watching %s failed (%s); next check resyncs", ws.root, group.exceptions)
                ws.request_resync()
        if self.root_moved() and not self._stopping:
            log.info("%s was deleted or moved; releasing its checker and watcher", ws.root)
            if self.on_root_gone is not None:
                await self.on_root_gone()
            self.root_gone.set()

    async def _watch(self, paths: list[Path], filtered: bool, libraries: bool = False) -> None:
        changes = watchfiles.awatch(  # pyright: ignore[reportUnknownMemberType]  (trio's Event)
            *paths,
            watch_filter=watchfiles.DefaultFilter() if filtered else None,
            debounce=DEBOUNCE_MS,
            stop_event=self._stop,
            recursive=True,
            ignore_permission_denied=True,
            rust_timeout=READY_TICK_MS,
            yield_on_timeout=True,  # an empty batch proves the watch is set up
        )
        async for batch in changes:
            if self.root_moved():
                self._stop.set()  # ends the other watch loop too, within one tick
                return
            self._ready_loops.add(id(paths))
            if len(self._ready_loops) == self._loops:
                self.ready.set()
            if self.on_tick is not None and paths[0] == self.workspace.root:
                self.on_tick()
            if not batch:
                continue
            async with self.workspace.lock:
                if libraries and any(_is_source(path) for _change, path in batch):
                    self.workspace.library_events += 1  # moves the fingerprint: a restart
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


def _is_source(path: str) -> bool:
    """A file pyright reads from an installed package (not bytecode caches)."""
    return path.endswith((".py", ".pyi", "py.typed")) and "__pycache__" not in path
