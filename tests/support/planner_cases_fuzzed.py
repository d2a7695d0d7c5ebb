"""Catalogue: misses the planner fuzzer found (``tests/support/py_fuzzgen.py``), shrunk.

Each case is the fuzzer's reproduction written by hand at its smallest; the fuzzer's seed and
change are named in the case's rule.

Trivial bodies: pyright takes a method as unimplemented when its body is only ``...`` and
strings (with at least one ``...``) or when it always raises ``NotImplementedError``, wherever
in the body the ``raise`` is; ``pass`` and a lone docstring are implemented. A Protocol's
unimplemented method makes an explicit subclass abstract; ``super()`` calls of an unimplemented
abstract method are errors.
"""

from __future__ import annotations

from tests.support.planner_case import Case, src

RULE = "a body pyright takes as unimplemented (fuzz: trivial bodies)"
PROTOCOL = "from typing import Protocol\n\n\nclass Base(Protocol):\n    def compute(self) -> int:\n"
ABSTRACT = src("""
    from abc import ABC, abstractmethod


    class Base(ABC):
        @abstractmethod
        def compute(self) -> int:
""")
SUBCLASS = "from pkg.base import Base\n\n\nclass Impl(Base):\n    pass\n"
SUPER = src("""
    from pkg.base import Base


    class Impl(Base):
        def compute(self) -> int:
            return super().compute()
""")
USE = "from pkg.impl import Impl\n\nobj = Impl()\n"


def _body(name: str, head: str, before: str, after: str, impl: str = SUBCLASS) -> Case:
    """``Base.compute``'s body changes from ``before`` to ``after`` (indented lines)."""
    files = {"pkg/__init__.py": "", "pkg/base.py": head + before, "pkg/impl.py": impl,
             "pkg/use.py": USE}  # fmt: skip
    return Case(name, RULE, files, {"pkg/base.py": head + after})


TRIVIAL_BODIES = [
    _body("fuzz_protocol_docstring_to_ellipsis", PROTOCOL, '        """Doc."""\n', "        ...\n"),
    _body(
        "fuzz_protocol_docstring_to_docstring_ellipsis",
        PROTOCOL,
        '        """Doc."""\n',
        '        """Doc."""\n        ...\n',
    ),
    _body("fuzz_protocol_pass_to_ellipsis", PROTOCOL, "        pass\n", "        ...\n"),
    _body(
        "fuzz_protocol_raise_after_a_statement",
        PROTOCOL,
        "        return 0\n",
        "        x = 1\n        raise NotImplementedError\n",
    ),
    _body(
        "fuzz_abstract_pass_to_ellipsis_super", ABSTRACT, "        pass\n", "        ...\n", SUPER
    ),
    _body(  # both raise NotImplementedError; only the second always does (fuzz seed 30413)
        "fuzz_protocol_conditional_raise_to_raise",
        "import sys\n" + PROTOCOL,
        "        if sys.argv:\n            raise NotImplementedError\n        return 0\n",
        "        x = 1\n        raise NotImplementedError\n",
    ),
]

# ``__all__`` decides what a star import binds; pyright reads it when annotated and through
# ``append``/``extend``/``remove``/``+=`` too.
ALL_RULE = "__all__ in every form pyright reads (fuzz: all_drop)"
F_G = "\n\ndef f() -> int:\n    return 1\n\n\ndef g() -> int:\n    return 2\n"
STAR_USE = "from pkg.m import *\n\nprint(f(), g())\n"


def _all(name: str, before: str, after: str) -> Case:
    files = {"pkg/__init__.py": "", "pkg/m.py": before + F_G, "pkg/use.py": STAR_USE}
    return Case(name, ALL_RULE, files, {"pkg/m.py": after + F_G})


ALL_FORMS = [
    _all("fuzz_all_annotated", "__all__: list[str] = ['f', 'g']\n", "__all__: list[str] = ['f']\n"),
    _all(
        "fuzz_all_append",
        "__all__: list[str] = []\n__all__.append('f')\n__all__.append('g')\n",
        "__all__: list[str] = []\n__all__.append('f')\n",
    ),
    _all(
        "fuzz_all_remove", "__all__ = ['f', 'g']\n", "__all__ = ['f', 'g']\n__all__.remove('g')\n"
    ),
]


