"""NameGraph.affected, whole importers: the changes no rule narrows (stubs, deleted and new
modules, unparsable importers, import cycles, star imports and ``__all__``) reach every importer;
changes invisible to importers reach no one.

Each test names the files whose pyright diagnostics can change and checks they are all kept.
"""

from __future__ import annotations

import pytest

from prewrite_daemon.languages.python.names.deps import NameGraph
from tests.unit.name_deps_helpers import IMPORTERS, M_SIG, M, affected

EVERY_IMPORTER = {"a.py", "b.py"}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"pkg/m.py": M + "\ndef __getattr__(name: str) -> int: ...\n"}, EVERY_IMPORTER),
        ({"pkg/m.py": "# pyright: strict\n" + M}, EVERY_IMPORTER),
        ({"pkg/m.py": "from __future__ import annotations\n" + M}, EVERY_IMPORTER),
        ({"pkg/m.py": M + "\ndef broken(:\n"}, EVERY_IMPORTER),  # does not parse
        ({"pkg/m.py": M + "\nfrom os.path import *\n"}, EVERY_IMPORTER),  # star imports changed
        ({"pkg/m.py": M + "\n__all__ = ['f'] + ['other']\n"}, EVERY_IMPORTER),  # not a list
        ({"pkg/m.py": M, "pkg/py.typed": ""}, {"a.py", "b.py", "c.py", "pkg/__init__.py"}),
    ],
)
def test_changes_no_rule_narrows_reach_every_importer(
    changes: dict[str, str | None], expected: set[str]
) -> None:
    assert affected(IMPORTERS, changes) == expected


def test_a_stub_change_reaches_every_importer() -> None:
    files = {"m.pyi": "def other(x: int) -> int: ...\n", "a.py": "import m\n", "b.py": "import a\n"}
    assert affected(files, {"m.pyi": "def other(x: str) -> int: ...\n"}) == {"a.py", "b.py"}


def test_a_deleted_module_reaches_what_resolved_through_it() -> None:
    files = {
        **IMPORTERS,
        "d.py": "import a\nprint(a.other)\n",  # `other` came from pkg.m through a
        "e.py": "import pkg.m\nprint(pkg.m.f)\n",  # a chain through it
        "pkg/star.py": "from pkg.m import *\n",
        "f.py": "from pkg.star import other\n",
        "g.py": "from pkg.star import *\n",
    }
    found = affected(files, {"pkg/m.py": None})
    assert found == {"a.py", "d.py", "e.py", "pkg/star.py", "f.py", "g.py"}


def test_a_new_module_reaches_the_files_that_import_its_name() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.new import helper\n",  # unresolved before the patch
        "pkg/b.py": "import pkg\n",
    }
    assert affected(files, {"pkg/new.py": "def helper() -> int: ...\n"}) == {"pkg/a.py"}


def test_an_importer_that_does_not_parse_is_kept() -> None:
    files = {"m.py": M, "broken.py": "from m import other\ndef oops(:\n", "b.py": "import broken\n"}
    assert affected(files, {"m.py": M_SIG}) == {"broken.py", "b.py"}


def test_an_import_closing_a_cycle_reaches_every_importer() -> None:
    files = {
        "a.py": "import b\nx: int = 1\n",
        "b.py": "def g() -> int: ...\n",
        "c.py": "import a\n",
    }
    new = "import a\ndef g() -> int: ...\n"
    assert affected(files, {"b.py": new}) == {"a.py", "c.py"}


def test_without_cycle_reports_a_new_import_edge_is_narrowed() -> None:
    files = {
        "a.py": "import b\nx: int = 1\n",
        "b.py": "def g() -> int: ...\n",
        "c.py": "import a\n",
    }
    graph = NameGraph((), report_import_cycles=False)
    for rel, text in files.items():
        graph.update(rel, text)
    new = "import a\ndef g() -> int: ...\n"
    assert graph.affected([("b.py", files["b.py"], new)]) == set()


def test_a_changed_star_import_changes_the_names_its_modules_export() -> None:
    files = {
        "pkg/__init__.py": "from .a import *\n",
        "pkg/a.py": "__all__ = ['f']\ndef f() -> int: ...\n",
        "pkg/b.py": "__all__ = ['f']\ndef f() -> str: ...\n",
        "user.py": "import pkg\npkg.f()\n",
        "bystander.py": "import pkg\n",
    }
    moved = {
        "pkg/__init__.py": "from .c import *\n",
        "pkg/a.py": None,
        "pkg/c.py": "__all__ = ['f']\ndef f() -> str: ...\n",
    }
    assert affected(files, {"pkg/__init__.py": "from .b import *\n"}) == {"user.py"}
    assert affected(files, moved) == {"user.py"}  # a rename: c is new


def test_literal_all_changes_reach_star_importers_of_the_moved_names() -> None:
    files = {
        "m.py": "__all__ = ['f']\ndef f() -> int: ...\ndef g() -> int: ...\n",
        "star.py": "from m import *\n",
        "user.py": "from star import g\n",
        "bystander.py": "from star import f\n",
    }
    new = "__all__ = ['f', 'g']\ndef f() -> int: ...\ndef g() -> int: ...\n"
    assert affected(files, {"m.py": new}) == {"star.py", "user.py"}


# --- what never reaches anyone -----------------------------------------------------------------


@pytest.mark.parametrize(
    "new",
    [
        M.replace("return x", "y = x + 1\n        return y", 1),  # body of an annotated function
        M.replace("    def f", "    # a comment\n    def f"),
        M.replace("def f(x: int) -> int:", "def f(x:int)->int:"),
    ],
)
def test_changes_invisible_to_importers_reach_no_one(new: str) -> None:
    files = {"m.py": M, "a.py": "from m import f\nf(1)\n"}
    assert affected(files, {"m.py": new}) == set()
