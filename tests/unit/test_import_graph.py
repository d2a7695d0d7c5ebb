"""The reverse import graph (``ImportGraph``): direct and transitive importers, a package
``__init__``'s, cycles, deleted and updated files, a file that does not parse.
"""

from __future__ import annotations

import pytest

from prewrite_daemon.languages.python.names.imports import ImportGraph


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
