"""NameGraph as the import graph's stand-in: its importers and files match ``ImportGraph``; bases
from outside the workspace and through re-exports, modules given to ``vars``/``dir``, and a module
``__getattr__``'s fallback to every importer.

Each test names the files whose pyright diagnostics can change and checks they are all kept.
"""

from __future__ import annotations

import pytest

from prewrite_daemon.languages.python.names.imports import ImportGraph
from tests.unit.name_deps_helpers import IMPORTERS, M_SIG, M, affected, build, src


def test_importers_and_files_match_the_import_graph() -> None:
    files = {**IMPORTERS, "d.py": "from b import *\n"}
    graph, imports = build(files), ImportGraph()
    for rel, text in files.items():
        imports.update(rel, src(text))
    assert graph.files() == imports.files()
    for targets in (["pkg/m.py"], ["a.py"], ["c.py"]):
        assert graph.importers(targets) == imports.importers(targets)
        assert graph.importers(targets, transitive=False) == imports.importers(targets, False)
    graph.update("a.py", None)
    assert "a.py" not in graph.files()
    assert graph.importers(["pkg/m.py"]) == set()


@pytest.mark.parametrize(
    ("base", "old", "new", "whole_class"),
    [
        # typing's ABCs are plain but for their abstract members
        ("typing.MutableMapping[str, str]", "x = 1", "x = 'a'", False),
        (
            "typing.MutableMapping[str, str]",
            "def old(self) -> int: ...",
            "def new(self) -> int: ...",
            False,
        ),
        ("typing.MutableSequence[int]", "def insert(self, i: int, v: int) -> None: ...", "", True),
        ("dict[str, int]", "x = 1", "x = 'a'", False),  # a builtin
        ("Exception", "def old(self) -> int: ...", "def new(self) -> int: ...", False),
        ("lib.Model", "x: int = 1", "x: str = ''", True),  # a library's: maybe dataclass-like
        ("lib.Model", "def old(self) -> int: ...", "def new(self) -> int: ...", True),
        # a library's class may be an Enum or a re-exported Protocol: its kind is unknown, so
        # every member change is a change of the whole class (default-keep)
        ("lib.Model", "def m(self) -> int: ...", "def m(self) -> str: ...", True),
        ("typing.IO[str]", "x = 1", "x = 'a'", False),  # a stdlib class: no fields synthesized
        ("importlib.abc.Loader", "def old(self) -> int: ...", "def new(self) -> int: ...", True),
    ],
)
def test_bases_from_outside_the_workspace(base: str, old: str, new: str, whole_class: bool) -> None:
    def module(member: str) -> str:
        return f"import typing\nimport lib\nclass C({base}):\n    {member or 'pass'}\n"

    files = {
        "c.py": module(old),
        "holder.py": "from c import C\ndef make() -> C: ...\n",
        "sub.py": "from c import C\nclass D(C): ...\n",
    }
    found = affected(files, {"c.py": module(new)})
    assert "sub.py" in found  # a subclass sees every member change
    assert ("holder.py" in found) is whole_class


def test_a_base_resolved_through_a_re_export_carries_its_kind() -> None:
    files = {
        "pkg/__init__.py": "from .base import Base\n",
        "pkg/base.py": "import dataclasses\n@dataclasses.dataclass\nclass Base:\n    x: int = 0\n",
        "pkg/c.py": "from pkg import Base\nclass C(Base):\n    y: int = 0\n",
        "holder.py": "from pkg.c import C\nC()\n",
    }
    new = "from pkg import Base\nclass C(Base):\n    y: str = ''\n"
    assert "holder.py" in affected(files, {"pkg/c.py": new})  # a field of a dataclass's subclass


@pytest.mark.parametrize(
    ("user", "sees"),
    [
        ("import pkg.m\n\nprint(vars(pkg.m))\n", False),  # vars/dir: the type decides nothing
        ("import pkg.m as mod\n\nnames = dir(mod)\n", False),
        ("import pkg.m as mod\n\ndef get():\n    return vars(mod)\n", False),
        ("import pkg.m as mod\n\nprint(vars(mod), mod)\n", True),  # also used as a value
        ("import pkg.m as mod\n\nvars(mod.f)\n", True),  # the chain through f still resolves
        ("import pkg.m as mod\n\nvars = print\nvars(mod)\n", True),  # not the builtin
        ("import pkg.m as mod\n\n\ndef g(vars):\n    return vars(mod)\n", True),
        ("from os import *\nimport pkg.m as mod\n\nvars(mod)\n", True),  # a star may bind it
        ("import pkg.m as mod\n\nx = 'vars'\nvars(mod)\n", True),  # the word elsewhere
        ("import pkg.m as mod\n\nvars(mod, 1)\n", True),
    ],
)
def test_a_module_given_to_vars_or_dir_is_not_used_as_a_value(user: str, sees: bool) -> None:
    files = {"pkg/__init__.py": "", "pkg/m.py": M, "app/user.py": user}
    assert ("app/user.py" in affected(files, {"pkg/m.py": M_SIG})) is sees


def test_a_workspace_builtins_stub_makes_vars_a_use_of_the_value() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": M,
        "app/user.py": "import pkg.m as mod\n\nvars(mod)\n",
        "__builtins__.pyi": "def vars(x: int) -> int: ...\n",
    }
    assert "app/user.py" in affected(files, {"pkg/m.py": M_SIG})


# A change that reaches a module ``__getattr__`` falls back to every importer of that module:
# the fixpoint stops once those and the files it reached cover every importer (a hub of an
# unannotated package ends there), and goes on while one is left that it may still prune.
REACHES_GETATTR = {
    "hub.py": "def f(x):\n    return x\n",
    "shim.py": "from hub import f\n\ndef __getattr__(name):\n    return f(name)\n",
    "a.py": "import shim\n",
    "b.py": "from shim import anything\n",
    "c.py": "from hub import f\n\nv = f(1)\n",
    "d.py": "import hub\n\nw = hub.__name__\n",
    "e.py": "import d\n",
}


def test_a_fallback_that_covers_every_importer_answers_them_all() -> None:
    files = {**REACHES_GETATTR, "d.py": "import hub\nimport shim\n"}
    new = {"hub.py": "def f(x):\n    return [x]\n"}
    assert affected(files, new) == {"shim.py", "a.py", "b.py", "c.py", "d.py", "e.py"}


def test_a_fallback_that_leaves_an_importer_out_still_prunes_it() -> None:
    new = {"hub.py": "def f(x):\n    return [x]\n"}
    assert affected(REACHES_GETATTR, new) == {"shim.py", "a.py", "b.py", "c.py"}
