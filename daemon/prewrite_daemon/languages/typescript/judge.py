"""The node worker answering whether two TypeScript texts are the same program (``repair.py``).

It runs ``same_program.cjs`` with prewrite's pinned TypeScript (``typescript/pinned.py``: its own
copy, never the workspace's). One worker per daemon, started on first use, asked one request at
a time (a lock: the planner calls from threads), killed on a timeout (the next request starts
another) and at exit. Every failure — no node, no pinned TypeScript, a worker that fails, times
out (``TIMEOUT_S``) or answers anything but "same" — answers False.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.child import signal_group
from prewrite_daemon.backends.node import node_executable
from prewrite_daemon.languages.typescript.pinned import pinned_typescript

if TYPE_CHECKING:
    from collections.abc import Sequence

TIMEOUT_S = 10.0  # per request, then the worker is killed and the answer is "not the same"
_SCRIPT = Path(__file__).with_name("same_program.cjs")

Blank = tuple[int, int, str]  # a blanked word of a repaired text: start, end (code points), word


def encoded_ranges(text: str, blanked: Sequence[Blank], encoding: str) -> tuple[Blank, ...]:
    """``blanked`` (code point offsets of ``text``, in order) in code units of ``text`` encoded
    as ``encoding``: ``"utf-8"`` bytes for tree-sitter, ``"utf-16-le"`` for TypeScript (which
    counts positions in a JavaScript string)."""
    if text.isascii():
        return tuple(blanked)
    width = 2 if encoding.startswith("utf-16") else 1
    out: list[Blank] = []
    at = units = 0
    for start, end, word in blanked:
        units += len(text[at:start].encode(encoding, "surrogatepass")) // width
        out.append((units, units + end - start, word))  # the word itself is ASCII
        at = start
    return tuple(out)


class Judge:
    """The node worker running ``same_program.cjs``; every failure answers False."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._unavailable = False  # no node or no pinned TypeScript: never retried
        self._next_id = 0
        atexit.register(self.stop)

    def same(self, original: str, fixed: str, suffix: str, blanked: Sequence[Blank] = ()) -> bool:
        """Whether ``fixed`` is ``original`` read as the same program but for the type
        parameter modifiers ``blanked`` (ranges of ``fixed``, in order)."""
        with self._lock:
            proc = self._proc or self._start()
            if proc is None:
                return False
            self._next_id += 1
            request = {"id": self._next_id, "suffix": suffix, "original": original}
            request |= {"repaired": fixed, "blanked": encoded_ranges(fixed, blanked, "utf-16-le")}
            try:
                answer = _exchange(proc, json.dumps(request).encode() + b"\n", TIMEOUT_S)
                data: object = json.loads(answer)
            except (OSError, ValueError, TimeoutError):
                self._stop_locked()
                return False
            reply = cast("dict[str, object]", data) if isinstance(data, dict) else {}
            return reply.get("id") == self._next_id and reply.get("same") is True

    def _start(self) -> subprocess.Popen[bytes] | None:
        if self._unavailable:
            return None
        ts = pinned_typescript()
        try:
            node = node_executable()
        except BackendFailed:
            node = None
        if ts is None or node is None or ts.native:
            self._unavailable = True
            return None
        env = {k: v for k, v in os.environ.items() if k not in ("NODE_OPTIONS", "NODE_PATH")}
        try:
            self._proc = subprocess.Popen(
                [node, str(_SCRIPT), str(ts.package)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=str(_SCRIPT.parent),
                env=env,
                start_new_session=True,
            )
        except OSError:
            self._unavailable = True
            return None
        return self._proc

    def stop(self) -> None:
        """Kill the worker first (a request in flight then fails at once), then reap it."""
        proc = self._proc
        if proc is not None:
            signal_group(proc.pid, signal.SIGKILL)
        with self._lock:
            self._stop_locked()

    def _stop_locked(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        signal_group(proc.pid, signal.SIGKILL)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()


def _exchange(proc: subprocess.Popen[bytes], request: bytes, timeout: float) -> bytes:
    """Write ``request`` and read one line back within ``timeout`` seconds (no blocking call:
    a stuck worker cannot hang the caller)."""
    assert proc.stdin is not None
    assert proc.stdout is not None
    out, inp = proc.stdin.fileno(), proc.stdout.fileno()
    os.set_blocking(out, False)
    deadline = time.monotonic() + timeout
    pending, received = memoryview(request), bytearray()
    while b"\n" not in received:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        readable, writable, _ = select.select([inp], [out] if pending else [], [], left)
        if writable:
            pending = pending[os.write(out, pending) :]
        if readable:
            chunk = os.read(inp, 1 << 16)
            if not chunk:
                raise OSError("the worker exited")
            received += chunk
    return bytes(received)


JUDGE = Judge()
