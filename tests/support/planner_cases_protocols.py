"""Catalogue: structural typing (a Protocol in every spelling) and Enums typed from elsewhere.

A member of a plain class whose name no visible Protocol has reaches only the files that spell
it; the planner must therefore find *every* Protocol, however it is written. Here a plain
``Impl.frob`` changes its type while a file assigns an ``Impl`` to a Protocol with ``frob``,
without ever spelling ``.frob``. Member names are chosen outside typeshed's Protocols (``frob``,
``compute``), so only the spelling under test can make the planner see them.
"""

from __future__ import annotations

from tests.support.planner_case import Case, src

IMPL = src("""
    class Impl:
        def frob(self) -> int:
            return 1
""")
IMPL_STR = src("""
    class Impl:
        def frob(self) -> str:
            return ""
""")
USE = src("""
    from pkg.impl import Impl
    from pkg.proto import P

    p: P = Impl()
""")


def _protocol(name: str, proto: str, use: str = USE, proto_path: str = "pkg/proto.py") -> Case:
    files = {"pkg/__init__.py": "", "pkg/impl.py": IMPL, proto_path: src(proto), "pkg/use.py": use}
    return Case(name, "a member name of a Protocol", files, {"pkg/impl.py": IMPL_STR})


def _local(name: str, use: str) -> Case:
    files = {"pkg/__init__.py": "", "pkg/impl.py": IMPL, "pkg/use.py": src(use)}
    return Case(name, "a member name of a Protocol", files, {"pkg/impl.py": IMPL_STR})


METHOD = "\n    def frob(self) -> int: ...\n"
PROTOCOLS = [
    _protocol("proto_plain", "from typing import Protocol\n\nclass P(Protocol):" + METHOD),
    _protocol("proto_typing_attr", "import typing\n\nclass P(typing.Protocol):" + METHOD),
    _protocol("proto_module_alias", "import typing as t\n\nclass P(t.Protocol):" + METHOD),
    _protocol(
        "proto_renamed_import", "from typing import Protocol as Shape\n\nclass P(Shape):" + METHOD
    ),
    _protocol(
        "proto_typing_extensions",
        "from typing_extensions import Protocol\n\nclass P(Protocol):" + METHOD,
    ),
    _protocol("proto_star_typing", "from typing import *\n\nclass P(Protocol):" + METHOD),
    _protocol(
        "proto_bound_to_variable",
        "from typing import Protocol\n\nBase = Protocol\n\nclass P(Base):" + METHOD,
    ),
    _protocol(
        "proto_generic",
        "from typing import Protocol, TypeVar\n\nT = TypeVar('T', covariant=True)\n\n"
        "class P(Protocol[T]):\n    def frob(self) -> T: ...\n",
        USE.replace("p: P =", "p: P[int] ="),
    ),
    _protocol(
        "proto_inherited_alias",
        "from typing import Protocol\n\nclass Base(Protocol):"
        + METHOD
        + "\nAlias = Base\n\nclass P(Alias, Protocol):\n    pass\n",
    ),
    _protocol(
        "proto_inherited_from_renamed",
        "from typing import Protocol as Shape\n\nclass Base(Shape):"
        + METHOD
        + "\nclass P(Base, Shape):\n    pass\n",
    ),
    _protocol(
        "proto_type_checking",
        "from typing import TYPE_CHECKING, Protocol\n\nif TYPE_CHECKING:\n"
        "    class P(Protocol):\n        def frob(self) -> int: ...\n"
        "else:\n    P = object\n",
    ),
    _protocol(
        "proto_in_stub",
        "from typing import Protocol\n\nclass P(Protocol):" + METHOD,
        proto_path="pkg/proto.pyi",
    ),
    Case(
        "proto_attribute_member",
        "a member name of a Protocol (an attribute)",
        {
            "pkg/__init__.py": "",
            "pkg/impl.py": "class Impl:\n    frob: int = 1\n",
            "pkg/proto.py": "from typing import Protocol\n\n\nclass P(Protocol):\n    frob: int\n",
            "pkg/use.py": USE,
        },
        {"pkg/impl.py": "class Impl:\n    frob: str = ''\n"},
    ),
    _protocol(
        "proto_as_parameter",
        "from typing import Protocol\n\nclass P(Protocol):"
        + METHOD
        + "\ndef take(p: P) -> None:\n    pass\n",
        "from pkg.impl import Impl\nfrom pkg.proto import take\n\ntake(Impl())\n",
    ),
    _local(
        "proto_in_function",
        """
        from typing import Protocol

        from pkg.impl import Impl


        def check() -> None:
            class P(Protocol):
                def frob(self) -> int: ...

            p: P = Impl()
            print(p)
        """,
    ),
    _local(
        "proto_nested_in_class",
        """
        from typing import Protocol

        from pkg.impl import Impl


        class Holder:
            class P(Protocol):
                def frob(self) -> int: ...


        p: Holder.P = Impl()
        """,
    ),
    _local(
        "proto_in_method",
        """
        from typing import Protocol

        from pkg.impl import Impl


        class Checker:
            def check(self) -> None:
                class P(Protocol):
                    def frob(self) -> int: ...

                p: P = Impl()
                print(p)
        """,
    ),
    Case(
        "proto_bundled_stub_not_installed",
        "a member name of a Protocol in a stub pyright bundles",
        {
            "pkg/__init__.py": "",
            "pkg/impl.py": src("""
                class Impl:
                    def symbol(self) -> str:
                        return ""

                    def value(self) -> None:
                        return None
            """),
            "pkg/use.py": src("""
                from gdb.FrameDecorator import SymValueWrapper

                from pkg.impl import Impl

                w: SymValueWrapper = Impl()
            """),
        },
        {
            "pkg/impl.py": src("""
                class Impl:
                    def symbol(self) -> int:
                        return 1

                    def value(self) -> None:
                        return None
            """)
        },
        bare_venv=True,  # the tests' own venv holds pyright, whose typeshed lists every stub
    ),
]

