"""The daemon's lifecycle: one instance per user, listen, serve, stop in order.

Start-up: take the lock (a second daemon exits quietly), bind the socket, then write the status
file (so its presence means "listening"). Stop: remove the status file *before* answering
``stop``, stop the checkers (LSP shutdown, then terminate, then kill), remove the socket.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import logging
import os
import signal
import sys
import time
from typing import TYPE_CHECKING

import msgspec

from prewrite import __version__
from prewrite.errors import StateDirUnwritable
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
from prewrite.runtime import DaemonStatusFile, RuntimePaths, ensure_private_dir, runtime_paths
from prewrite_daemon.backends.node import sanitized_path
from prewrite_daemon.editor.hub import EditorHub
from prewrite_daemon.languages.python import PYTHON
from prewrite_daemon.library_protocols import pause_scans, resume_scans, stop_scans
from prewrite_daemon.limits import check_state_dir
from prewrite_daemon.planning import DEFAULT_PLANNING_BUDGET_S
from prewrite_daemon.rpc import serve_unix
from prewrite_daemon.session import Registry
from prewrite_daemon.writer import recover

if TYPE_CHECKING:
    from collections.abc import Sequence
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
    ) -> None:
        self.paths = paths
        self.idle_timeout_s = idle_timeout_s
        self.registry = Registry(
            paths.state_dir, max_warm, protected=(paths.runtime_dir,),
            planning_budget_s=planning_budget_s, watch_after_reply=True,
            ready_checkers=ready_checker, quiet=self._quiet,
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
            pause_scans()  # background Protocol scans wait while a request is served
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
                resume_scans()

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
        self.registry.ready.fill(PYTHON)  # loading while the first request comes in
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
            stop_scans()  # the Protocol scans under way: nobody will read their answers
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="prewrite-daemon", description="Run the prewrite daemon in the foreground."
    )
    parser.add_argument("--idle-timeout", type=float, help="exit after this many idle seconds")
    parser.add_argument("--log-level", default=os.environ.get("PREWRITE_LOG_LEVEL", "INFO"))
    parser.add_argument(
        "--max-warm",
        type=int,
        default=int(os.environ.get("PREWRITE_MAX_WARM", "4")),
        help="warm checkers kept at once; the least recently used beyond it stop (default 4)",
    )
    parser.add_argument(
        "--editor-spare-idle",
        type=float,
        default=float(os.environ.get("PREWRITE_SPARE_IDLE_S", DEFAULT_SPARE_IDLE_S)),
        help="an editor's spare checker (started while an agent check holds the warm one) "
        "stops after this many unused seconds; 0: no spares, editors wait (default 60)",
    )
    parser.add_argument(
        "--planning-budget",
        type=float,
        default=float(os.environ.get("PREWRITE_PLANNING_BUDGET_S", DEFAULT_PLANNING_BUDGET_S)),
        help="seconds a check may spend narrowing which importers to compare (never more than "
        "half its deadline leaves); past it, every importer is compared (default 2)",
    )
    parser.add_argument(
        "--no-ready-checker",
        action="store_true",
        default=os.environ.get("PREWRITE_READY_CHECKER") == "0",
        help="start no pyright ahead of need (one waits, unbound, for the next workspace or "
        "restart: ~100 MB, and the first check does not pay the server's start)",
    )
    parser.add_argument(
        "--detach", action="store_true", help="fork into the background (used by auto-start)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("pygls").setLevel(logging.ERROR)
    # A daemon started from a repository's scripts inherits what they set for node: Yarn PnP's
    # NODE_OPTIONS=--require <repo>/.pnp.cjs, a NODE_PATH into its tree. Every node child
    # (pyright, TypeScript, cold and warm, for every workspace) would load that code.
    for variable in ("NODE_OPTIONS", "NODE_PATH"):
        os.environ.pop(variable, None)
    # Its PATH too: node_modules/.bin, an activated venv's bin (backends.node).
    own_bin = os.path.dirname(sys.executable)
    os.environ["PATH"] = sanitized_path(os.environ.get("PATH", ""), own_bin)
    paths = runtime_paths()
    # Before forking, so a launcher that cannot work says why in its exit status and output.
    try:
        ensure_private_dir(paths.runtime_dir)
    except OSError as exc:
        log.error("cannot start: the runtime directory %s: %s", paths.runtime_dir, exc)
        return 1
    try:
        check_state_dir(paths.state_dir)
    except StateDirUnwritable as exc:
        log.error("cannot start: %s", exc)
        return 1
    if args.detach and os.fork() > 0:
        os._exit(0)  # the launcher returns at once; the daemon is reparented to init
    with paths.lock_file.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("another prewrite daemon holds %s; exiting", paths.lock_file)
            return 0
        daemon = Daemon(
            paths, args.idle_timeout, max(1, args.max_warm), args.editor_spare_idle,
            max(0.0, args.planning_budget), not args.no_ready_checker,
        )  # fmt: skip
        asyncio.run(daemon.run())
    return 0
