"""``syntax.locked.parse``: parses in several threads at once, with finalizers that switch
threads in the middle of one, never fail (CPython 3.11's ``SystemError: AST constructor
recursion depth mismatch``, which failed checks under eight agents)."""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path

from prewrite_daemon.languages.python.syntax import locked

SOURCE = (Path(locked.__file__).parent / "newer_cst.py").read_text()


class _SwitchesThreads:
    """Garbage whose finalizer sleeps: collected in the middle of a parse, it hands the
    interpreter to another thread."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        time.sleep(0.0005)


def _nested(depth: int) -> None:
    """Each thread parses at its own stack depth, which the AST constructor counts from."""
    if depth == 0:
        locked.parse(SOURCE)
    else:
        _nested(depth - 1)


def test_parses_in_threads_with_switching_finalizers() -> None:
    errors: list[BaseException] = []
    threshold = gc.get_threshold()
    gc.set_threshold(100)

    def work(depth: int) -> None:
        for _ in range(50):
            for _ in range(5):
                _SwitchesThreads()
            try:
                _nested(depth)
            except SystemError as exc:
                errors.append(exc)

    threads = [threading.Thread(target=work, args=(3 * i,)) for i in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        gc.set_threshold(*threshold)
    assert errors == []


def test_modes() -> None:
    assert isinstance(locked.parse("x = 1"), type(locked.parse("")))
    assert locked.parse("a + b", "eval").body is not None
    assert locked.parse("(int) -> str", "func_type").returns is not None
