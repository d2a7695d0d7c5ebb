"""``parse_child``: a large Python text is parsed in a child process, with the same answer the
daemon's own parse gives; the planner never parses it (``parse_cache``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.summary import summarize
from prewrite_daemon.languages.python.syntax import parse_child
from prewrite_daemon.languages.python.syntax.parse_cache import parse_private

if TYPE_CHECKING:
    import pytest

FILLER = "x = 1\n" * (parse_child.IN_PROCESS_LIMIT // 6 + 1)


def not_here(text: str) -> parse_child.SyntaxIssue | None:
    raise AssertionError("parsed in the daemon")


def test_a_large_text_is_answered_by_the_child_as_the_daemon_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = FILLER + "def f(:\n    pass\n"
    expected = parse_child.syntax_error_here(broken)
    assert expected is not None
    monkeypatch.setattr(parse_child, "syntax_error_here", not_here)  # the child has its own
    assert parse_child.syntax_error(broken) == expected
    assert parse_child.syntax_error(FILLER) is None
    assert parse_child.syntax_error(FILLER + "type Alias[T] = list[T]\n") is None  # PEP 695


def test_a_small_text_is_parsed_here() -> None:
    assert parse_child.syntax_error("def f(:\n") == parse_child.syntax_error_here("def f(:\n")
    assert parse_child.syntax_error("x = 1\n") is None


def test_a_child_that_cannot_answer_claims_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker reports syntax errors too: a failed child leaves the verdict to it."""
    monkeypatch.setattr(parse_child.sys, "executable", "/bin/false")
    assert parse_child.syntax_error(FILLER + "def f(:\n") is None


def test_the_planner_reads_a_large_text_as_one_that_does_not_parse() -> None:
    text = "import os\nfrom pkg import thing\n" + FILLER
    assert parse_private(text) is None
    summary, regions = summarize("big.py", text)
    assert regions is None
    assert summary.opaque
    assert {"os", "pkg"} <= summary.imports


def test_nesting_deeper_than_the_parser_goes_claims_no_error() -> None:
    """``ast`` gives up (RecursionError) where the checker may not: no wrong red, no crash."""
    assert parse_child.syntax_error("x = (" + "a + " * 20_000 + "a)\n") is None


def test_a_large_texts_answer_is_kept_but_a_failed_childs_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The parse rung and the format rung's check ask about the same text: one child each."""
    monkeypatch.setattr(parse_child, "_answers", type(parse_child._answers)())  # pyright: ignore[reportPrivateUsage]
    calls: list[int] = []
    child = parse_child._in_child  # pyright: ignore[reportPrivateUsage]

    def counted(text: str) -> parse_child.SyntaxIssue | None:
        calls.append(len(text))
        return child(text)

    monkeypatch.setattr(parse_child, "_in_child", counted)
    broken = FILLER + "def f(:\n"
    first = parse_child.syntax_error(broken)
    assert first is not None
    assert parse_child.syntax_error(broken) == first
    assert len(calls) == 1
    with monkeypatch.context() as failing:
        failing.setattr(parse_child.sys, "executable", "/bin/false")  # the child answers nothing
        assert parse_child.syntax_error(FILLER + "y = 2\n") is None
    assert parse_child.syntax_error(FILLER + "y = 2\n") is None
    assert len(calls) == 3  # the failed answer was asked again
