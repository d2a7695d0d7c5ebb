"""Catalogue: what a module binds and where pyright finds it.

Stub packages (``<name>-stubs`` at the root, ``typings/``, a configured ``stubPath``, a stub
beside its source), PEP 695 statements under ``pythonVersion = "3.12"``, re-exports, aliases,
``__all__``, star imports, a module ``__getattr__``, definitions under ``TYPE_CHECKING`` and
``sys.version_info``, a workspace ``__builtins__.pyi`` and a module shadowing the stdlib.
"""

from __future__ import annotations

from tests.support.planner_case import Case, src

LIB = "def f() -> int:\n    return 1\n"
LIB_USE = "from lib import f\n\nx: int = f()\n"
STUB_STR = "def f() -> str: ...\n"
PY312 = 'pythonVersion = "3.12"'
F_INT = "def f() -> int:\n    return 1\n\n\ndef g() -> int:\n    return 2\n"
F_STR = "def f() -> str:\n    return ''\n\n\ndef g() -> int:\n    return 2\n"


def _stub(name: str, rule: str, stub: str, base_stub: str | None = None, config: str = "") -> Case:
    files = {"lib/__init__.py": LIB, "pkg/__init__.py": "", "pkg/use.py": LIB_USE}
    if base_stub is not None:
        files[stub] = "def f() -> int: ...\n"
    return Case(name, rule, files, {stub: STUB_STR}, config=config)


def _names(
    name: str,
    rule: str,
    files: dict[str, str],
    patch: dict[str, str | None],
    config: str = "",
    changes: bool = True,
) -> Case:
    return Case(name, rule, {"pkg/__init__.py": "", **files}, patch, config, changes=changes)


STUBS = [
    _stub("stubs_package_added", "a <name>-stubs package at the root", "lib-stubs/__init__.pyi"),
    _stub(
        "stubs_package_changed",
        "a <name>-stubs package at the root",
        "lib-stubs/__init__.pyi",
        base_stub="",
    ),
    _stub("typings_package_added", "a stub under stubPath (typings/)", "typings/lib/__init__.pyi"),
    _stub("typings_module_added", "a stub under stubPath (typings/)", "typings/lib.pyi"),
    _stub("stub_beside_source_added", "a stub beside its source", "lib/__init__.pyi"),
    _stub("stub_beside_source_changed", "a stub beside its source", "lib/__init__.pyi", ""),
    _stub(
        "stubpath_configured",
        "a stub under a configured stubPath",
        "custom_stubs/lib/__init__.pyi",
        config='stubPath = "custom_stubs"',
    ),
]

PEP695 = [
    _names(
        "pep695_type_alias",
        "a PEP 695 type statement binds its name",
        {"pkg/m.py": "type Num = int\n", "pkg/use.py": "from pkg.m import Num\n\nx: Num = 1\n"},
        {"pkg/m.py": "type Num = str\n"},
        PY312,
    ),
    _names(
        "pep695_alias_reexported",
        "a PEP 695 type statement binds its name",
        {
            "pkg/m.py": "type Num = int\n",
            "pkg/__init__.py": "from pkg.m import Num as Num\n",
            "pkg/use.py": "from pkg import Num\n\nx: Num = 1\n",
        },
        {"pkg/m.py": "type Num = str\n"},
        PY312,
    ),
    _names(
        "pep695_generic_class_variance",
        "PEP 695 type parameters infer variance",
        {
            "pkg/m.py": src("""
               class Box[T]:
                   def __init__(self, item: T) -> None:
                       self._item = item

                   def get(self) -> T:
                       return self._item
           """),
            "pkg/use.py": "from pkg.m import Box\n\n\ndef widen(b: Box[int]) -> Box[object]:\n"
            "    return b\n",
        },
        {
            "pkg/m.py": src("""
               class Box[T]:
                   def __init__(self, item: T) -> None:
                       self._item = item

                   def get(self) -> T:
                       return self._item

                   def put(self, item: T) -> None:
                       self._item = item
           """)
        },
        PY312,
    ),
    _names(
        "pep695_generic_function",
        "a PEP 695 generic function",
        {
            "pkg/m.py": "def first[T](xs: list[T]) -> T:\n    return xs[0]\n",
            "pkg/use.py": "from pkg.m import first\n\nx: int = first([1])\n",
        },
        {"pkg/m.py": "def first[T](xs: list[T]) -> list[T]:\n    return xs\n"},
        PY312,
    ),
    _names(
        "pep695_introduced",
        "the parse rung reads the project's Python version",
        {"pkg/m.py": "Num = int\n", "pkg/use.py": "from pkg.m import Num\n\nx: Num = 1\n"},
        {"pkg/m.py": "type Num = int\n"},
        PY312,
        changes=False,
    ),
]