GNV = "def _generate_next_value_(name: str, start: int, count: int, last: list[object]) -> {}:"
MIXIN = f"class AutoName:\n    @staticmethod\n    {GNV}\n        return {{}}\n"
USE_VALUE = "from pkg.color import Color\n\nx: int = Color.RED.value\n"
ITER_VALUE = "from pkg.color import Color\n\nfor c in Color:\n    x: int = c.value\n"


def _enum(name: str, rule: str, files: dict[str, str], patch: dict[str, str | None]) -> Case:
    return Case(name, rule, {"pkg/__init__.py": "", **files}, patch)


ENUMS = [
    _enum(
        "enum_mixin_generate_next_value",
        "_generate_next_value_ on a plain mixin types auto()",
        {
            "pkg/mixin.py": MIXIN.format("int", "count"),
            "pkg/color.py": "from enum import Enum, auto\n\nfrom pkg.mixin import AutoName\n\n\n"
            "class Color(AutoName, Enum):\n    RED = auto()\n",
            "pkg/use.py": USE_VALUE,
        },
        {"pkg/mixin.py": MIXIN.format("str", "name")},
    ),
    _enum(
        "enum_star_import_base",
        "an Enum base in a module with a star import",
        {
            "pkg/base.py": "from enum import *\n\n\nclass Base(Enum):\n    @staticmethod\n    "
            + GNV.format("int")
            + "\n        return count\n",
            "pkg/color.py": "from enum import auto\n\nfrom pkg.base import Base\n\n\n"
            "class Color(Base):\n    RED = auto()\n",
            "pkg/use.py": USE_VALUE,
        },
        {
            "pkg/base.py": "from enum import *\n\n\nclass Base(Enum):\n    @staticmethod\n    "
            + GNV.format("str")
            + "\n        return name\n"
        },
    ),
    _enum(
        "enum_star_import_member_value",
        "an Enum in a module with a star import",
        {
            "pkg/color.py": "from enum import *\n\n\nclass Color(Enum):\n    RED = 1\n",
            "pkg/use.py": ITER_VALUE,
        },
        {"pkg/color.py": "from enum import *\n\n\nclass Color(Enum):\n    RED = 'r'\n"},
    ),
    _enum(
        "enum_value_annotation_on_mixin",
        "_value_ declared on a plain mixin types .value",
        {
            "pkg/mixin.py": "class Valued:\n    _value_: int\n",
            "pkg/color.py": "from enum import Enum\n\nfrom pkg.mixin import Valued\n\n\n"
            "class Color(Valued, Enum):\n    RED = 1\n",
            "pkg/use.py": USE_VALUE,
        },
        {"pkg/mixin.py": "class Valued:\n    _value_: str\n"},
    ),
    _enum(
        "enum_aliased_base",
        "an Enum through a module-level alias of Enum",
        {
            "pkg/color.py": "import enum\n\nE = enum.Enum\n\n\nclass Color(E):\n    RED = 1\n",
            "pkg/use.py": ITER_VALUE,
        },
        {"pkg/color.py": "import enum\n\nE = enum.Enum\n\n\nclass Color(E):\n    RED = 'r'\n"},
    ),
    _enum(
        "enum_functional",
        "an Enum made by a call",
        {
            "pkg/color.py": "from enum import Enum\n\nColor = Enum('Color', 'RED GREEN')\n",
            "pkg/use.py": "from pkg.color import Color\n\nprint(Color.GREEN)\n",
        },
        {"pkg/color.py": "from enum import Enum\n\nColor = Enum('Color', 'RED BLUE')\n"},
    ),
    _enum(
        "enum_member_added_exhaustive_match",
        "an Enum member added (exhaustiveness)",
        {
            "pkg/color.py": "from enum import Enum\n\n\nclass Color(Enum):\n    RED = 1\n",
            "pkg/use.py": src("""
                from pkg.color import Color


                def code(c: Color) -> int:
                    match c:
                        case Color.RED:
                            return 1
            """),
        },
        {
            "pkg/color.py": "from enum import Enum\n\n\n"
            "class Color(Enum):\n    RED = 1\n    BLUE = 2\n"
        },
    ),
]