# A package ``m/`` added beside a module ``m.py`` shadows it (pyright, like Python, takes the
# package): the names the module exported are lost, through star imports too.
SHADOW_RULE = "a package added beside a module of the same name (fuzz: shadow_package)"
PKG_M = {"pkg/__init__.py": "", "pkg/m.py": "def f() -> int:\n    return 1\n"}
STAR_HUB_USE = "from pkg.hub import *\n\nx: int = f()\n"
HUB_USE = "from pkg.hub import f\n\nx: int = f()\n"
SHADOWED = [
    Case(
        "fuzz_package_shadows_module_star_chain",
        SHADOW_RULE,
        {**PKG_M, "pkg/hub.py": "from pkg.m import *\n", "pkg/use.py": STAR_HUB_USE},
        {"pkg/m/__init__.py": ""},
    ),
    Case(
        "fuzz_package_shadows_module_direct",
        SHADOW_RULE,
        {**PKG_M, "pkg/use.py": "from pkg.m import f\n\nx: int = f()\n"},
        {"pkg/m/__init__.py": ""},
    ),
    Case(  # the shadowed file itself: pyright's diagnostics of it change (fuzz seed 30337)
        "fuzz_package_shadows_module_own_diagnostics",
        SHADOW_RULE,
        {
            "pkg/__init__.py": "",
            "pkg/types.py": "from typing import Final as WFin\n",
            "pkg/m.py": "import pkg.types as types_mod\n\nLIMIT: types_mod.WFin = 4\n",
            "pkg/hub.py": "from pkg.m import *\n",
        },
        {"pkg/m/__init__.py": ""},
    ),
    Case(
        "fuzz_package_shadows_module_reexport",
        SHADOW_RULE,
        {**PKG_M, "pkg/hub.py": "from pkg.m import f as f\n", "pkg/use.py": HUB_USE},
        {"pkg/m/__init__.py": ""},
    ),
]
# ``TypeAlias`` takes the value into the declaration under any name, also one a workspace
# module re-exports (``from pkg.types import MyTA``, ``types.MyTA``).
TYPES = "from typing import TypeAlias as MyTA\n"
ALIAS_USE = "from pkg.m import Num\n\nx: Num = 1\n"


def _alias(name: str, head: str, ann: str) -> Case:
    files = {"pkg/__init__.py": "", "pkg/types.py": TYPES, "pkg/use.py": ALIAS_USE}
    before, after = f"{head}\nNum: {ann} = int\n", f"{head}\nNum: {ann} = str\n"
    return Case(name, ALIAS_RULE, {**files, "pkg/m.py": before}, {"pkg/m.py": after})


ALIAS_RULE = "TypeAlias by a name a workspace module gives it (fuzz: probe)"
REEXPORTED = [
    _alias("fuzz_typealias_reexported", "from pkg.types import MyTA\n", "MyTA"),
    _alias("fuzz_typealias_module_attribute", "from pkg import types\n", "types.MyTA"),
]
# ``import pkg.m2`` imports ``pkg/__init__.py`` for pyright's cycle report (it binds ``pkg``);
# a relative ``from .m0 import x`` does not (fuzz seed 30401).
CYCLE_RULE = "an import cycle as pyright reports it (fuzz: cycle)"
CYCLE_BASE = {
    "pkg/__init__.py": "from pkg.m1 import X\n",
    "pkg/m0.py": "Y = 1\n",
    "pkg/m1.py": "from .m0 import Y\n\nX = Y\n",
    "pkg/m2.py": "",
}


def _cycle(name: str, added: str, changes: bool = True) -> Case:
    """``pkg/m1.py`` (imported by ``pkg/__init__.py``) gains the import ``added``."""
    patch = {"pkg/m1.py": added + "from .m0 import Y\n\nX = Y\n"}
    config = 'reportImportCycles = "error"'
    return Case(name, CYCLE_RULE, CYCLE_BASE, patch, config=config, changes=changes)


CYCLES = [
    _cycle("fuzz_cycle_through_package_init", "import pkg.m2\n"),
    _cycle("fuzz_cycle_from_package_import", "from . import m2\n"),
    _cycle(
        "fuzz_cycle_type_checking_import",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import pkg.m2\n",
    ),
    _cycle("fuzz_cycle_not_through_import_as", "import pkg.m2 as m2\n", changes=False),
    # The shape of fuzz seed 10096's wrong green: the daemon pulled the patched file before
    # the importers were open, and the language server's cycle report follows open files only,
    # so the cycle m2 -> lib -> pkg.m3 -> m2 went unseen in m2 (fixed: ``checker._checked_again``).
    # This small tree passes with or without the fix; the fuzzer's batch reproduces it
    # (PREWRITE_FUZZ_SEED=10096 PREWRITE_FUZZ_PROGRAMS=4, ``-k long_run``).
    Case(
        "fuzz_cycle_closed_through_importers",
        CYCLE_RULE,
        {
            "pkg/__init__.py": "",
            "pkg/m2.py": "def frob() -> int:\n    return 1\n",
            "pkg/m3.py": "from .m2 import frob\n\nbound = frob()\n",
            "lib/__init__.py": "from pkg.m3 import bound\n\nw: int = bound\n",
        },
        {"pkg/m2.py": "import lib\n\n\ndef frob() -> int:\n    return 1\n"},
        config='reportImportCycles = "error"',
    ),
]
FUZZED = [*TRIVIAL_BODIES, *ALL_FORMS, *SHADOWED, *REEXPORTED, *CYCLES]
