"""``interpreter_query``: pyright is told an interpreter's ``sys.executable`` only when running
that executable answers exactly as the interpreter did (real interpreters, real wrapper scripts).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import InvalidWorkspace
from prewrite_daemon import interpreter_query
from prewrite_daemon.interpreter_query import ask_interpreter, prefetch, take_prefetched

if TYPE_CHECKING:
    from pathlib import Path


def _wrapper(tmp_path: Path, name: str, body: str) -> str:
    script = tmp_path / name
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_an_interpreter_that_is_its_own_executable_is_told_as_given() -> None:
    answer = ask_interpreter(sys.executable)
    assert answer.for_pyright == sys.executable
    assert answer.site_dirs  # this venv's site-packages at least
    assert all(d.name in ("site-packages", "dist-packages") for d in answer.site_dirs)


def test_a_wrapper_that_only_execs_is_replaced_by_the_executable(tmp_path: Path) -> None:
    shim = _wrapper(tmp_path, "python3", f'exec "{sys.executable}" "$@"')
    answer = ask_interpreter(shim)
    assert answer.executable == sys.executable
    assert answer.for_pyright == sys.executable
    assert answer.site_dirs == ask_interpreter(sys.executable).site_dirs


def test_a_wrapper_that_changes_the_path_keeps_the_wrapper(tmp_path: Path) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    shim = _wrapper(tmp_path, "python3", f'PYTHONPATH="{extra}" exec "{sys.executable}" "$@"')
    answer = ask_interpreter(shim)
    assert answer.executable == sys.executable  # the same binary in the end ...
    assert answer.for_pyright == shim  # ... but it sees another path: told as given


def test_a_wrapper_whose_environment_differs_only_for_it_keeps_the_wrapper(
    tmp_path: Path,
) -> None:
    user_base = tmp_path / "userbase"
    shim = _wrapper(
        tmp_path, "python3", f'PYTHONUSERBASE="{user_base}" exec "{sys.executable}" "$@"'
    )
    answer = ask_interpreter(shim)
    # the user site moves with PYTHONUSERBASE: the answers differ, so no replacement
    assert answer.for_pyright == shim
    assert os.path.basename(answer.for_pyright) == "python3"


def test_something_that_is_not_python_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidWorkspace, match=r"not a Python interpreter|cannot run"):
        ask_interpreter(_wrapper(tmp_path, "python3", "echo hello"))


def test_an_answer_asked_ahead_is_taken_once_and_only_while_fresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prefetch(sys.executable)
    first = take_prefetched(sys.executable)
    assert first is not None
    assert first.for_pyright == sys.executable
    assert take_prefetched(sys.executable) is None  # once: the next workspace asks afresh
    prefetch(sys.executable)
    monkeypatch.setattr(interpreter_query, "FRESH_S", -1.0)
    assert take_prefetched(sys.executable) is None  # too old: asked again


def test_asking_ahead_an_interpreter_that_fails_leaves_nothing(tmp_path: Path) -> None:
    broken = _wrapper(tmp_path, "python3", "exit 3")
    prefetch(broken)
    assert take_prefetched(broken) is None
