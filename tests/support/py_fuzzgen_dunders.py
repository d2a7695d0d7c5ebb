"""Fuzz features: dunders and typeshed's Protocols, reached by syntax and the stdlib.

A class implements ``__len__``, ``__iter__``, ``__enter__``/``__exit__``, ``__add__``,
``__call__``, ``read`` (``json.load``'s ``SupportsRead``), ``__fspath__``, ``__index__``,
``__bool__``, ``__getitem__``, ``__contains__``, ``keys`` (``dict()``), ``__neg__``,
``__await__``, ``__lt__`` (``sorted``) or ``__eq__`` (hashability), itself, through a base in
another module, or as a nested class; the consumer uses it through syntax or a stdlib call and
never spells the member. Mutations retype or remove the member, or drop the base.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import TYPES, Block, Blocks, Feature, block, indent, other

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

EMPTY = Block()


# The typeshed Protocols and dunders syntax uses: kind -> (members, return type, use, headers).
DUNDERS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "len": ("def __len__(self) -> {t}:\n    return {v}", "int", "$n = len($X())", ()),
    "iter": (
        "def __iter__(self) -> Iterator[{t}]:\n    return iter([{v}])",
        "int",
        "for $v in $X():\n    $w: int = $v",
        ("from collections.abc import Iterator",),
    ),
    "with": (
        "def __enter__(self) -> {t}:\n    return {v}\n\n"
        "def __exit__(self, *args: object) -> None:\n    pass",
        "int",
        "with $X() as $v:\n    $w: int = $v",
        (),
    ),
    "add": (
        "def __add__(self, other: int) -> {t}:\n    return {v}",
        "int",
        "$v: int = $X() + 1",
        (),
    ),
    "call": (
        "def __call__(self, x: int) -> {t}:\n    return {v}",
        "int",
        "$cb: Callable[[int], int] = $X()",
        ("from collections.abc import Callable",),
    ),
    "read": (
        "def read(self, n: int = -1) -> {t}:\n    return {v}",
        "str",
        "$v = json.load($X())",
        ("import json",),
    ),
    "fspath": (
        "def __fspath__(self) -> {t}:\n    return {v}",
        "str",
        "$v: str = os.fspath($X())",
        ("import os",),
    ),
    "index": ("def __index__(self) -> {t}:\n    return {v}", "int", "$v = [1, 2][$X()]", ()),
    "bool": ("def __bool__(self) -> {t}:\n    return {v}", "bool", "if $X():\n    pass", ()),
    "getitem": (
        "def __getitem__(self, i: int) -> {t}:\n    return {v}",
        "int",
        "$v: int = $X()[0]",
        (),
    ),
    "contains": (
        "def __contains__(self, x: object) -> {t}:\n    return {v}",
        "bool",
        "$v: bool = 1 in $X()",
        (),
    ),
    "keys": (
        "def keys(self) -> list[str]:\n    return []\n\n"
        "def __getitem__(self, k: str) -> {t}:\n    return {v}",
        "int",
        "$d: dict[str, int] = dict($X())",
        (),
    ),
    "neg": ("def __neg__(self) -> {t}:\n    return {v}", "int", "$v: int = -$X()", ()),
    "await": (
        "def __await__(self) -> Generator[None, None, {t}]:\n    yield\n    return {v}",
        "int",
        "async def $f() -> int:\n    return await $X()",
        ("from collections.abc import Generator",),
    ),
    "lt": (
        "def __lt__(self, other: object) -> {t}:\n    return {v}",
        "bool",
        "$v = sorted([$X(), $X()])",
        (),
    ),
    "eq": ("def __eq__(self, other: object) -> {t}:\n    return {v}", "bool", "$s = {$X()}", ()),
    "fileno": (
        "def fileno(self) -> {t}:\n    return {v}",
        "int",
        "$r = select.select([$X()], [], [], 0)",
        ("import select",),
    ),
    "write": (
        "def write(self, s: str, /) -> {t}:\n    return {v}",
        "int",
        "print('x', file=$X())",
        (),
    ),
    "round": ("def __round__(self) -> {t}:\n    return {v}", "int", "$v: int = round($X())", ()),
    "abs": ("def __abs__(self) -> {t}:\n    return {v}", "int", "$v: int = abs($X())", ()),
    "int": ("def __int__(self) -> {t}:\n    return {v}", "int", "$v = int($X())", ()),
    "next": ("def __next__(self) -> {t}:\n    return {v}", "int", "$v: int = next($X())", ()),
    "aenter": (
        "async def __aenter__(self) -> {t}:\n    return {v}\n\n"
        "async def __aexit__(self, *args: object) -> None:\n    pass",
        "int",
        "async def $f() -> None:\n    async with $X() as $v:\n        $w: int = $v",
        (),
    ),
    "bytes": ("def __bytes__(self) -> {t}:\n    return {v}", "bytes", "$v = bytes($X())", ()),
    "trunc": (
        "def __trunc__(self) -> {t}:\n    return {v}",
        "int",
        "$v: int = math.trunc($X())",
        ("import math",),
    ),
    "reversed": (
        "def __reversed__(self) -> Iterator[{t}]:\n    return iter([{v}])",
        "int",
        "for $v in reversed($X()):\n    $w: int = $v",
        ("from collections.abc import Iterator",),
    ),
}


@dataclass(frozen=True)
class DunderSpec:
    kind: str
    shape: str  # "plain" | "inherited" | "nested"
    ret: str
    present: bool = True
    based: bool = True  # the class still derives from the base that has the member


def _dunder_blocks(s: DunderSpec) -> Blocks:
    members, _, use, headers = DUNDERS[s.kind]
    code = members.format(t=s.ret, v=TYPES[s.ret]) if s.present else "$other: int = 0"
    header = (*headers, *(("from typing import Any",) if "Any" in code else ()))
    base, value = EMPTY, "$X()"
    if s.shape == "inherited":
        base = Block(f"class $XBase:\n{indent(code)}\n", header)
        impl = block("class $X($XBase):\n    pass" if s.based else "class $X:\n    pass")
    elif s.shape == "nested":
        impl = Block(f"class $Outer:\n    class $X:\n{indent(code, 2)}\n", header)
        value = "$Outer.$X()"
    else:
        impl = Block(f"class $X:\n{indent(code)}\n", header)
    return {"base": base, "impl": impl, "use": Block(use.replace("$X()", value) + "\n", headers)}


def dunder(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    kind = rng.choice(list(DUNDERS))
    s = DunderSpec(kind, rng.choice(["plain", "plain", "inherited", "nested"]), DUNDERS[kind][1])
    changes = [
        ("dunder retyped", replace(s, ret=other(rng, s.ret))),
        ("dunder retyped", replace(s, ret=other(rng, s.ret))),
        ("dunder removed", replace(s, present=False)),
    ]
    if s.shape == "inherited":
        changes.append(("base dropped", replace(s, based=False)))
    return Feature("dunder", _dunder_blocks(s), tuple((lb, _dunder_blocks(c)) for lb, c in changes))
