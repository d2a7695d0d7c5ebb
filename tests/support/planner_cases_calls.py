"""Catalogue: a function whose parameters change but whose declared result cannot
(``names.calls``): only the files that call it are rechecked, unless its value or its call's
value escapes. Each case breaks one condition of the rule and puts the diagnostic that shows
it one file further (``far``), so a rule that pruned too much would miss it. The patches make
an invalid call valid (its value turns from ``Unknown`` to ``None``), so the far diagnostic is
introduced, not removed: the wrong green the rule must never give.
"""

from __future__ import annotations

from tests.support.planner_case import Case

FROB = "def frob(msg: str) -> None:\n    print(msg)\n"
FROB_2 = "def frob(msg: str, code: int) -> None:\n    print(msg)\n"
# ``g()`` was Unknown (an invalid call's value) and is None after the patch
FAR_UPPER = "from pkg.use import g\n\nx = g().upper()\n"
RETURNS = "from pkg.m import frob\n\n\ndef g():\n    return frob('a', 1)\n"
STATEMENT = "from pkg.m import frob\n\n\ndef g():\n    frob('a', 1)\n    return 1\n"
DECORATED = """\
from collections.abc import Callable
from typing import Any, NoReturn, overload


@overload
def deco(fn: Callable[[str], None]) -> Callable[[str], NoReturn]: ...
@overload
def deco(fn: Callable[..., None]) -> Callable[..., None]: ...
def deco(fn: Any) -> Any:
    return fn


@deco
"""
RULE = "names.calls: a function whose parameters change but whose result cannot"


def _calls(name: str, files: dict[str, str], patch: dict[str, str], changes: bool = True) -> Case:
    return Case(name, RULE, {"pkg/__init__.py": "", **files}, patch, changes=changes)


