"""Large Python texts parsed in a child process, so that no parse stalls the daemon.

``ast.parse`` is one C call that holds the interpreter lock from its start to its end: run in a
worker thread it still stops the event loop — ``status``, every other workspace — for as long as
it runs, about 0.2 s per MiB of ordinary code and over 2 s for a MiB of the densest (issue 20,
item 8). A text over ``IN_PROCESS_LIMIT`` characters is therefore parsed by
``python -I -m prewrite_daemon.languages.python.syntax.parse_child`` (the text on stdin, the
answer as JSON on stdout):
the daemon's thread waits on a pipe and holds nothing. Below the limit a parse takes under
~0.1 s of ordinary code, and the child's start (~60 ms) would cost more than it saves.

What the parse rung and the warm ruff server ask is only whether (and where) a text fails to
parse, which crosses a pipe in a few bytes. The planner needs the tree itself; it never parses a
large text at all (``parse_cache``: such a file is read as one that does not parse, and every
importer is kept — sound). A child that fails or runs past ``CHILD_TIMEOUT_S`` answers nothing
(``None``: no syntax error claimed), and the checker, which reports syntax errors too, judges.
"""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import sys
import threading
import warnings
from collections import OrderedDict
from pathlib import Path

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.process import ChildLimits, limited_argv
from prewrite_daemon.languages.python.syntax import locked
from prewrite_daemon.languages.python.syntax.newer import parse_newer

IN_PROCESS_LIMIT = 256 * 1024  # characters
CHILD_TIMEOUT_S = 120.0
# 8 MiB of the densest literal takes ``ast`` 4 GB: past 2 GiB the child answers nothing (the
# checker judges) rather than several children at once taking the machine's memory
CHILD_LIMITS = ChildLimits(address_space=2 * 1024**3, file_size=1024 * 1024)

log = logging.getLogger(__name__)

SyntaxIssue = tuple[int, int, str]  # (line, column, message), both 1-based
# The children's answers for the last large texts, by digest: the parse rung and then the warm
# ruff server's check of an unchanged text (``ruff_warm``) ask about the same texts in one
# check, and a child's parse of 1 MB costs ~0.7 s. Only answers a child gave are kept (a failed
# or timed-out child is asked again next time).
_ANSWERS_KEPT = 32
_answers: OrderedDict[bytes, SyntaxIssue | None] = OrderedDict()
_answers_lock = threading.Lock()


class _NoAnswer(Exception):
    """The child gave no answer (failed, timed out, printed no JSON)."""


def is_large(text: str) -> bool:
    """Whether ``text`` is parsed in a child rather than in the daemon."""
    return len(text) > IN_PROCESS_LIMIT


def syntax_error(text: str) -> SyntaxIssue | None:
    """The first syntax error of a Python ``text``, None when it parses (syntax newer than the
    daemon's Python included); a large text is parsed in a child (see the module). Blocking:
    call it from a worker thread."""
    if not is_large(text):
        return syntax_error_here(text)
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    with _answers_lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    try:
        found = _in_child(text)
    except _NoAnswer:
        return None  # no syntax error claimed: the checker judges
    with _answers_lock:
        _answers[key] = found
        while len(_answers) > _ANSWERS_KEPT:
            _answers.popitem(last=False)
    return found


def syntax_error_here(text: str) -> SyntaxIssue | None:
    """``syntax_error`` in this process, whatever the size."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. invalid escape sequences: not errors
            locked.parse(text)
    except SyntaxError as exc:
        if parse_newer(text) is not None:
            return None  # valid in a newer Python than the daemon's (the checker judges)
        return (exc.lineno or 1, exc.offset or 1, exc.msg)
    except ValueError as exc:  # null bytes
        return (1, 1, str(exc))
    except (RecursionError, MemoryError):
        return None  # deeper than this parser goes: no error claimed, the checker judges
    return None


def _in_child(text: str) -> SyntaxIssue | None:
    """The child's answer; ``_NoAnswer`` when it gives none."""
    try:
        done = subprocess.run(  # our own module, no shell
            limited_argv([sys.executable, "-I", "-m", __name__], Path("/"), CHILD_LIMITS),
            input=text.encode("utf-8", "surrogatepass"),
            capture_output=True,
            timeout=CHILD_TIMEOUT_S,
            cwd="/",
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired, BackendFailed) as exc:
        log.warning("parsing a text of %d characters in a child failed: %s", len(text), exc)
        raise _NoAnswer from exc
    if done.returncode != 0:
        log.warning("the parse child exited %d: %s", done.returncode, done.stderr[-2000:])
        raise _NoAnswer
    return _decoded(done.stdout)


def _decoded(out: bytes) -> SyntaxIssue | None:
    try:
        answer: object = json.loads(out)
    except ValueError:
        log.warning("the parse child's answer is not JSON: %r", out[:200])
        raise _NoAnswer from None
    match answer:
        case [int(line), int(column), str(message)]:
            return (line, column, message)
        case None:
            return None
        case _:
            log.warning("the parse child's answer is not an issue: %r", out[:200])
            raise _NoAnswer


def main() -> None:
    text = sys.stdin.buffer.read().decode("utf-8", "surrogatepass")
    json.dump(syntax_error_here(text), sys.stdout)


if __name__ == "__main__":
    main()
