"""``interpreter_query``: what an interpreter imports from, asked as pyright asks it, once per new
workspace (real interpreters, real wrapper scripts)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import InvalidWorkspace
from prewrite_daemon.languages.python import interpreter_query
from prewrite_daemon.languages.python.interpreter_query import (
    ask_interpreter,
    prefetch,
    take_prefetched,
)

if TYPE_CHECKING:
    from pathlib import Path


def _wrapper(tmp_path: Path, name: str, body: str) -> str:
    script = tmp_path / name
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_the_package_directories_of_an_interpreter() -> None:
    answer = ask_interpreter(sys.executable)
    assert answer.executable == sys.executable
    assert answer.site_dirs  # this venv's site-packages at least
    assert all(d.name in ("site-packages", "dist-packages") for d in answer.site_dirs)


def test_asked_as_pyright_asks_it_not_isolated(tmp_path: Path) -> None:
    """A wrapper's PYTHONPATH counts (pyright's own run sees it), and the wrapper is what is
    asked: the daemon never swaps it for the executable it ends in."""
    extra = tmp_path / "extra" / "site-packages"
    extra.mkdir(parents=True)
    shim = _wrapper(tmp_path, "python3", f'PYTHONPATH="{extra}" exec "{sys.executable}" "$@"')
    answer = ask_interpreter(shim)
    assert answer.python == shim
    assert answer.executable == sys.executable
    assert extra in answer.site_dirs
    assert extra not in ask_interpreter(sys.executable).site_dirs


def test_something_that_is_not_python_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidWorkspace, match=r"not a Python interpreter|cannot run"):
        ask_interpreter(_wrapper(tmp_path, "python3", "echo hello"))


def test_an_answer_asked_ahead_is_taken_once_and_only_while_fresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prefetch(sys.executable)
    first = take_prefetched(sys.executable)
    assert first is not None
    assert first.python == sys.executable
    assert take_prefetched(sys.executable) is None  # once: the next workspace asks afresh
    prefetch(sys.executable)
    monkeypatch.setattr(interpreter_query, "FRESH_S", -1.0)
    assert take_prefetched(sys.executable) is None  # too old: asked again


def test_asking_ahead_an_interpreter_that_fails_leaves_nothing(tmp_path: Path) -> None:
    broken = _wrapper(tmp_path, "python3", "exit 3")
    prefetch(broken)
    assert take_prefetched(broken) is None
