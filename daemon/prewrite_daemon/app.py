"""The daemon's lifecycle: one instance per user, listen, serve, stop in order (its command line
and launch: ``launch``).

Start-up: take the lock (a second daemon exits quietly), bind the socket, then write the status
file (so its presence means "listening"). Stop: remove the status file *before* answering
``stop``, stop the checkers (LSP shutdown, then terminate, then kill), remove the socket.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from typing import TYPE_CHECKING

import msgspec

from prewrite import __version__
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyRequest,
    CheckRequest,
    EditorAttach,
    FinishRequest,
    Hello,
    HelloReply,
    Reply,
    Request,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopReply,
    StopRequest,
)
from prewrite.runtime import DaemonStatusFile, RuntimePaths
from prewrite_daemon.check.planning import DEFAULT_PLANNING_BUDGET_S
from prewrite_daemon.editor.hub import EditorHub
from prewrite_daemon.languages.registry import (
    LANGUAGES,
    pause_background,
    resume_background,
    stop_background,
)
from prewrite_daemon.rpc import serve_unix
from prewrite_daemon.session import Registry
from prewrite_daemon.writer.journal import recover

if TYPE_CHECKING:
    from pathlib import Path

log = logging.getLogger("prewrite_daemon")

SHUTDOWN_GRACE_S = 10.0
DEFAULT_SPARE_IDLE_S = 60.0
QUIET_S = 1.0  # no request for this long: background warm-up may start


class Daemon:
    def __init__(
        self,
        paths: RuntimePaths,
        idle_timeout_s: float | None,
        max_warm: int,
        spare_idle_s: float = DEFAULT_SPARE_IDLE_S,
        planning_budget_s: float = DEFAULT_PLANNING_BUDGET_S,
        ready_checker: bool = True,
        memory_budget: int | None = None,
        worktree_warmup: bool = True,
    ) -> None:
        self.paths = paths
        self.idle_timeout_s = idle_timeout_s
        self.registry = Registry(
            paths.state_dir, max_warm, protected=(paths.runtime_dir,),
            planning_budget_s=planning_budget_s, watch_after_reply=True,
            ready_checkers=ready_checker, quiet=self._quiet, memory_budget=memory_budget,
            worktree_warmup=worktree_warmup,
        )  # fmt: skip
        self.started = time.monotonic()
        self.last_activity = time.monotonic()
        self.in_flight = 0
        self.stopping = asyncio.Event()
        self.idle = asyncio.Event()  # set while no request is being handled
        self.idle.set()
        self.editors = EditorHub(self.registry, self._editor_busy, spare_idle_s)
        self._editors_attached = 0

    async def handle(self, request: Request) -> Reply:
        self.in_flight += 1
        if self.in_flight == 1:
            pause_background()  # background Protocol scans wait while a request is served
        self.idle.clear()
        try:
            match request:
                case Hello():
                    return HelloReply(PROTOCOL_VERSION, __version__, os.getpid())
                case CheckRequest():
                    return await self.registry.check(request)
                case ApplyRequest():
                    return await self.registry.apply(request)
                case FinishRequest():
                    return await self.registry.finish(request)
                case StatusRequest():
                    return self._status()
                case StatsRequest():
                    return self.registry.stats(request.root)
                case EditorAttach():
                    return self.editors.attach()
                case StopRequest():
                    self.paths.status_file.unlink(missing_ok=True)
                    return StopReply()  # stopping starts once this reply is out (after_reply)
        finally:
            self.in_flight -= 1
            self.last_activity = time.monotonic()
            if self.in_flight == 0:
                self.idle.set()
                resume_background()

    async def _quiet(self) -> None:
        """Until no request has been under way for ``QUIET_S`` (a ready checker's warm-up
        waits for it, so it does not hold the server a first check is about to take)."""
        while True:
            await self.idle.wait()
            await asyncio.sleep(QUIET_S)
            if self.idle.is_set() and time.monotonic() - self.last_activity >= QUIET_S:
                return

    def _editor_busy(self, delta: int) -> None:
        """An attached editor is activity: the idle timeout waits for it to detach."""
        self._editors_attached += delta
        self.last_activity = time.monotonic()

    def after_reply(self, reply: Reply) -> None:
        if isinstance(reply, StopReply):
            self.stopping.set()
        else:
            self.registry.start_watchers()  # a check's new watchers, once its reply is out
            self.registry.ready.refill()  # the next workspace's (or restart's) checker

    def _status(self) -> StatusReply:
        return StatusReply(
            pid=os.getpid(),
            version=__version__,
            socket=str(self.paths.socket),
            uptime_s=round(time.monotonic() - self.started, 1),
            workspaces=self.editors.statuses(),
            memory_budget=self.registry.memory_budget or 0,
        )

    async def run(self) -> None:
        socket_path = self.paths.socket
        socket_path.unlink(missing_ok=True)  # we hold the lock: any socket here is stale
        self._recover_writes()
        server = await serve_unix(
            str(socket_path), self.handle, self.after_reply, takeover=self.editors.serve
        )
        # Signals first: once the status file says we are up, a SIGTERM is a clean stop.
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stopping.set)
        status = DaemonStatusFile(os.getpid(), str(socket_path), __version__, PROTOCOL_VERSION)
        _write_atomic(self.paths.status_file, msgspec.json.encode(status))
        log.info(
            "prewrite daemon %s listening on %s (pid %s)", __version__, socket_path, os.getpid()
        )
        for language in LANGUAGES:  # loading while the first request comes in
            self.registry.ready.fill(language)
        try:
            async with asyncio.TaskGroup() as tg:
                idle = tg.create_task(self._idle_watch()) if self.idle_timeout_s else None
                await self.stopping.wait()
                if idle is not None:
                    idle.cancel()
        finally:
            self.paths.status_file.unlink(missing_ok=True)
            server.close()  # no new connections; requests under way may finish
            try:
                await asyncio.wait_for(self.idle.wait(), SHUTDOWN_GRACE_S)
            except TimeoutError:
                log.warning("stopping with requests still running after %ss", SHUTDOWN_GRACE_S)
            await self.editors.stop()
            await self.registry.stop()
            stop_background()  # the Protocol scans under way: nobody will read their answers
            socket_path.unlink(missing_ok=True)
            log.info("prewrite daemon stopped")

    def _recover_writes(self) -> None:
        """Finish or undo every write an earlier daemon was interrupted in (before serving)."""
        journals = self.paths.state_dir / "journal"
        if not journals.is_dir():
            return
        for workspace in sorted(journals.iterdir()):
            for txn in recover(workspace):
                log.warning("recovered the interrupted write %s in %s", txn, workspace.name)

    async def _idle_watch(self) -> None:
        timeout_s = self.idle_timeout_s or 0.0
        while not self.stopping.is_set():
            idle = time.monotonic() - self.last_activity
            if self.in_flight == 0 and self._editors_attached == 0 and idle >= timeout_s:
                log.info("idle for %.0fs; stopping", idle)
                self.stopping.set()
                return
            await asyncio.sleep(max(1.0, timeout_s - idle))


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
