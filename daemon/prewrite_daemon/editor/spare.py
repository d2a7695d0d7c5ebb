"""Editors beside a busy agent: a spare checker, only while the warm one is taken.

One warm checker serves agents and editors, one holder at a time (``concurrency.priority_lock``). An
interface-changing agent check can hold it for seconds, and a person waiting on a hover must not
wait that long. The rules:

- An editor's request asks for the warm checker first. Granted within ``CONTENDED_S``, it runs
  there (the usual case: no agent at work, or only short checks).
- Still held by an agent check (or a watcher batch) after that: the workspace's spare serves it,
  started on this first contention if there is none. Until the spare is ready, whichever comes
  first serves the request: the warm checker's lock or the spare. While a spare is up, a request
  that finds an agent holding the warm checker goes to the spare at once.
- The spare is a second checker of the same language over the **real** root, not the shadow:
  during an agent check the shadow holds the agent's new and deleted modules on disk, which an
  editor must never see. It reads the disk as the editor's own checker would, with the same
  interpreter, told of every file the workspace's syncs move, and holds one editor's buffers at
  a time (its own ``EditorLayer``), behind its own lock.
- It stops after ``idle_s`` without a request, when the environment moves (a new one starts on
  the next contention, with the new settings), and with the daemon. Memory: one spare per
  workspace, started only while ``MEMORY_HEADROOM`` times the warm checker's RSS is available.
- Not for untrusted workspaces: their checker reads a generated configuration in the shadow (no
  interpreter is run), which the real root does not have, so a spare could answer differently.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import psutil

from prewrite.errors import PrewriteError
from prewrite_daemon.concurrency.priority_lock import PriorityLock
from prewrite_daemon.editor.layer import EditorLayer

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Callable

    from prewrite_daemon.backends.base import Backend, FileEvent
    from prewrite_daemon.languages.fingerprint import Fingerprint
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

CONTENDED_S = 0.2  # an editor waits this long for the warm checker before the spare is asked
MEMORY_HEADROOM = 2.0  # available memory, in warm-checker RSS, a spare may start with
START_TIMEOUT_S = 120.0


class Spare:
    """A second checker over a workspace's real root, for editors only."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.backend: Backend = ws.language.make_backend(ws.root, ws.env, ws.run_python)
        self.env: Fingerprint = ws.peek_environment()
        self.layer = EditorLayer(lambda rel: str(ws.root / rel))
        self.lock = PriorityLock()
        self.ready = asyncio.Event()
        self.gone = asyncio.Event()  # failed to start, or stopped: never ready again
        self.last_used = time.monotonic()

    def usable(self) -> bool:
        """Running, on the workspace's environment as it is now."""
        if self.gone.is_set() or self.backend.exited:
            return False
        return self.ws.peek_environment() == self.env

    def files_changed(self, events: list[FileEvent]) -> None:
        if self.ready.is_set() and not self.backend.exited:
            self.backend.files_changed(events)

    async def wait_ready(self) -> bool:
        """True once it serves; False if it never will."""
        ready = asyncio.ensure_future(self.ready.wait())
        gone = asyncio.ensure_future(self.gone.wait())
        try:
            await asyncio.wait({ready, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ready.cancel()
            gone.cancel()
        return self.ready.is_set() and not self.gone.is_set()

    async def live(self, idle_s: float) -> None:
        """Start, serve until idle for ``idle_s`` (or the environment moves), stop."""
        try:
            await self.backend.start(START_TIMEOUT_S)
            self.ready.set()
            log.info("editor spare checker for %s started (pid %s)", self.ws.root, self.backend.pid)
            while self.usable():
                idle = time.monotonic() - self.last_used
                if idle >= idle_s and not self.lock.locked():
                    break
                await asyncio.sleep(max(idle_s - idle, 0.05))
        except PrewriteError as exc:
            log.warning("editor spare checker for %s failed: %s", self.ws.root, exc)
        finally:
            self.gone.set()
            self.ws.file_listeners.discard(self.files_changed)
            await self.backend.stop()  # a request still on it fails: the editor may retry
            log.info("editor spare checker for %s stopped", self.ws.root)


@dataclass(frozen=True)
class Lane:
    """Where an editor's request runs; the caller holds ``lock`` (entered by ``SparePool``)."""

    spare: Spare | None  # None: the warm checker (the workspace's lock is held)


class SparePool:
    """The spares of every workspace, each owned by one task of this pool."""

    def __init__(self, idle_s: float) -> None:
        """``idle_s`` 0: no spares; editors always wait for the warm checker."""
        self.idle_s = idle_s
        self._spares: dict[int, Spare] = {}
        self._tasks: dict[Spare, asyncio.Task[None]] = {}  # each spare's life
        self.served: dict[int, int] = {}  # id(workspace) -> requests its spares answered

    def spare_of(self, ws: Workspace) -> Spare | None:
        spare = self._spares.get(id(ws))
        return spare if spare is not None and not spare.gone.is_set() else None

    @contextlib.asynccontextmanager
    async def lane(self, ws: Workspace) -> AsyncGenerator[Lane]:
        """Hold the warm checker, or the spare when the warm one is busy with an agent."""
        spare = await self._acquire(ws)
        log.debug("editor request on the %s checker of %s", "spare" if spare else "warm", ws.root)
        try:
            yield Lane(spare)
        finally:
            if spare is None:
                ws.lock.release()
            else:
                spare.last_used = time.monotonic()
                spare.lock.release()

    async def _acquire(self, ws: Workspace) -> Spare | None:
        running = self.spare_of(ws)
        if ws.lock.held_by_normal() and running is not None and running.ready.is_set():
            # Contended again while a spare is up: no need to wait the moment out first.
            if running.usable() and await self._enter(ws, running):
                return running
        warm = asyncio.ensure_future(ws.lock.acquire(urgent=True))
        try:
            await asyncio.wait({warm}, timeout=CONTENDED_S)
            spare = None if warm.done() or not ws.lock.held_by_normal() else self._spare_for(ws)
            if spare is not None:
                ready = asyncio.ensure_future(spare.wait_ready())
                await asyncio.wait({warm, ready}, return_when=asyncio.FIRST_COMPLETED)
                ready.cancel()
                if not warm.done() and ready.done() and ready.result():
                    await _abandon(ws, warm)
                    if await self._enter(ws, spare):
                        return spare
                    warm = asyncio.ensure_future(ws.lock.acquire(urgent=True))
            await warm
        except BaseException:
            await _abandon(ws, warm)
            raise
        return None

    async def _enter(self, ws: Workspace, spare: Spare) -> bool:
        """Hold ``spare``'s lock, unless it stopped meanwhile (then hold nothing)."""
        await spare.lock.acquire(urgent=True)
        if spare.gone.is_set():
            spare.lock.release()
            return False
        self.served[id(ws)] = self.served.get(id(ws), 0) + 1
        return True

    def _spare_for(self, ws: Workspace) -> Spare | None:
        """The workspace's usable spare, started now if there is none and the budget allows."""
        found = self._spares.get(id(ws))
        if found is not None and not found.gone.is_set():
            if not found.ready.is_set() or found.usable():
                found.last_used = time.monotonic()
                return found
            self._tasks[found].cancel()  # its environment moved: a new one replaces it
        if self.idle_s <= 0 or not ws.trusted or not _memory_allows(ws):
            return None
        try:
            spare = Spare(ws)
        except PrewriteError as exc:
            log.warning("no editor spare for %s: %s", ws.root, exc)
            return None
        self._spares[id(ws)] = spare
        ws.file_listeners.add(spare.files_changed)
        task = asyncio.ensure_future(spare.live(self.idle_s))
        self._tasks[spare] = task
        task.add_done_callback(self._ended(id(ws), spare))
        return spare

    def _ended(self, key: int, spare: Spare) -> Callable[[object], None]:
        def ended(_task: object) -> None:
            self._tasks.pop(spare, None)
            if self._spares.get(key) is spare:
                del self._spares[key]

        return ended

    async def stop(self) -> None:
        """Every spare stops (the daemon is stopping)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _abandon(ws: Workspace, warm: asyncio.Future[bool]) -> None:
    """Give up waiting for the warm checker's lock; release it if it was granted meanwhile."""
    if not warm.done():
        warm.cancel()  # PriorityLock passes on a turn handed over as it was cancelled
        with contextlib.suppress(asyncio.CancelledError):
            await warm
    elif not warm.cancelled() and warm.exception() is None:
        ws.lock.release()


def _memory_allows(ws: Workspace) -> bool:
    backend = ws.backend
    pid = backend.pid if backend is not None else None
    try:
        rss = psutil.Process(pid).memory_info().rss if pid else 0
        available = psutil.virtual_memory().available
    except psutil.Error:
        return False
    if available < MEMORY_HEADROOM * rss:
        log.info("no editor spare for %s: %d MB free, the checker uses %d MB", ws.root,
                 available >> 20, rss >> 20)  # fmt: skip
        return False
    return True