REEXPORTS = [
    _names(
        "reexport_star_chain",
        "star imports, two hops",
        {
            "pkg/m.py": F_INT,
            "pkg/mid.py": "from pkg.m import *\n",
            "pkg/__init__.py": "from pkg.mid import *\n",
            "pkg/use.py": "from pkg import f\n\nx: int = f()\n",
        },
        {"pkg/m.py": F_STR},
    ),
    _names(
        "all_removes_name",
        "__all__ decides what a star import binds",
        {
            "pkg/m.py": "__all__ = ['f', 'g']\n\n" + F_INT,
            "pkg/use.py": "from pkg.m import *\n\nf()\n",
        },
        {"pkg/m.py": "__all__ = ['g']\n\n" + F_INT},
    ),
    _names(
        "all_dynamic",
        "an __all__ pyright cannot read",
        {
            "pkg/m.py": "__all__ = ['f', 'g']\n__all__ += list(())\n\n" + F_INT,
            "pkg/use.py": "from pkg.m import *\n\nx: int = f()\n",
        },
        {"pkg/m.py": "__all__ = ['f', 'g']\n__all__ += list(())\n\n" + F_STR},
    ),
    _names(
        "reexport_as_in_init",
        "a redundant-alias re-export",
        {
            "pkg/m.py": F_INT,
            "pkg/__init__.py": "from .m import f as f\n",
            "pkg/use.py": "import pkg\n\nx: int = pkg.f()\n",
        },
        {"pkg/m.py": F_STR},
    ),
    _names(
        "alias_chain",
        "an alias of an imported function",
        {
            "pkg/m.py": F_INT,
            "pkg/a.py": "from pkg.m import f\n\ng = f\n",
            "pkg/use.py": "from pkg.a import g\n\nx: int = g()\n",
        },
        {"pkg/m.py": F_STR},
    ),
    _names(
        "reexport_type_checking",
        "a re-export under TYPE_CHECKING",
        {
            "pkg/m.py": F_INT,
            "pkg/__init__.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from pkg.m import f as f\n",
            "pkg/use.py": "from pkg import f\n\nx: int = f()\n",
        },
        {"pkg/m.py": F_STR},
    ),
    _names(
        "submodule_attribute_dropped",
        "an __init__ import makes a submodule an attribute",
        {
            "pkg/sub.py": F_INT,
            "pkg/__init__.py": "from . import sub\n",
            "pkg/use.py": "import pkg\n\nx: int = pkg.sub.f()\n",
        },
        {"pkg/__init__.py": ""},
    ),
    _names(
        "star_import_later_wins",
        "the last star import binds a name",
        {
            "pkg/a.py": F_INT,
            "pkg/b.py": "def h() -> int:\n    return 3\n",
            "pkg/use.py": "from pkg.a import *\nfrom pkg.b import *\n\nx: int = f()\n",
        },
        {"pkg/b.py": "def h() -> int:\n    return 3\n\n\ndef f() -> str:\n    return ''\n"},
    ),
    _names(
        "module_getattr_changed",
        "a module __getattr__",
        {
            "pkg/m.py": "def __getattr__(name: str) -> int: ...\n",
            "pkg/use.py": "from pkg.m import anything\n\nx: int = anything\n",
        },
        {"pkg/m.py": "def __getattr__(name: str) -> str: ...\n"},
    ),
    _names(
        "module_getattr_added",
        "a module __getattr__",
        {"pkg/m.py": F_INT, "pkg/use.py": "from pkg import m\n\nx: int = m.missing\n"},
        {"pkg/m.py": F_INT + "\n\ndef __getattr__(name: str) -> int: ...\n"},
    ),
    _names(
        "type_checking_branch",
        "a definition under TYPE_CHECKING",
        {
            "pkg/m.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    def f() -> int: ...\nelse:\n    def f():\n        return 1\n",
            "pkg/use.py": "from pkg.m import f\n\nx: int = f()\n",
        },
        {
            "pkg/m.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    def f() -> str: ...\nelse:\n    def f():\n        return 1\n"
        },
    ),
    _names(
        "version_info_branch",
        "a definition under sys.version_info",
        {
            "pkg/m.py": "import sys\n\nif sys.version_info >= (3, 10):\n    Num = int\n"
            "else:\n    Num = str\n",
            "pkg/use.py": "from pkg.m import Num\n\nx: Num = 1\n",
        },
        {
            "pkg/m.py": "import sys\n\nif sys.version_info >= (3, 10):\n    Num = str\n"
            "else:\n    Num = int\n"
        },
    ),
    _names(
        "newtype_changed",
        "a NewType",
        {
            "pkg/m.py": "from typing import NewType\n\nUserId = NewType('UserId', int)\n",
            "pkg/use.py": "from pkg.m import UserId\n\nUserId(1)\n",
        },
        {"pkg/m.py": "from typing import NewType\n\nUserId = NewType('UserId', str)\n"},
    ),
    _names(
        "typevar_bound_changed",
        "a TypeVar's bound",
        {
            "pkg/m.py": "from typing import TypeVar\n\nT = TypeVar('T', bound=int)\n",
            "pkg/api.py": "from pkg.m import T\n\n\ndef ident(x: T) -> T:\n    return x\n",
            "pkg/use.py": "from pkg.api import ident\n\nident(1)\n",
        },
        {"pkg/m.py": "from typing import TypeVar\n\nT = TypeVar('T', bound=str)\n"},
    ),
    _names(
        "type_alias_type",
        "TypeAliasType",
        {
            "pkg/m.py": "from typing_extensions import TypeAliasType\n\n"
            "Num = TypeAliasType('Num', int)\n",
            "pkg/use.py": "from pkg.m import Num\n\nx: Num = 1\n",
        },
        {
            "pkg/m.py": "from typing_extensions import TypeAliasType\n\n"
            "Num = TypeAliasType('Num', str)\n"
        },
    ),
]

GLOBAL = [
    Case(
        "builtins_stub_added",
        "a workspace __builtins__.pyi",
        {"pkg/__init__.py": "", "pkg/use.py": "frobnicate()\n"},
        {"__builtins__.pyi": "def frobnicate() -> int: ...\n"},
        alone=True,
    ),
    Case(
        "module_shadows_installed",
        "a root module named like an installed package",
        {"pkg/__init__.py": "", "pkg/use.py": "from attr import define\n\nprint(define)\n"},
        {"attr.py": "def s() -> int:\n    return 1\n"},
        alone=True,
    ),
]
