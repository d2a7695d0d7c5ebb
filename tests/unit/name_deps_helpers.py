"""Shared by the ``NameGraph.affected`` tests (``test_name_deps_*.py``, the default-keep ones
included, and ``test_name_renames.py``): small trees built from dedented text (``src``, which the
import tests use too), ``affected`` (what the graph keeps for a patch, checked to stay within the
transitive importers) and the module ``M`` with its signature change ``M_SIG``.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.languages.python.names.imports import ImportGraph

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def with_line(line: str, before: str, text: str) -> str:
    """``text`` with ``line`` inserted before the first ``before`` (which must be there)."""
    assert before in text
    return text.replace(before, f"{line}\n{before}", 1)


def build(
    files: Mapping[str, str],
    protocols: Iterable[str] | None = (),
    *,
    cycles: bool = True,
    dead_stores: bool = False,
) -> NameGraph:
    graph = NameGraph(protocols, report_import_cycles=cycles, dead_stores=dead_stores)
    for rel, text in files.items():
        graph.update(rel, src(text))
    return graph


def affected(
    files: Mapping[str, str],
    changes: Mapping[str, str | None],
    protocols: Iterable[str] | None = (),
    *,
    cycles: bool = True,
    dead_stores: bool = False,
) -> set[str]:
    """What ``NameGraph.affected`` keeps when ``changes`` (path -> new text, None: deleted) are
    applied to the tree ``files`` (``cycles``: the checker reports import cycles;
    ``dead_stores``: its code-flow complexity is modelled, ``names.dead_stores``); also checked
    to stay within the transitive importers."""
    graph = build(files, protocols, cycles=cycles, dead_stores=dead_stores)
    patch = [
        (rel, src(files[rel]) if rel in files else None, None if new is None else src(new))
        for rel, new in changes.items()
    ]
    found = graph.affected(patch)
    imports = ImportGraph()
    for rel, text in files.items():
        imports.update(rel, src(text))
    assert found <= imports.importers(changes) | (graph.files() - set(changes)), found
    assert not found & set(changes)
    return found


M = """
    def f(x: int) -> int:
        return x

    def other(x: int) -> int:
        return x
"""
M_SIG = """
    def f(x: int, y: int) -> int:
        return x

    def other(x: int) -> int:
        return x
"""


# --- whole importers ---------------------------------------------------------------------------


IMPORTERS = {
    "pkg/__init__.py": "",
    "pkg/m.py": M,
    "a.py": "from pkg.m import other\n",
    "b.py": "import a\n",
    "c.py": "import os\n",
}
