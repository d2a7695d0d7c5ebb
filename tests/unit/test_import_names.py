"""Module names (every dotted suffix) and imported names: plain, from, star and relative imports at
every level, in a package ``__init__`` and anywhere in a file.
"""

from __future__ import annotations

import ast

import pytest

from prewrite_daemon.languages.python.names.imports import imported_names, module_names
from tests.unit.name_deps_helpers import src


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
