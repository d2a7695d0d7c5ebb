"""Default-keep: the planner widens wherever a rule would recognise its case by spelling only.

One test per way issue 19's adversarial probes found the planner pruning a file whose pyright
diagnostics changed (the truth for each is checked against cold pyright by
tests/e2e/test_planner_catalogue.py); here, on the graph alone, each such file must be kept. This
module: modules and statements — a new stubs package, a PEP 695 alias, every statement kind modelled
or falling back, and an importer that does not parse.
"""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.names import symbols
from prewrite_daemon.languages.python.names.summary import summarize
from tests.unit.name_deps_helpers import affected


def test_a_new_stubs_package_reaches_the_importers_of_its_module() -> None:
    files = {
        "foo/__init__.py": "def f():\n    return ''\n",
        "user.py": "import foo\ny: str = foo.f()\n",
        "other.py": "import json\n",
    }
    found = affected(files, {"foo-stubs/__init__.pyi": "def f() -> int: ...\n"})
    assert "user.py" in found
    assert "other.py" not in found


def test_a_pep695_alias_reaches_its_users_and_only_them() -> None:
    files = {
        "aliases.py": "type Num = int\ntype Other = str\n",
        "user.py": "from aliases import Num\nx: Num = 1\n",
        "bystander.py": "from aliases import Other\ny: Other = ''\n",
    }
    found = affected(files, {"aliases.py": "type Num = str\ntype Other = str\n"})
    assert "user.py" in found
    assert "bystander.py" not in found  # read with the newer grammar, not a parse failure


def test_every_statement_kind_is_modelled_or_falls_back() -> None:
    """A statement kind of a newer Python than the rules know is never silently nothing."""
    handled = {ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom,
               ast.If, ast.Try, ast.TryStar, *symbols._MODELLED}  # pyright: ignore[reportPrivateUsage]  # fmt: skip
    type_alias = getattr(ast, "TypeAlias", None)
    kinds = {k for k in ast.stmt.__subclasses__() if k is not type_alias}
    assert kinds <= handled, kinds - handled


def test_an_unmodelled_statement_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(symbols, "_MODELLED", (ast.Assign, ast.Expr))  # `pass` unmodelled now
    files = {"m.py": "x = 1\n", "user.py": "import m\n", "far.py": "import user\n"}
    summarize.cache_clear()
    try:
        found = affected(files, {"m.py": "x = 1\npass\n"})
    finally:
        summarize.cache_clear()
    assert {"user.py", "far.py"} <= found


@pytest.mark.parametrize(
    "hidden",
    [
        "x = 1; import pkg.sub as s\n",
        "if True: from pkg import sub\n",
        "from pkg import (\n    other,\n    sub,\n)\n",
        "from pkg \\\n    import sub\n",
    ],
    ids=["after-semicolon", "one-line-if", "parenthesized", "continued"],
)
def test_an_importer_that_does_not_parse_keeps_every_import_it_spells(hidden: str) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/sub.py": "def f() -> int:\n    return 1\n",
        "pkg/other.py": "",
        "user.py": hidden + "def broken(:\n",
    }
    new = "def f() -> str:\n    return ''\n"
    assert "user.py" in affected(files, {"pkg/sub.py": new})
