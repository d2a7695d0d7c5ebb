"""One supervised checker child: spawned in its own process group, watched, stopped in stages.

A backend owns a ``Child`` and keeps its own ``state``: the child reports a loss (it exited, its
output could not be read) through ``on_lost``, and the backend's state decides whether that was
expected (a stop) or a failure. ``gone`` wakes every call awaiting the child through ``wait``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.spawned_ahead import AdoptedProcess, adopt

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Coroutine
    from pathlib import Path

    ReadLoop: TypeAlias = Callable[[asyncio.StreamReader], Coroutine[Any, Any, None]]

log = logging.getLogger(__name__)
T = TypeVar("T")

REAP_S = 5.0
STDERR_LOG_CAP = 4 * 1024 * 1024  # per child: its stderr logged beyond this is dropped


def signal_group(pid: int, sig: signal.Signals) -> None:
    """Signal the process group led by ``pid`` (every child runs in its own), if it still exists."""
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


class Child:
    """A child process over stdio, named in errors and logs as ``name`` ("tsserver").

    ``on_lost(reason)`` is the owner's hook, called at every loss: it updates the owner's state
    and returns whether that was a failure (an exit then is logged as a warning).
    """

    def __init__(self, name: str, on_lost: Callable[[str], bool]) -> None:
        self.name = name
        self.gone = asyncio.Event()  # the child exited or became unusable: wake pending calls
        self.lost_reason = "it has not been started"
        self._on_lost = on_lost
        self._proc: asyncio.subprocess.Process | AdoptedProcess | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def alive(self) -> bool:
        """Spawned and not yet exited (the exit watcher may not have run yet)."""
        return self._proc is not None and self._proc.returncode is None

    async def spawn(
        self, argv: list[str], cwd: Path, env: dict[str, str] | None, read: ReadLoop
    ) -> asyncio.StreamWriter:
        """Start the child (or adopt the same one spawned ahead, ``backends.spawned_ahead``),
        ``read`` its stdout, drain its stderr, watch its exit; its stdin."""
        try:
            proc = await adopt(argv, cwd, env) or await asyncio.create_subprocess_exec(
                *argv, cwd=cwd, env=env, start_new_session=True,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
        except OSError as exc:
            raise BackendFailed(f"cannot start {argv[0]}: {exc}") from exc
        self._proc = proc
        assert proc.stdin
        assert proc.stdout
        assert proc.stderr
        self._tasks = [
            asyncio.create_task(read(proc.stdout)),
            asyncio.create_task(self._drain_stderr(proc.stderr)),
            asyncio.create_task(self._watch_exit(proc)),
        ]
        return proc.stdin

    def lose(self, reason: str) -> bool:
        """The child exited or is unusable: wake every pending call now and kill its group.

        Whether that was a failure is the owner's ``on_lost`` answer, returned.
        """
        self.lost_reason = reason
        failed = self._on_lost(reason)
        self.gone.set()
        if self._proc is not None and self._proc.returncode is None:
            signal_group(self._proc.pid, signal.SIGKILL)
        return failed

    def notice_exit(self) -> None:
        """Lose the child now if it has exited though its exit watcher has not said so yet (the
        watcher runs on the event loop's schedule): a caller about to hand it work should not
        learn it from a failed call. Nothing is reaped here; the watcher still does that."""
        proc = self._proc
        if proc is None or proc.returncode is not None or self.gone.is_set():
            return
        try:
            exited = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:  # reaped already: the watcher's report is on its way
            exited = True
        if exited:
            self.lose("it exited")

    async def wait(self, awaitable: Awaitable[T], timeout_s: float, what: str) -> T:
        """Await ``awaitable`` unless the child goes first or the deadline passes.

        A failure while the child is gone is reported once it has really exited.
        """
        task = asyncio.ensure_future(awaitable)
        gone = asyncio.ensure_future(self.gone.wait())
        try:
            done, _ = await asyncio.wait(
                {task, gone}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            gone.cancel()
            if not task.done():
                task.cancel()
        if task in done:
            if self.gone.is_set() and not task.cancelled() and task.exception() is not None:
                await self.reap()
            return task.result()
        if gone in done:
            await self.reap()
            raise BackendFailed(f"{self.name} failed ({self.lost_reason}) before {what}")
        raise CheckTimeout(f"no {what} from {self.name} within {timeout_s:.1f}s")

    async def reap(self, timeout_s: float = REAP_S) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), timeout_s)
        except TimeoutError:
            log.warning("%s pid %s not reaped within %.0fs", self.name, proc.pid, timeout_s)

    async def stop(self, graceful: Callable[[], Awaitable[None]] | None, grace_s: float) -> None:
        """Staged stop: ``graceful`` (the protocol's shutdown), SIGTERM, SIGKILL to the group;
        then the reader tasks are cancelled and any call still pending is woken.
        """
        proc = self._proc
        if proc is not None and proc.returncode is None:
            if graceful is not None:
                try:
                    await asyncio.wait_for(graceful(), grace_s)
                    await asyncio.wait_for(proc.wait(), grace_s)
                except (BackendFailed, CheckTimeout, TimeoutError, OSError):
                    pass
            for sig in (signal.SIGTERM, signal.SIGKILL):
                if proc.returncode is not None:
                    break
                signal_group(proc.pid, sig)
                try:
                    await asyncio.wait_for(proc.wait(), grace_s)
                except TimeoutError:
                    continue
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        if proc is not None and proc.stdout is not None:
            # A reader cancelled with its buffer full left the pipe paused: read it to its end
            # (the group is dead), so the transport closes now rather than warn at collection.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.stdout.read(), grace_s)
        if proc is not None and not self.gone.is_set():  # the exit watcher was cancelled first
            self.lose("it was stopped")

    async def _drain_stderr(self, stderr: asyncio.StreamReader) -> None:
        # Chunks, not readline: a line longer than the reader's limit must not stop the drain.
        # Drained to the end (a full pipe would stall the child), logged up to STDERR_LOG_CAP:
        # a child printing gigabytes must not fill the disk through the daemon's log.
        logged = 0
        while chunk := await stderr.read(65536):
            if logged >= STDERR_LOG_CAP:
                continue
            logged += len(chunk)
            for line in chunk.decode(errors="replace").splitlines():
                log.info("[%s stderr] %s", self.name, line)
            if logged >= STDERR_LOG_CAP:
                log.warning("[%s stderr] more than %d bytes: the rest is not logged",
                            self.name, STDERR_LOG_CAP)  # fmt: skip

    async def _watch_exit(self, proc: asyncio.subprocess.Process | AdoptedProcess) -> None:
        code = await proc.wait()
        if self.lose(f"it exited with code {code}"):
            log.warning("%s pid %s exited with code %s", self.name, proc.pid, code)
