"""NameGraph.affected: every rule of ``prewrite_daemon.languages.python.names.deps``, on small
trees.

Each test names the files whose pyright diagnostics can change (worked out by hand from what
pyright infers) and checks they are all kept: the answer may be larger than the truth, never
smaller. Tests of precision check that files which cannot see a change are left out.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.languages.python.names.imports import ImportGraph

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def build(
    files: Mapping[str, str], protocols: Iterable[str] | None = (), *, cycles: bool = True
) -> NameGraph:
    graph = NameGraph(protocols, report_import_cycles=cycles)
    for rel, text in files.items():
        graph.update(rel, src(text))
    return graph


def affected(
    files: Mapping[str, str],
    changes: Mapping[str, str | None],
    protocols: Iterable[str] | None = (),
    *,
    cycles: bool = True,
) -> set[str]:
    """What ``NameGraph.affected`` keeps when ``changes`` (path -> new text, None: deleted) are
    applied to the tree ``files`` (``cycles``: the checker reports import cycles); also checked
    to stay within the transitive importers."""
    graph = build(files, protocols, cycles=cycles)
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

# --- the ways of spelling a name -----------------------------------------------------------


@pytest.mark.parametrize(
    ("user", "sees"),
    [
        ("from pkg.m import f\nf(1)\n", True),
        ("from pkg.m import f as g\ng(1)\n", True),
        ("from pkg.m import f\n", True),  # the import alone: it fails when f goes
        ("from pkg.m import other\nother(1)\n", False),
        ("import pkg.m\npkg.m.f(1)\n", True),
        ("import pkg.m\npkg.m.other(1)\n", False),
        ("import pkg.m as mod\nmod.f(1)\n", True),
        ("import pkg.m as mod\nmod.other(1)\n", False),
        ("from pkg import m\nm.f(1)\n", True),
        ("from pkg import m\nm.other(1)\n", False),
        ("from pkg.m import *\nf(1)\n", True),
        ("import pkg.m as mod\ngetattr(mod, 'other')\n", True),  # the module as a value
        ("import pkg.m as mod\nprint(mod)\n", True),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.m import f\n", True),
        ("def g() -> None:\n    from pkg.m import f\n    f(1)\n", True),
        ("import pkg.m as mod\nx: 'mod.f'\n", True),  # a string: a forward reference
        ("import pkg.m as mod\nx = getattr(object(), 'f')\nprint(mod.other)\n", False),
    ],
)
def test_every_spelling_of_a_changed_name_is_seen(user: str, sees: bool) -> None:
    files = {"pkg/__init__.py": "", "pkg/m.py": M, "app/user.py": user}
    assert ("app/user.py" in affected(files, {"pkg/m.py": M_SIG})) is sees


def test_relative_imports_resolve_against_the_package() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": M,
        "pkg/a.py": "from .m import f\nf(1)\n",
        "pkg/b.py": "from . import m\nm.f(1)\n",
        "pkg/c.py": "from . import m\nm.other(1)\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/d.py": "from ..m import f\nf(1)\n",
    }
    assert affected(files, {"pkg/m.py": M_SIG}) == {"pkg/a.py", "pkg/b.py", "pkg/sub/d.py"}


def test_a_module_alias_passed_on_by_another_module() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": M,
        "f.py": "import pkg.m as mod\n",
        "g.py": "from f import mod\nmod.f(1)\n",
        "h.py": "from f import mod\nmod.other(1)\n",
        "i.py": "from f import mod\ngetattr(mod, 'other')\n",  # the module as a value
        "j.py": "import f\nprint(f.mod)\n",
        "k.py": "import f\ndef get():\n    return f\n",  # f as a value: f.mod.f differs
        "l.py": "from k import get\nget().mod.f(1)\n",
    }
    assert affected(files, {"pkg/m.py": M_SIG}) == {"g.py", "i.py", "j.py", "k.py", "l.py"}


def test_re_exports_through_the_package_init() -> None:
    files = {
        "pkg/__init__.py": "from .m import f\nfrom .n import *\n",
        "pkg/m.py": M,
        "pkg/n.py": "__all__ = ['g']\ndef g() -> int:\n    return 1\n",
        "app/a.py": "from pkg import f\nf(1)\n",
        "app/b.py": "import pkg\npkg.f(1)\n",
        "app/c.py": "import pkg\npkg.g()\n",
    }
    assert affected(files, {"pkg/m.py": M_SIG}) == {"pkg/__init__.py", "app/a.py", "app/b.py"}
    n_changed = "__all__ = ['g']\ndef g() -> str:\n    return ''\n"
    assert affected(files, {"pkg/n.py": n_changed}) == {"pkg/__init__.py", "app/c.py"}


def test_star_re_export_of_a_name_outside_all_is_not_followed() -> None:
    files = {
        "pkg/__init__.py": "from .n import *\n",
        "pkg/n.py": "__all__ = ['g']\ndef g() -> int: ...\ndef h() -> int: ...\n",
        "app/c.py": "import pkg\npkg.h()\n",  # an error either way: h is not exported
        "app/d.py": "from pkg.n import h\n",
    }
    new = "__all__ = ['g']\ndef g() -> int: ...\ndef h() -> str: ...\n"
    assert affected(files, {"pkg/n.py": new}) == {"app/d.py"}


def test_a_name_shadowed_locally_in_a_file_that_does_not_import_it_is_not_seen() -> None:
    files = {
        "m.py": M,
        "a.py": "from m import other\ndef f(x: int) -> int:\n    return x\nf(1)\nother(1)\n",
        "b.py": "from m import f as g\ndef f() -> None: ...\ng(1)\n",
    }
    assert affected(files, {"m.py": M_SIG}) == {"b.py"}


# --- the fixpoint: names whose own type follows a changed one -----------------------------


def test_an_unannotated_helper_two_hops_away() -> None:
    files = {
        "m.py": M,
        "n.py": "from m import f\ndef g():\n    return f(1)\n"
        "def g_typed() -> int:\n    return f(1)\n",
        "p.py": "from n import g\ndef h():\n    return g()\n",
        "q.py": "from p import h\nx: int = h()\n",
        "r.py": "from n import g_typed\nx: int = g_typed()\n",
    }
    new = "def f(x: int) -> str:\n    return ''\n\ndef other(x: int) -> int:\n    return x\n"
    assert affected(files, {"m.py": new}) == {"n.py", "p.py", "q.py"}


def test_a_signature_in_a_type_comment() -> None:
    files = {
        "m.py": "def f(x):\n    # type: (int) -> int\n    return x\n",
        "n.py": "from m import f\nf(1)\n",
        "types_.py": "Alias = int\n",
        "p.py": "from types_ import Alias\ndef g(x):\n    # type: (Alias) -> None\n    pass\n",
        "q.py": "from p import g\ng(1)\n",
    }
    new = "def f(x):\n    # type: (str) -> int\n    return x\n"
    assert affected(files, {"m.py": new}) == {"n.py"}
    assert affected(files, {"types_.py": "Alias = str\n"}) == {"p.py", "q.py"}


def test_an_unannotated_module_variable_and_a_default_value() -> None:
    files = {
        "m.py": M,
        "n.py": "from m import f\nVALUE = f(1)\ndef g(x=VALUE) -> None: ...\n",
        "p.py": "from n import VALUE\nprint(VALUE)\n",
        "q.py": "from n import g\ng()\n",
    }
    assert affected(files, {"m.py": M_SIG}) == {"n.py", "p.py", "q.py"}


@pytest.mark.parametrize(
    ("old", "new", "seen"),
    [
        ("X: int = 1\n", "X: int = 2\n", False),  # declared: the value is not the type
        ("X: Final = 1\n", "X: Final = 'a'\n", True),  # Final infers from the value
        ("X = 1\n", "X = 'a'\n", True),
        (
            "if sys.version_info >= (3, 8):\n    X = 1\n",
            "if sys.platform == 'win32':\n    X = 1\n",
            True,
        ),
    ],
)
def test_variables_and_the_guards_they_sit_under(old: str, new: str, seen: bool) -> None:
    head = "import sys\nfrom typing import Final\n"
    files = {"m.py": head + old, "user.py": "from m import X\nprint(X)\n"}
    assert ("user.py" in affected(files, {"m.py": head + new})) is seen


def test_a_changed_type_alias_changes_every_signature_that_names_it() -> None:
    files = {
        "types_.py": "Alias = int\n",
        "api.py": "from types_ import Alias\ndef call(x: Alias) -> None: ...\n",
        "user.py": "from api import call\ncall(1)\n",
        "bystander.py": "from api import call as _\nimport types_\n",
    }
    assert affected(files, {"types_.py": "Alias = str\n"}) == {"api.py", "user.py", "bystander.py"}


def test_self_attributes_inferred_from_a_method_body() -> None:
    files = {
        "m.py": M,
        "n.py": src("""
            from m import f
            class Box:
                def __init__(self) -> None:
                    self.amount = f(1)
                    self.label: str = "x"
        """),
        "p.py": "from n import Box\nBox().amount\n",
        "q.py": "from n import Box\nBox().label\n",
    }
    assert affected(files, {"m.py": M_SIG}) == {"n.py", "p.py"}


# --- class members ----------------------------------------------------------------------------

C = """
    class C:
        def method(self) -> int:
            return 1

        def untouched(self) -> int:
            return 1
