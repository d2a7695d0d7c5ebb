"""NameGraph.affected, class members: a member change reaches where its name is spelled and
subclasses; a member seen without its name, a protocol's member or a class header change is a
change of the whole class.

Each test names the files whose pyright diagnostics can change and checks they are all kept.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.unit.name_deps_helpers import affected, src

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
