"""The Protocols the checker can see outside the workspace, per environment, computed lazily,
off the daemon, and kept on disk.

The planner (``names.deps``) asks ``LibraryProtocols.get()`` for the member names of every
Protocol outside the workspace, in the trees ``roots`` names for an environment. The
answer keeps each bundled stub module's part apart, with what every library file imports, so a
plan counts only the stubs something it sees imports (``protocols.names.reachable_protocols``).

- **Lazy**: ``get()`` never blocks. ``prefetch()`` (at a graph's creation) only asks the disk
  caches; the scan itself starts at the first ``get()``, i.e. when a member change needs the
  answer. Until an answer exists ``get()`` is None and the planner takes every member change
  as its class's (sound, slower).
- **Off the daemon**: a ``protocols.scan`` process of the daemon's own interpreter, isolated
  (``-I``, cwd ``/``), at a lower priority, killed at ``SCAN_TIMEOUT_S``; a thread of ours waits
  for it, so neither the event loop nor the GIL carries the parsing.
- **Kept**: the scan keeps typeshed's facts per pyright version and each tree's per listing
  stamp (a package installed, removed or edited in place moves it) under the state dir.
- **Ended with the daemon**: ``stop_scans`` kills the scans under way when the daemon stops,
  and a scan whose parent is gone (the daemon killed) stops by itself within a second.
- **Behind the requests**: paused (SIGSTOP) while the daemon serves a request, resumed when it
  serves none (``pause_scans``): the first check of a workspace must not share two cores with a
  scan of every installed package.
- **Failures**: logged; a failed scan is retried once per environment (by a later ``get()``),
  then ``get()`` stays None. Never raised.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import itertools
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.languages.python.protocols.answer import answer_from_json
from prewrite_daemon.languages.python.protocols.files import read_bounded
from prewrite_daemon.languages.python.protocols.scan import FORMAT, MISS

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from prewrite_daemon.languages.python.protocols.names import LibraryProtocolSet

log = logging.getLogger(__name__)

SCAN_TIMEOUT_S = 600.0  # a first scan of a large venv at low priority on a busy machine
LOOKUP_TIMEOUT_S = 60.0  # listing and stamping the trees, reading the caches
MAX_ATTEMPTS = 2  # per environment: a failed scan is retried once
PAUSE_POLL_S = 0.5  # how often a waiting scan's clock asks whether it is paused
_MAX_ANSWER = 64 * 1024 * 1024
_failures: dict[str, int] = {}  # environment key -> failed scans, for the daemon's lifetime
_failures_lock = threading.Lock()
_runs = itertools.count()
_live: set[subprocess.Popen[bytes]] = set()  # scans under way, killed when the daemon stops
_live_lock = threading.Lock()
_paused = False  # requests are under way: scans wait (``pause_scans``)


def stop_scans() -> None:
    """Kill every scan under way (the daemon is stopping: nobody will read an answer)."""
    _signal_scans(signal.SIGKILL)


def pause_scans() -> None:
    """Stop every scan's process (SIGSTOP) while requests are under way: on a machine of few
    cores, the checker a request waits for gets them. Scans started meanwhile start stopped.
    If the daemon dies, its scans' process groups are orphaned and the kernel sends them
    SIGHUP and SIGCONT: they end."""
    global _paused
    with _live_lock:
        _paused = True
    _signal_scans(signal.SIGSTOP)


def resume_scans() -> None:
    global _paused
    with _live_lock:
        _paused = False
    _signal_scans(signal.SIGCONT)


def _signal_scans(signum: int) -> None:
    with _live_lock:
        procs = list(_live)
    for proc in procs:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signum)  # its own process group: the scan spawns nothing


class ScanState(enum.Enum):
    IDLE = "idle"  # nothing asked yet, or the caches did not answer
    LOOKING = "looking"  # asking the caches
    SCANNING = "scanning"
    READY = "ready"
    FAILED = "failed"


class ScanFailed(Exception):
    """The scan process did not answer (exit status, deadline, unreadable answer)."""


@dataclass(frozen=True)
class ScanStatistics:
    state: ScanState
    runs: int  # processes started
    seconds: float | None  # of the run that answered
    error: str | None


class LibraryProtocols:
    """The answer for one environment (see the module doc). ``levels``: the request's levels
    (``protocols.scan``), as ``roots.for_environment`` builds them."""

    def __init__(
        self, cache_dir: Path, levels: list[dict[str, Any]], timeout_s: float = SCAN_TIMEOUT_S
    ) -> None:
        self.cache_dir = cache_dir
        self.levels = levels
        self.timeout_s = timeout_s
        # The retry budget's key: the levels, and the trees' directory stamps (an install moves
        # its site dir's), so a new environment gets its own attempts
        stamps = [_mtime(r) for level in levels for r in level["roots"]]
        key = json.dumps([levels, stamps], sort_keys=True).encode()
        self.key = hashlib.sha256(key).hexdigest()[:20]
        self._state = ScanState.IDLE
        self._wanted = False  # get() was called: a lookup that misses goes on to scan
        self._result: LibraryProtocolSet | None = None
        self._runs = 0
        self._seconds: float | None = None
        self._error: str | None = None
        self._changed = threading.Condition()

    def get(self) -> LibraryProtocolSet | None:
        """The answer, or None while there is none (starting the scan if none runs)."""
        with self._changed:
            if self._result is None:
                self._wanted = True
                self._start_locked(lookup=False)
            return self._result

    def prefetch(self) -> None:
        """Ask the disk caches for the answer (no scan: a miss waits for ``get()``)."""
        with self._changed:
            self._start_locked(lookup=True)

    def wait(self, timeout: float, scan: bool = True) -> LibraryProtocolSet | None:
        """``get()``, waiting up to ``timeout`` seconds for the run under way to end (tests, the
        bench); ``scan`` False: start none (after ``prefetch``, whether the caches answered)."""
        deadline = time.monotonic() + timeout
        if scan:
            self.get()
        with self._changed:
            busy = (ScanState.LOOKING, ScanState.SCANNING)
            while self._state in busy and (left := deadline - time.monotonic()) > 0:
                self._changed.wait(left)
            return self._result

    def statistics(self) -> ScanStatistics:
        with self._changed:
            return ScanStatistics(self._state, self._runs, self._seconds, self._error)

    def _start_locked(self, lookup: bool) -> None:
        if self._state is ScanState.FAILED and not lookup and _attempts(self.key) < MAX_ATTEMPTS:
            self._state = ScanState.IDLE  # the one retry
        if self._state is not ScanState.IDLE:
            return
        self._state = ScanState.LOOKING if lookup else ScanState.SCANNING
        self._runs += 1
        name = f"prewrite-protocols-{self.key[:8]}"
        threading.Thread(target=self._run, args=(lookup,), name=name, daemon=True).start()

    def _run(self, lookup: bool) -> None:
        started = time.monotonic()
        try:
            found = self._scan(lookup)
        except (ScanFailed, OSError) as exc:
            log.warning("the Protocol scan of %s failed: %s", self.key, exc)
            with _failures_lock:
                _failures[self.key] = _failures.get(self.key, 0) + 1
            with self._changed:
                self._state, self._error = ScanState.FAILED, str(exc)
                self._changed.notify_all()
            return
        with self._changed:
            if found is not None:
                self._result, self._state = found, ScanState.READY
                self._seconds = time.monotonic() - started
            else:
                self._state = ScanState.IDLE  # the caches did not answer
                if self._wanted:
                    self._start_locked(lookup=False)
            self._changed.notify_all()

    def _scan(self, lookup: bool) -> LibraryProtocolSet | None:
        """One scan process: its answer, or None when ``lookup`` and the caches do not have it."""
        out = self.cache_dir / f"out-{os.getpid()}-{next(_runs)}.json"
        timeout = LOOKUP_TIMEOUT_S if lookup else self.timeout_s
        request = {"format": FORMAT, "seconds": timeout + 5, "cache_dir": str(self.cache_dir)}
        request |= {"out": str(out), "lookup": lookup, "levels": self.levels}
        self.cache_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        argv = [sys.executable, "-I", "-m", "prewrite_daemon.languages.python.protocols.scan"]
        with subprocess.Popen(
            argv, cwd="/", stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, process_group=0,  # the daemon's session (see pause)
        ) as proc:  # fmt: skip
            with _live_lock:
                _live.add(proc)
                if _paused:
                    with contextlib.suppress(OSError):
                        os.killpg(proc.pid, signal.SIGSTOP)
            try:
                err = _communicate(proc, json.dumps(request).encode(), timeout)
            finally:
                with _live_lock:
                    _live.discard(proc)
        try:
            if proc.returncode == MISS and lookup:
                return None
            if proc.returncode != 0:
                tail = err.decode(errors="replace")[-2000:]
                raise ScanFailed(f"exit status {proc.returncode}: {tail}")
            return read_answer(out)
        finally:
            with contextlib.suppress(OSError):
                out.unlink()


def _communicate(proc: subprocess.Popen[bytes], request: bytes, timeout: float) -> bytes:
    """The scan's stderr once it exits; ``timeout`` counts only the time it was not paused
    (a scan stopped while requests are served must not run out of time for it)."""
    left, data = timeout, request
    while True:
        began = time.monotonic()
        try:
            return proc.communicate(data, timeout=min(left, PAUSE_POLL_S))[1]
        except subprocess.TimeoutExpired:
            data = None  # sent once: later calls go on reading
            with _live_lock:
                if not _paused:
                    left -= time.monotonic() - began
            if left > 0:
                continue
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)  # the group: the scan spawns nothing
            proc.communicate()  # killed: drains and closes the pipes
            raise ScanFailed(f"it took longer than {timeout:.0f}s") from None


def read_answer(path: Path) -> LibraryProtocolSet:
    data = read_bounded(str(path), _MAX_ANSWER)
    if data is None:
        raise ScanFailed(f"no answer in {path}")
    try:
        return answer_from_json(cast("Mapping[str, Any]", json.loads(data)))
    except (ValueError, KeyError, TypeError) as exc:
        raise ScanFailed(f"an unreadable answer in {path}: {exc}") from exc


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _attempts(key: str) -> int:
    with _failures_lock:
        return _failures.get(key, 0)
