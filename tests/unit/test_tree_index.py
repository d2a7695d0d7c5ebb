"""``node_facts.index_tree``: one walk gives each kind of node the rules read, in ``ast.walk``'s
order (the name graph's summaries depend on that order staying what it was with three walks)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from prewrite_daemon.languages.python.names.node_facts import index_tree

CORPUS = sorted((Path(__file__).resolve().parents[1] / "data" / "complexity").glob("*.py"))


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_the_index_holds_what_ast_walk_finds_in_its_order(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    index = index_tree(tree)
    walked = list(ast.walk(tree))
    assert index.imports == [n for n in walked if isinstance(n, ast.Import | ast.ImportFrom)]
    assert index.assigns == [n for n in walked if isinstance(n, ast.Assign | ast.AnnAssign)]
    assert index.classes == [n for n in walked if isinstance(n, ast.ClassDef)]
    assert index.imports  # each file of the corpus holds these kinds: the lists are compared
    assert index.assigns


def test_nested_nodes_are_found() -> None:
    tree = ast.parse(
        "def f():\n    class A:\n        import os\n        x: int = 1\n    return A\n"
    )
    index = index_tree(tree)
    assert [c.name for c in index.classes] == ["A"]
    assert len(index.imports) == 1
    assert len(index.assigns) == 1
