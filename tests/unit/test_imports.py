"""Module names, imported names, the reverse import graph and the interface fingerprint."""

from __future__ import annotations

import ast
import textwrap

import pytest

from prewrite_daemon.languages.python.names.imports import (
    ImportGraph,
    imported_names,
    interface_changed,
    interface_of,
    module_names,
)
from prewrite_daemon.languages.python.syntax.parse_cache import parse_shared


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def names_of(rel: str, text: str) -> set[str]:
    return imported_names(rel, ast.parse(src(text)))


# --- module_names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("a.py", {"a"}),
        ("pkg/sub/mod.py", {"pkg.sub.mod", "sub.mod", "mod"}),
        ("pkg/__init__.py", {"pkg"}),
        ("pkg/sub/__init__.pyi", {"pkg.sub", "sub"}),
        ("src/pkg/mod.pyi", {"src.pkg.mod", "pkg.mod", "mod"}),
    ],
)
def test_module_names_are_every_dotted_suffix(rel: str, expected: set[str]) -> None:
    assert module_names(rel) == expected


# --- imported_names -------------------------------------------------------------------------


def test_plain_import_adds_its_parents() -> None:
    assert names_of("m.py", "import a.b.c\nimport x as y\n") == {"a", "a.b", "a.b.c", "x"}


def test_from_import_adds_the_module_and_its_members() -> None:
    assert names_of("m.py", "from a.b import c, d as e\n") == {"a", "a.b", "a.b.c", "a.b.d"}


def test_star_import_adds_only_the_module() -> None:
    assert names_of("m.py", "from a.b import *\n") == {"a", "a.b"}


def test_from_dot_import_name() -> None:
    assert names_of("pkg/sub/m.py", "from . import x\n") == {"pkg", "pkg.sub", "pkg.sub.x"}


def test_relative_imports_at_several_levels() -> None:
    text = """
        from .sib import s
        from .. import up
        from ..other.deep import d
    """
    assert names_of("pkg/sub/m.py", text) == {
        "pkg",
        "pkg.sub",
        "pkg.sub.sib",
        "pkg.sub.sib.s",
        "pkg.up",
        "pkg.other",
        "pkg.other.deep",
        "pkg.other.deep.d",
    }


def test_relative_import_in_a_package_init_is_relative_to_that_package() -> None:
    assert names_of("pkg/__init__.py", "from .core import C\n") == {
        "pkg",
        "pkg.core",
        "pkg.core.C",
    }


def test_relative_import_up_to_the_top_level() -> None:
    assert names_of("pkg/sub/m.py", "from ... import top\n") == {"top"}


def test_imports_anywhere_count() -> None:
    text = """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            import hidden.mod
        def f() -> None:
            import lazy
    """
    assert {"hidden", "hidden.mod", "lazy"} <= names_of("m.py", text)


# --- ImportGraph ----------------------------------------------------------------------------


@pytest.fixture
def graph() -> ImportGraph:
    g = ImportGraph()
    g.update("pkg/__init__.py", "")
    g.update("pkg/a.py", "X = 1\n")
    g.update("pkg/b.py", "from pkg.a import X\n")
    g.update("pkg/c.py", "from . import b\n")
    g.update("app.py", "import pkg.c\n")
    g.update("lone.py", "import os\n")
    return g


def test_direct_importers(graph: ImportGraph) -> None:
    assert graph.importers(["pkg/a.py"], transitive=False) == {"pkg/b.py"}


def test_transitive_importers(graph: ImportGraph) -> None:
    assert graph.importers(["pkg/a.py"]) == {"pkg/b.py", "pkg/c.py", "app.py"}


def test_importers_of_a_package_init_include_submodule_importers(graph: ImportGraph) -> None:
    # "import pkg.c" and "from pkg.a import X" both run pkg/__init__.py
    assert graph.importers(["pkg/__init__.py"], transitive=False) >= {"pkg/b.py", "app.py"}


def test_importers_exclude_the_targets_and_survive_cycles() -> None:
    g = ImportGraph()
    g.update("a.py", "import b\n")
    g.update("b.py", "import a\n")
    assert g.importers(["a.py"]) == {"b.py"}
    assert g.importers(["a.py", "b.py"]) == set()


def test_a_deleted_file_is_forgotten(graph: ImportGraph) -> None:
    graph.update("pkg/b.py", None)
    assert "pkg/b.py" not in set(graph.files())
    assert graph.importers(["pkg/a.py"]) == set()


def test_an_updated_file_loses_its_old_imports(graph: ImportGraph) -> None:
    graph.update("pkg/b.py", "import os\n")
    assert graph.importers(["pkg/a.py"]) == set()
    graph.update("lone.py", "from pkg import a\n")
    assert graph.importers(["pkg/a.py"]) == {"lone.py"}


def test_a_file_that_does_not_parse_imports_nothing(graph: ImportGraph) -> None:
    graph.update("pkg/b.py", "from pkg.a import (\n")
    assert "pkg/b.py" in set(graph.files())
    assert graph.importers(["pkg/a.py"]) == set()


# --- interface_changed ----------------------------------------------------------------------

