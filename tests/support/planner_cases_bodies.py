"""Catalogue: statements that look inert in a function body but are not (``names.bodies``).

An edit that only adds, removes or changes *inert statements* (``pass``, a docstring, a constant
on a line of its own) of an implemented body leaves other modules' types alone, so the planner
re-checks only the patched file. Each case below breaks one condition and shows it in another
file: a ``pass`` or a constant whose removal leaves a stub (unimplemented to pyright, in a
Protocol and under ``@abstractmethod``), and stores, which are never inert (a store read by a
closure, one declared ``global``). The controls (``changes=False``) are inert edits of a hub
called across files.

``DEAD_STORES`` tempt ``names.dead_stores``: a dead store (``_d = 0``, read by nothing) changes
only the function's code-flow complexity, and pyright stops inferring its return type at call
sites at 8 (``f(1)`` is then Unknown, not ``int``). Real values (an instrumented pyright
1.1.414): ``_stores(k)`` is (2 + k) / 40, so 316 stores are 7.95 and 318 are 8.0; ``_branch(275,
"pass")`` is 7.0 and ``_branch(275, "_e = 0")`` 8.025 (the store makes the ``if``'s merge label
real: +1).
"""

from __future__ import annotations

from tests.support.planner_case import Case, src

RULE = "names.bodies.live_body: an inert statement is invisible outside its module"


def _case(name: str, m: str, patched: str, far: str, *, changes: bool = True) -> Case:
    files = {"pkg/__init__.py": "", "pkg/m.py": src(m), "pkg/far.py": src(far)}
    return Case(name, RULE, files, {"pkg/m.py": src(patched)}, changes=changes)


HUB = '''
    def capfirst(x):
        """Capitalize the first letter."""
        if not x:
            return x
        if not isinstance(x, str):
            x = str(x)
        return x[0].upper() + x[1:]
'''
HUB_FAR = """
    from pkg.m import capfirst

    a: int = capfirst("a")
    b: str = capfirst(1)
    c = capfirst(None)
"""
ABSTRACT = """
    from abc import ABC, abstractmethod


    class Base(ABC):
        @abstractmethod
        def n(self):
            {}
            ...
"""
STUB = '''
    from typing import Protocol


    class P(Protocol):
        def meth(self):
            """Doc."""
            {}
            ...
'''

CALLS_F = "from pkg.m import f\n\na: str = f(1)\n"


def _stores(k: int, tail: str = "") -> str:
    return "def f(x):\n" + "".join(f"    _d{i} = 0\n" for i in range(k)) + tail + "    return x\n"


def _branch(k: int, body: str) -> str:
    return _stores(k, f"    if x + 1:\n        {body}\n")


def _salted(where: str) -> str:
    indent = where[: len(where) - len(where.lstrip())]
    return HUB.replace(where, f"{indent}_pw_salt = 'run 1'\n{where}")


ABSTRACT_FAR = (
    "from pkg.m import Base\n\n\nclass D(Base):\n    def n(self):\n        return super().n()\n"
)

BODIES = [
    _case(
        "dead_store_read_by_a_closure",
        "def f():\n    _y = 'a'\n\n    def g():\n        return _y\n\n    return g()\n",
        "def f():\n    _y = 1\n\n    def g():\n        return _y\n\n    return g()\n",
        "from pkg.m import f\n\nf().upper()\n",
    ),
    _case(
        "dead_store_declared_global",
        "VALUE = 'a'\n\n\ndef f():\n    global VALUE\n    VALUE = 'b'\n",
        "VALUE = 'a'\n\n\ndef f():\n    global VALUE\n    VALUE = 1\n",
        "from pkg.m import VALUE\n\nVALUE.upper()\n",
    ),
    _case(
        "dead_store_keeps_a_body_implemented",
        STUB.format("_y = 1"),
        STUB.format(""),
        "from pkg.m import P\n\n\nclass C(P):\n    pass\n\n\nC()\n",
    ),
    _case(
        "inert_pass_before_a_stub",
        STUB.format("pass"),
        STUB.format(""),
        "from pkg.m import P\n\n\nclass C(P):\n    pass\n\n\nC()\n",
    ),
    _case(
        "inert_constant_before_a_stub",
        STUB.format("0"),
        STUB.format(""),
        "from pkg.m import P\n\n\nclass C(P):\n    pass\n\n\nC()\n",
    ),
    _case(
        "inert_pass_before_an_abstract_stub",
        ABSTRACT.format("pass"),
        ABSTRACT.format(""),
        ABSTRACT_FAR,
    ),
    _case(
        "inert_docstring_of_a_hub_control",
        HUB,
        HUB.replace("Capitalize the first letter.", "Upper-case the first letter."),
        HUB_FAR,
        changes=False,
    ),
    _case(
        "inert_pass_in_a_branch_of_a_hub_control",
        HUB,
        HUB.replace("            x = str(x)\n", "            x = str(x)\n            pass\n"),
        HUB_FAR,
        changes=False,
    ),
]

DEAD_STORES = [
    _case("dead_stores_under_the_call_site_limit_control", _stores(300), _stores(316), CALLS_F,
          changes=False),
    _case("dead_stores_cross_the_call_site_limit", _stores(316), _stores(318), CALLS_F),
    _case("dead_store_makes_a_merge_label_real", _branch(275, "pass"), _branch(275, "_e = 0"),
          CALLS_F),
    _case("dead_store_in_a_hub_control", HUB, _salted("        if not x:\n"), HUB_FAR,
          changes=False),
    _case("dead_store_in_a_branch_of_a_hub_control", HUB, _salted("            x = str(x)\n"),
          HUB_FAR, changes=False),
    _case("dead_store_of_a_tuple_in_a_hub_control", HUB,
          HUB.replace("        if not x:\n", "        _pw = (1, -2, 'a')\n        if not x:\n"),
          HUB_FAR, changes=False),
]  # fmt: skip
