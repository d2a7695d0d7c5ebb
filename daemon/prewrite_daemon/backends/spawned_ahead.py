"""Checker processes spawned before the daemon's own code has loaded, adopted once it has.

A daemon started for a first check spends ~0.5 s importing its code (pygls, lsprotocol, the
planner) and node spends ~0.3 s loading pyright's before either can work. The launcher
(``prewrite_daemon.launch``) spawns the ready pyright first, so both load at once on two
cores; when the ready checker starts (``backends.ready``) its ``Child`` adopts that process
instead of spawning its own.

- **Only the same process**: a process is adopted only by a spawn with exactly its command,
  working directory and environment; a spawn of its command that differs in either discards it
  (killed) and starts its own.
- **Nothing spoken early**: the process only loads until adopted; the LSP handshake is pygls's,
  after adoption, as for any child.
- **Never left behind**: one not adopted is killed at the daemon's stop (``discard``); it runs
  in its own session like every checker child, and reads EOF on stdin if the daemon dies.
- **Exits seen like any child's**: a ``pidfd`` on the process wakes the event loop when it
  exits (a kernel without pidfds gets no process spawned ahead).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

log = logging.getLogger(__name__)

Key = tuple[tuple[str, ...], str, tuple[tuple[str, str], ...]]


def _key(argv: list[str], cwd: Path, env: dict[str, str] | None) -> Key:
    return tuple(argv), str(cwd), tuple(sorted((env if env is not None else os.environ).items()))


@dataclass
class _Waiting:
    key: Key
    popen: subprocess.Popen[bytes]
    pidfd: int


_waiting: list[_Waiting] = []


def spawn_ahead(argv: list[str], cwd: Path, env: dict[str, str] | None) -> int | None:
    """Spawn ``argv`` to be adopted later; its pid, or None when it could not be (logged)."""
    try:
        cwd.mkdir(parents=True, exist_ok=True, mode=0o700)
        popen = subprocess.Popen(
            argv, cwd=cwd, env=env, start_new_session=True, bufsize=0,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
    except OSError as exc:
        log.info("nothing spawned ahead: %s", exc)
        return None
    try:
        pidfd = os.pidfd_open(popen.pid)
    except OSError as exc:  # no pidfds: the process could not be watched once adopted
        _kill(popen)
        log.info("nothing spawned ahead: %s", exc)
        return None
    _waiting.append(_Waiting(_key(argv, cwd, env), popen, pidfd))
    return popen.pid


async def adopt(
    argv: list[str], cwd: Path, env: dict[str, str] | None, limit: int = 2**16
) -> AdoptedProcess | None:
    """The process spawned ahead with exactly this command, directory and environment, still
    running, now driven from this event loop; None: there is none (one of the same command
    that differs in directory or environment is discarded)."""
    if not _waiting:  # every spawn asks: most find nothing, and need not build a key
        return None
    key = _key(argv, cwd, env)
    match = next((w for w in _waiting if w.key == key), None)
    if match is None:
        for stale in [w for w in _waiting if w.key[0] == key[0]]:  # meant for this, but differs
            log.warning("the process spawned ahead (pid %s) ran in another directory or "
                        "environment than its checker's: discarded", stale.popen.pid)  # fmt: skip
            _waiting.remove(stale)
            _discard(stale)
        return None
    _waiting.remove(match)
    if match.popen.poll() is not None:
        log.warning("the process spawned ahead (pid %s) had exited", match.popen.pid)
        _close(match)
        return None
    proc = await _connect(match, limit)
    log.info("adopted the process spawned ahead (pid %s)", proc.pid)
    return proc


def discard() -> None:
    """Kill every process spawned ahead that nobody adopted."""
    while _waiting:
        _discard(_waiting.pop())


def _discard(waiting: _Waiting) -> None:
    _kill(waiting.popen)
    _close(waiting)


def _kill(popen: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(popen.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    popen.wait()


def _close(waiting: _Waiting) -> None:
    os.close(waiting.pidfd)
    waiting.popen.wait()
    for pipe in (waiting.popen.stdin, waiting.popen.stdout, waiting.popen.stderr):
        if pipe is not None:
            pipe.close()


class AdoptedProcess:
    """A process spawned ahead, with the face of ``asyncio.subprocess.Process`` that a
    ``Child`` uses: ``pid``, ``returncode``, the three streams, ``wait``."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        pidfd: int,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
    ) -> None:
        self.pid = popen.pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self._popen = popen
        self._pidfd = pidfd
        loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[int] = loop.create_future()
        loop.add_reader(pidfd, self._on_exit)

    @property
    def returncode(self) -> int | None:
        return self._popen.returncode

    def _on_exit(self) -> None:
        asyncio.get_running_loop().remove_reader(self._pidfd)
        os.close(self._pidfd)
        code = self._popen.wait()  # it has exited: the pidfd is readable only then
        self.stdin.close()
        self._exited.set_result(code)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)


async def _connect(waiting: _Waiting, limit: int) -> AdoptedProcess:
    """The process's pipes as this event loop's streams."""
    loop = asyncio.get_running_loop()
    popen = waiting.popen
    assert popen.stdin
    assert popen.stdout
    assert popen.stderr
    readers: list[asyncio.StreamReader] = []
    for pipe in (popen.stdout, popen.stderr):
        reader = asyncio.StreamReader(limit=limit)
        await loop.connect_read_pipe(lambda r=reader: asyncio.StreamReaderProtocol(r), pipe)
        readers.append(reader)
    transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), popen.stdin
    )
    stdin = asyncio.StreamWriter(transport, protocol, None, loop)
    return AdoptedProcess(popen, waiting.pidfd, stdin, *readers)