"""
C_METHOD = C.replace("def method(self) -> int:", "def method(self, x: int) -> int:")


def test_a_member_is_seen_where_its_name_is_spelled_and_in_subclasses() -> None:
    files = {
        "pkg/__init__.py": "from .c import C\n",
        "pkg/c.py": C,
        "a.py": "from pkg import C\nC().method()\n",
        "b.py": "from pkg import C\nC().untouched()\n",
        "c.py": "import pkg\ndef g(x: pkg.C) -> None:\n    getattr(x, 'method')\n",  # by name
        "other/sub.py": "import pkg\nclass D(pkg.C):\n    def method(self) -> int: ...\n",
        "other/subsub.py": "from other.sub import D\nclass E(D):\n    pass\n",
        "other/alias.py": "from pkg import C as Base\nclass F(Base): ...\n",
        "unrelated.py": "import pkg\n",
    }
    found = affected(files, {"pkg/c.py": C_METHOD})
    assert found == {"a.py", "c.py", "other/sub.py", "other/subsub.py", "other/alias.py"}


def test_a_class_level_name_read_by_another_member() -> None:
    body = "    double = LIMIT * 2\n    def m(self, v=LIMIT) -> None: ...\n"
    files = {
        "c.py": "class C:\n    LIMIT = 1\n" + body,
        "a.py": "from c import C\nC.double\n",
        "b.py": "from c import C\nC().m()\n",
    }
    new = "class C:\n    LIMIT = 'x'\n" + body
    assert affected(files, {"c.py": new}) == {"a.py", "b.py"}
    # in a method body the same bare name is a local, not the member
    files["c.py"] += "    def n(self, double: int):\n        return double\n"
    files["d.py"] = "from c import C\nC().n(1)\n"
    double = "    double = LIMIT * 2\n"
    changed = files["c.py"].replace(double, "    double = 'x'\n")
    assert affected(files, {"c.py": changed}) == {"a.py"}


def test_a_store_is_checked_in_its_file_but_types_nothing_else() -> None:
    files = {
        "c.py": "class C:\n    size: int = 0\n",
        "n.py": src("""
            from c import C
            class Box:
                def __init__(self, c: C) -> None:
                    c.size = 3  # checked against C.size: this file sees a change
                    self.label = "box"  # the same method: label does not depend on size
        """),
        "p.py": "from n import Box\nBox.__name__\nprint(Box(1).label)\n",
    }
    new = "class C:\n    size: str = ''\n"
    assert affected(files, {"c.py": new}) == {"n.py"}


def test_a_member_read_by_an_unannotated_function_changes_that_function() -> None:
    files = {
        "c.py": C,
        "n.py": "from c import C\ndef g(c: C):\n    return c.method()\n",
        "p.py": "from n import g\nfrom c import C\ng(C())\n",
    }
    assert affected(files, {"c.py": C_METHOD}) == {"n.py", "p.py"}


@pytest.mark.parametrize(
    ("header", "member_old", "member_new"),
    [
        (
            "class C:",
            "def __eq__(self, o: object) -> bool: ...",
            "def __eq__(self, o: int) -> bool: ...",
        ),
        ("class C:", "def read(self) -> bytes: ...", "def read(self) -> str: ..."),  # typeshed
        ("class C(Protocol):", "def method(self) -> int: ...", "def method(self) -> str: ..."),
        ("class C(Enum):", "A = 1", "A = 'a'"),
        ("@dataclass\nclass C:", "x: int = 0", "x: str = ''"),
        ("class C(NamedTuple):", "x: int", "x: str"),
        ("class C(TypedDict):", "x: int", "x: str"),
        (
            "class C(ABC):",
            "def method(self) -> int: ...",
            "@abstractmethod\ndef method(self) -> int: ...",
        ),
        ("class C(LibraryBase):", "def method(self) -> int: ...", "def renamed(self) -> int: ..."),
        ("class C:", "class Inner: ...", "class Inner:\n    x = 1"),
        ("class C[T]:", "def method(self) -> T: ...", "def method(self) -> list[T]: ..."),
    ],
)
def test_a_member_seen_without_its_name_is_a_change_of_the_whole_class(
    header: str, member_old: str, member_new: str
) -> None:
    """Dunders (syntax), Protocol member names (structural matching), Protocol/Enum classes,
    fields of dataclass-like classes, abstractness, members of classes from outside, nested
    classes, inferred variance: code that only holds a ``C`` sees these."""
    imports = (
        "from typing import Protocol, NamedTuple, TypedDict\nfrom enum import Enum\n"
        "from dataclasses import dataclass\nfrom abc import ABC, abstractmethod\n"
        "from lib import LibraryBase\n"
    )

    def module(member: str) -> str:
        body = textwrap.indent(member, "    ")
        return imports + header + "\n" + body + "\n"

    files = {
        "c.py": module(member_old),
        "make.py": "from c import C\ndef make() -> C: ...\n",
        "holder.py": "from make import make\nvalue = make()\nvalue == value\n",
    }
    assert affected(files, {"c.py": module(member_new)}) == {"make.py", "holder.py"}


def test_members_whose_name_a_project_protocol_lists_are_structural() -> None:
    files = {
        "shape.py": "from typing import Protocol\n"
        "class Shape(Protocol):\n    def area(self) -> float: ...\n",
        "c.py": "class Square:\n    def area(self) -> float:\n        return 1.0\n",
        "use.py": "from c import Square\nfrom shape import Shape\ns: Shape = Square()\n",
    }
    new = "class Square:\n    def area(self) -> str:\n        return ''\n"
    assert "use.py" in affected(files, {"c.py": new})


def test_without_the_libraries_protocols_every_member_change_is_a_class_change() -> None:
    files = {"c.py": C, "use.py": "from c import C\nx = C()\n"}
    assert affected(files, {"c.py": C_METHOD}, protocols=None) == {"use.py"}
    assert affected(files, {"c.py": C_METHOD}, protocols=()) == set()


def test_plain_member_changes_leave_holders_of_the_class_alone() -> None:
    files = {
        "c.py": C,
        "make.py": "from c import C\ndef make() -> C: ...\n",
        "holder.py": "from make import make\nvalue = make()\nvalue.untouched()\n",
    }
    assert affected(files, {"c.py": C_METHOD}) == set()


def test_a_class_header_change_reaches_holders_and_subclasses() -> None:
    files = {
        "c.py": "class Base: ...\nclass C: ...\n",
        "make.py": "from c import C\ndef make() -> C: ...\n",
        "holder.py": "from make import make\nvalue = make()\n",
        "sub.py": "from c import C\nclass D(C): ...\n",
        "sub_user.py": "from sub import D\nD()\n",
        "bystander.py": "from c import Base\n",
    }
    new = "class Base: ...\nclass C(Base): ...\n"
    assert affected(files, {"c.py": new}) == {"make.py", "holder.py", "sub.py", "sub_user.py"}


def test_a_member_added_to_a_plain_class_reaches_only_spellers() -> None:
    files = {"c.py": C, "a.py": "from c import C\nC().fresh()\n", "b.py": "from c import C\n"}
    new = C.replace(
        "    def untouched",
        "    def fresh(self) -> int:\n            return 1\n\n        def untouched",
    )
    assert affected(files, {"c.py": new}) == {"a.py"}


# --- whole importers ---------------------------------------------------------------------------


IMPORTERS = {
    "pkg/__init__.py": "",
    "pkg/m.py": M,
    "a.py": "from pkg.m import other\n",
    "b.py": "import a\n",
    "c.py": "import os\n",
}
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


# --- the graph protocol -------------------------------------------------------------------------


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
