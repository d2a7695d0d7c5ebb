"""Catalogue: statements that look inert in a function body but are not (``names.bodies``).

An edit that only adds, removes or changes *inert statements* (``pass``, a docstring, a constant
on a line of its own) of an implemented body leaves other modules' types alone, so the planner
re-checks only the patched file. Each case below breaks one condition and shows it in another
file: a ``pass`` or a constant whose removal leaves a stub (unimplemented to pyright, in a
Protocol and under ``@abstractmethod``), and stores, which are never inert (a store read by a
closure, one declared ``global``). The controls (``changes=False``) are inert edits of a hub
called across files.
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