ANNOTATED = """
    def f(x: int) -> int:
        y = x + 1
        return y
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            ANNOTATED,
            """
            def f(x: int) -> int:
                return x * 2 if x else -1
            """,
            id="annotated-body",
        ),
        pytest.param(
            """
            def f(x: int) -> int:
                \"\"\"Old words.\"\"\"
                return x
            """,
            """
            def f(x: int) -> int:
                \"\"\"New words, more of them.\"\"\"
                return x
            """,
            id="docstring-in-annotated",
        ),
        pytest.param(
            """
            def f() -> int:
                return 1
            x: int = "a"  # type: ignore
            """,
            """
            # a comment line shifts the ignore below
            def f() -> int:
                return 1

            x: int = "a"  # type: ignore
            """,
            id="type-ignore-line-shift",
        ),
        pytest.param(
            """
            class C:
                def m(self, n: int) -> str:
                    return str(n)
            """,
            """
            class C:
                def m(self, n: int) -> str:
                    other = C()
                    other.cache = n
                    return f"{n}"
            """,
            id="method-body-without-self-store",
        ),
        pytest.param(ANNOTATED, src(ANNOTATED) + "\n\n# trailing comment\n", id="comment"),
    ],
)
def test_interface_unchanged(old: str, new: str) -> None:
    assert interface_changed(src(old), src(new)) is False


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            """
            def f(x: int):
                return x
            """,
            """
            def f(x: int):
                return str(x)
            """,
            id="unannotated-return",
        ),
        pytest.param(
            """
            class C:
                def __init__(self) -> None:
                    self.x = 1
            """,
            """
            class C:
                def __init__(self) -> None:
                    self.x = "one"
            """,
            id="self-store-in-method",
        ),
        pytest.param(
            """
            class C:
                @classmethod
                def make(cls) -> None:
                    cls.count = 1
            """,
            """
            class C:
                @classmethod
                def make(cls) -> None:
                    cls.count = "1"
            """,
            id="cls-store-in-classmethod",
        ),
        pytest.param(
            """
            class C:
                def reset(self) -> None:
                    self.items: list[int] = []
            """,
            """
            class C:
                def reset(self) -> None:
                    self.items: list[str] = []
            """,
            id="annotated-self-store",
        ),
        pytest.param(
            """
            STATE = 0
            def bump() -> None:
                global STATE
                STATE = 1
            """,
            """
            STATE = 0
            def bump() -> None:
                global STATE
                STATE = "one"
            """,
            id="global",
        ),
        pytest.param(
            """
            class P:
                def run(self) -> int: ...
            """,
            """
            class P:
                def run(self) -> int:
                    return 1
            """,
            id="trivial-to-implemented",
        ),
        pytest.param(
            """
            def f() -> int:
                raise NotImplementedError
            """,
            """
            def f() -> int:
                return 1
            """,
            id="not-implemented-to-implemented",
        ),
        pytest.param(
            ANNOTATED,
            """
            def f(x: int, y: int = 0) -> int:
                return x
            """,
            id="signature",
        ),
        pytest.param(
            ANNOTATED,
            """
            def f(x: int) -> str:
                return str(x)
            """,
            id="return-annotation",
        ),
        pytest.param(
            ANNOTATED,
            """
            @staticmethod
            def f(x: int) -> int:
                return x
            """,
            id="decorator",
        ),
        pytest.param(ANNOTATED, "# pyright: strict\n" + src(ANNOTATED), id="pyright-strict"),
        pytest.param(ANNOTATED, src(ANNOTATED) + "\nEXTRA = 1\n", id="module-level-name"),
        pytest.param(ANNOTATED, src(ANNOTATED) + "\nimport os\n", id="module-level-import"),
        pytest.param(ANNOTATED, "def f(x: int) -> int:\n    return (\n", id="syntax-error"),
    ],
)
def test_interface_changed(old: str, new: str) -> None:
    assert interface_changed(src(old), src(new)) is True


def test_async_generator_becoming_a_coroutine_is_visible() -> None:
    """``async for x in items()`` breaks when ``items`` loses its ``yield`` (pyright agrees)."""
    head = "from collections.abc import AsyncIterator\n\n\n"
    old = head + "async def items() -> AsyncIterator[int]:\n    yield 1\n"
    new = head + "async def items() -> AsyncIterator[int]:\n    return other()\n"
    assert interface_changed(old, new) is True


def test_a_new_or_deleted_module_always_changes() -> None:
    assert interface_changed(None, src(ANNOTATED)) is True
    assert interface_changed(src(ANNOTATED), None) is True


def test_a_syntax_error_in_the_base_counts_as_changed() -> None:
    assert interface_changed("def f(:\n", src(ANNOTATED)) is True


def test_the_interface_leaves_the_shared_tree_as_parsed() -> None:
    """The blanked bodies are copies: the tree ``parse_cache`` shares keeps its bodies."""
    text = src(ANNOTATED)
    tree = parse_shared(text)
    assert tree is not None
    before = ast.dump(tree, include_attributes=True)
    assert interface_of(text) is not None
    assert ast.dump(tree, include_attributes=True) == before
    assert "implemented" not in before
