"""A TypeScript text tree-sitter misreads, repaired when TypeScript's parser proves it the same.

tree-sitter-typescript (0.23.2) reads a type literal's generic call signatures separated by
line breaks only — ``<A, B>(a: A): B`` then, on the next line, ``<A>(self: A): A`` — as ``B<A>``
(type arguments); TypeScript does not (``parseTypeArguments`` is not attempted there). The file
gets an ERROR node and is UNKNOWN (it "reaches everything"): sound, but every check touching it
re-checks the whole program. The modelled fragment:

- **Repair** (``candidate``): a ``;`` inserted before every ``<`` that is the first non-blank
  character of a line and follows (past blanks, block comments and whole-line ``//`` comments,
  a heuristic) something that can end a type: a name, a literal, ``)``, ``]``, ``}`` or ``>``.
  Only for ``.ts``/``.mts``/``.cts`` (and their declaration forms) — never ``.tsx`` or JavaScript,
  whose grammar is another — whose tree has an error, under ``MAX_CHARS``; the caller keeps the
  repaired text only if tree-sitter parses it without an error.
- **Proof** (``same_program``): prewrite's pinned TypeScript (``typescript/pinned.py``: its own
  copy, never the workspace's; ``same_program.cjs``) parses both texts; they are the same program
  only if neither has a parse diagnostic, the two trees are equal node by node (kind, flags,
  every non-positional primitive property, leaf source text, shape; the end-of-file token
  included) and the comments are equal in text and order. A separator ``;`` in a type literal
  is no node, so a right repair changes nothing; one landing in a comment, a string or template,
  or changing how an expression continues (``a\\n< b``) changes a comment, a leaf or the shape.
- **Why sound**: the repaired text is used only to read the file's facts and its skeleton with
  tree-sitter (``syntax.read_module``, ``interface.skeleton``), never to type-check (the original
  is what is checked); TypeScript reads it as the same tree and the same comments as the
  original, so what is read of it holds of the original. JSDoc is not parsed: a ``;`` after a
  JSDoc block moves which node it documents, which no fact or skeleton of a ``.ts`` file reads
  (in TypeScript files JSDoc declares no type). Two repaired skeletons are compared as any two
  skeletons; a repaired with an unrepaired one can only differ (a conservative "changed").
  Anything else — no node, no pinned TypeScript, a worker that fails, times out (``TIMEOUT_S``)
  or answers anything but "same" — leaves the file UNKNOWN, as without the repair.

One worker per daemon, started on first use, asked one request at a time (a lock: the planner
calls from threads), killed on a timeout (the next request starts another) and at exit.
Verdicts are cached by a digest of the text (``_VERDICTS`` entries, least recently used out).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import select
import signal
import subprocess
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, cast

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.child import signal_group
from prewrite_daemon.backends.node import node_executable
from prewrite_daemon.languages.typescript.pinned import pinned_typescript

if TYPE_CHECKING:
    from collections.abc import Callable

MAX_CHARS = 1024 * 1024  # larger texts are not repaired
TIMEOUT_S = 10.0  # per request, then the worker is killed and the answer is "not the same"
_VERDICTS = 1024
_REPAIRABLE = (".d.ts", ".d.mts", ".d.cts", ".ts", ".mts", ".cts")
_SCRIPT = Path(__file__).with_name("same_program.cjs")
_LEADING_LT = re.compile(r"\n[ \t]*<")
_ENDS_TYPE = re.compile(r"[\w$)\]}>'\"`]")


def repair_suffix(rel: str) -> str | None:
    """The suffix ``rel`` is parsed as when it may be repaired; None for ``.tsx``, JavaScript
    and anything else."""
    return next((s for s in _REPAIRABLE if rel.endswith(s)), None)


def repaired(text: str, suffix: str, parses: Callable[[str], bool]) -> str | None:
    """The repaired ``text`` of a file with ``suffix`` whose tree-sitter tree has an error, if
    ``parses`` (tree-sitter reads it without an error) and TypeScript proves it the same
    program; else None (the caller keeps the original and its error)."""
    if len(text) > MAX_CHARS or suffix not in _REPAIRABLE:
        return None
    fixed = candidate(text)
    if fixed is None or not parses(fixed):
        return None
    key = hashlib.blake2b(f"{suffix}\0{text}".encode("utf-8", "surrogatepass")).digest()
    with _CACHE_LOCK:
        verdict = _CACHE.get(key)
        if verdict is not None:
            _CACHE.move_to_end(key)
    if verdict is None:
        verdict = _JUDGE.same(text, fixed, suffix)
        with _CACHE_LOCK:
            _CACHE[key] = verdict
            while len(_CACHE) > _VERDICTS:
                _CACHE.popitem(last=False)
    return fixed if verdict else None


def candidate(text: str) -> str | None:
    """``text`` with ``;`` before each line-leading ``<`` that follows what can end a type;
    None when there is none."""
    parts: list[str] = []
    last = 0
    for match in _LEADING_LT.finditer(text):
        at = match.end() - 1
        if _ENDS_TYPE.fullmatch(_previous_code_char(text, match.start()) or " "):
            parts += [text[last:at], ";"]
            last = at
    return "".join([*parts, text[last:]]) if parts else None


def _previous_code_char(text: str, end: int) -> str:
    """The last character before ``end`` past blanks, block comments ending there and
    whole-line ``//`` comments (a heuristic: the proof, not this, decides)."""
    while True:
        while end > 0 and text[end - 1] in " \t\r\n":
            end -= 1
        if end >= 2 and text.startswith("*/", end - 2):  # ``end`` only ever decreases
            end = text.rfind("/*", 0, end - 2)
            if end < 0:
                return ""
            continue
        line = text.rfind("\n", 0, end) + 1
        if text[line:end].lstrip().startswith("//"):
            end = line
            continue
        return text[end - 1] if end > 0 else ""


def same_program(original: str, fixed: str, suffix: str) -> bool:
    """Whether prewrite's pinned TypeScript parses both texts to the same tree and comments
    (uncached; False on any failure)."""
    return _JUDGE.same(original, fixed, suffix)


class _Judge:
    """The node worker running ``same_program.cjs``; every failure answers False."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._unavailable = False  # no node or no pinned TypeScript: never retried
        self._next_id = 0
        atexit.register(self.stop)

    def same(self, original: str, fixed: str, suffix: str) -> bool:
        with self._lock:
            proc = self._proc or self._start()
            if proc is None:
                return False
            self._next_id += 1
            request = {"id": self._next_id, "suffix": suffix, "original": original}
            request["repaired"] = fixed
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


_CACHE: OrderedDict[bytes, bool] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_JUDGE = _Judge()
