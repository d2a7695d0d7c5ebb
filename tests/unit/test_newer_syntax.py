"""newer_syntax: a newer Python's constructs rewritten into the daemon's grammar, names kept."""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.syntax.newer import TYPE_PARAMS_MARK, downlevel, parse_newer


def names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


@pytest.mark.parametrize(
    ("source", "mentioned"),
    [
        ("type X[T: Bound = Default] = list[Y]\n", {"X", "Bound", "Default", "list", "Y"}),
        ("class C[T: B](Base, metaclass=M):\n    pass\n", {"B", "Base", "M"}),
        ("def f[**P, *Ts](x: A) -> R: ...\n", {"A", "R"}),
        ('s = f"{a["k"]!r:>{w}}" "plain" f"{b}"\n', {"a", "w", "b"}),
        ('s = t"{a} {f"{b}"}"\n', {"a", "b"}),
        ("try:\n    pass\nexcept E1, E2:\n    pass\n", {"E1", "E2"}),
        ("try:\n    pass\nexcept* E1, E2:\n    pass\n", {"E1", "E2"}),
    ],
)
def test_newer_constructs_keep_every_name_they_mention(source: str, mentioned: set[str]) -> None:
    tree = parse_newer(source)
    assert tree is not None
    assert mentioned <= names(tree)


def test_type_parameters_leave_a_marker_the_summary_reads() -> None:
    tree = parse_newer("class C[T]:\n    pass\n")
    assert tree is not None
    cls = tree.body[0]
    assert isinstance(cls, ast.ClassDef)
    assert any(TYPE_PARAMS_MARK in ast.dump(d) for d in cls.decorator_list)


def test_a_different_text_gives_a_different_tree() -> None:
    a = parse_newer("type X = int\n")
    b = parse_newer("type X = str\n")
    assert a is not None
    assert b is not None
    assert ast.dump(a) != ast.dump(b)


@pytest.mark.parametrize("source", ["x = (\n", "1 = x\n", "def f(:\n"])
def test_what_no_grammar_accepts_stays_refused(source: str) -> None:
    assert parse_newer(source) is None


def test_a_huge_text_is_not_read() -> None:
    assert downlevel("x = 1\n" * 2_000_000) is None