CALLS = [
    _calls(
        "calls_value_returned",
        {"pkg/m.py": FROB, "pkg/use.py": RETURNS, "pkg/far.py": FAR_UPPER},
        {"pkg/m.py": FROB_2},
    ),
    _calls(
        "calls_value_reexported",
        {
            "pkg/m.py": FROB,
            "pkg/__init__.py": "from pkg.m import frob as frob\n",
            "pkg/use.py": "from pkg import frob\n\n\ndef g():\n    return frob('a', 1)\n",
            "pkg/far.py": FAR_UPPER,
        },
        {"pkg/m.py": FROB_2},
    ),
    _calls(
        "calls_value_through_module_alias",
        {
            "pkg/m.py": FROB,
            "pkg/use.py": "from pkg import m\n\n\ndef g():\n    return m.frob('a', 1)\n",
            "pkg/far.py": FAR_UPPER,
        },
        {"pkg/m.py": FROB_2},
    ),
    _calls(
        # the module object as a value: the function is reached by spelling its name elsewhere
        "calls_module_value",
        {
            "pkg/m.py": FROB,
            "pkg/mod.py": "from pkg import m\n\n\ndef get():\n    return m\n",
            "pkg/use.py": "from pkg.mod import get\n\n\ndef g():\n    return get().frob('a', 1)\n",
            "pkg/far.py": FAR_UPPER,
        },
        {"pkg/m.py": FROB_2},
    ),
    _calls(
        # two functions reached through one module value: each name is spelled on its own
        "calls_two_through_module_value",
        {
            "pkg/m.py": FROB + "\n\ndef note(msg: str) -> None:\n    print(msg)\n",
            "pkg/mod.py": "from pkg import m\n\n\ndef get():\n    return m\n",
            "pkg/use.py": "from pkg.mod import get\n\n\ndef g():\n    return get().note('a', 1)\n",
            "pkg/far.py": FAR_UPPER,
        },
        {"pkg/m.py": FROB_2 + "\n\ndef note(msg: str, code: int) -> None:\n    print(msg)\n"},
    ),
    _calls(
        # a module matched structurally against a Protocol with a member of the function's name
        "calls_module_matches_protocol",
        {
            "pkg/m.py": FROB_2,
            "pkg/mod.py": "from pkg import m\n\n\ndef get():\n    return m\n",
            "pkg/far.py": "from typing import Protocol\n\nfrom pkg.mod import get\n\n\n"
            "class HasFrob(Protocol):\n    def frob(self, msg: str, code: int) -> None: ...\n\n\n"
            "def take(p: HasFrob) -> None:\n    pass\n\n\ntake(get())\n",
        },
        {"pkg/m.py": FROB},
    ),
    _calls(
        # bidirectional inference: the walrus target takes the parameter's type
        "calls_walrus_argument",
        {
            "pkg/m.py": "def frob(msg: list[str]) -> None:\n    print(msg)\n",
            "pkg/use.py": "from pkg.m import frob\n\nfrob(items := [])\n",
            "pkg/far.py": "from pkg.use import items\n\nitems.append('s')\n",
        },
        {"pkg/m.py": "def frob(msg: list[int]) -> None:\n    print(msg)\n"},
    ),
    _calls(
        "calls_function_as_value",
        {
            "pkg/m.py": FROB,
            "pkg/use.py": "from pkg.m import frob\n\ncb = frob\n",
            "pkg/far.py": "from pkg.use import cb\n\ncb('a')\n",
        },
        {"pkg/m.py": FROB_2},
    ),
    _calls(
        "calls_partial",
        {
            "pkg/m.py": FROB,
            "pkg/use.py": "import functools\n\nfrom pkg.m import frob\n\n"
            "cb = functools.partial(frob, 'a')\n",
            "pkg/far.py": "from pkg.use import cb\n\ncb()\n",
        },
        {"pkg/m.py": FROB_2},
    ),
    _calls(
        # the result annotation changes: the call becomes NoReturn, what follows unreachable
        "calls_result_becomes_noreturn",
        {
            "pkg/m.py": "from typing import NoReturn\n\n\n"
            "def frob(msg: str) -> NoReturn:\n    raise ValueError(msg)\n",
            "pkg/use.py": "from pkg.m import frob\n\n\ndef g():\n    frob('a')\n    return 1\n",
            "pkg/far.py": "from pkg.use import g\n\n\ndef k() -> str:\n    return g()\n",
        },
        {"pkg/m.py": "def frob(msg: str, code: int = 0) -> None:\n    print(msg)\n"},
    ),
    _calls(
        # a decorator decides what a call is: an overload picked by the signature makes a
        # statement call NoReturn, and what follows it unreachable, or not
        "calls_decorated",
        {
            "pkg/m.py": DECORATED + "def frob(msg: str) -> None:\n    print(msg)\n",
            "pkg/use.py": "from pkg.m import frob\n\n\ndef g():\n    frob('a')\n    return 1\n",
            "pkg/far.py": "from pkg.use import g\n\n\ndef k() -> str:\n    return g()\n",
        },
        {"pkg/m.py": DECORATED + "def frob(msg: str, code: int) -> None:\n    print(msg)\n"},
    ),
    _calls(
        # an unannotated function losing an unused defaulted parameter: with it, ``f(u, u)``
        # (``u`` Unknown) ran call-site inference (the default's type is known) and typed ``k``
        # from its argument, Unknown; without it, every argument is Unknown, so no call-site
        # inference, and ``k`` is ``int`` from its default: ``h``'s result changes though no call
        # did (pyright's ``allArgTypesAreUnknown``; docs/bench.md, the Django signature change)
        "calls_unused_default_flips_call_site_inference",
        {
            "pkg/m.py": "def f(x, k=0, p=None):\n    return (x, k)\n",
            "pkg/use.py": "from pkg.m import f\n\n\ndef h(u):\n    return f(u, u)\n",
            "pkg/far.py": "from pkg.use import h\n\n\ndef g(v):\n    return h(v)[1].nonexistent\n",
        },
        {"pkg/m.py": "def f(x, k=0):\n    return (x, k)\n"},
    ),
    _calls(
        # statement calls only: the callers are rechecked, ``far`` cannot change (a control)
        "calls_statement_only",
        {
            "pkg/m.py": FROB,
            "pkg/use.py": STATEMENT,
            "pkg/far.py": "from pkg.use import g\n\nx: str = g()\n",
        },
        {"pkg/m.py": FROB_2},
    ),
]
