"""Fuzz features: decorators known only by what they resolve to, defined in another module.

A module binds a name (``$deco``) either to a standard decorator (``abstractmethod``,
``final``, ``dataclass``, ``property``, ``total_ordering``, ``runtime_checkable``,
``contextmanager``, ``staticmethod``) or to an identity function; a class or function in a
second module is decorated with it; a third module uses what it decorated without spelling the
decorator (instantiates a subclass, overrides the method, builds the record positionally,
compares, checks ``isinstance``, enters it). A mutation swaps what the name is bound to: the
decorated code does not change, only what its decorator resolves to.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import Block, Blocks, Feature, block

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

# kind -> (the standard decorator's import, the decorated code, the use)
KINDS: dict[str, tuple[str, str, str]] = {
    "abstractmethod": (
        "from abc import abstractmethod",
        "class $Base(ABC):\n    @$deco\n    def $run(self) -> int:\n        return 0\n\n\n"
        "class $Impl($Base):\n    pass",
        "$obj = $Impl()",
    ),
    "final": (
        "from typing import final",
        "class $Base:\n    @$deco\n    def $run(self) -> int:\n        return 0",
        "class $Sub($Base):\n    def $run(self) -> int:\n        return 1",
    ),
    "dataclass": (
        "from dataclasses import dataclass",
        "@$deco\nclass $Rec:\n    $a: int\n    $b: str",
        "$r = $Rec(1, 's')",
    ),
    "property": (
        "from builtins import property",
        "class $Box:\n    @$deco\n    def $size(self) -> int:\n        return 0",
        "$n: int = $Box().$size + 1",
    ),
    "total_ordering": (
        "from functools import total_ordering",
        "@$deco\nclass $Ver:\n    def __lt__(self, other: object) -> bool:\n        return True",
        "$v = $Ver() <= $Ver()",
    ),
    "runtime_checkable": (
        "from typing import runtime_checkable",
        "@$deco\nclass $P(Protocol):\n    def $run(self) -> int: ...",
        "$ok = isinstance(object(), $P)",
    ),
    "contextmanager": (
        "from contextlib import contextmanager",
        "@$deco\ndef $opened() -> Iterator[int]:\n    yield 1",
        "with $opened() as $v:\n    $w: int = $v",
    ),
    "staticmethod": (
        "from builtins import staticmethod",
        "class $Tool:\n    @$deco\n    def $make(x: int) -> int:\n        return x",
        "$t: int = $Tool().$make(1)",
    ),
}
HEADERS = (
    "from abc import ABC",
    "from typing import Protocol",
    "from collections.abc import Iterator",
)


@dataclass(frozen=True)
class DecoSpec:
    kind: str
    standard: bool  # the name is the standard decorator (else an identity function)
    form: str = "assign"  # how the standard one is bound: "assign" or "import_as"


def _deco_block(s: DecoSpec) -> Block:
    imported, _, _ = KINDS[s.kind]
    name = imported.rsplit(" ", 1)[-1]
    if not s.standard:
        return block(
            "$T = TypeVar('$T')\n\n\ndef $deco(x: $T) -> $T:\n    return x",
            "from typing import TypeVar",
        )
    if s.form == "import_as":
        return Block("", (f"{imported} as $deco",), binds=("deco",))
    return Block(f"$deco = {name}\n", (imported,))


def _blocks(s: DecoSpec, base: DecoSpec) -> Blocks:
    _, decorated, use = KINDS[s.kind]
    deco = _deco_block(s)
    if not deco.code:  # bound by an import: the block needs a statement to be placed
        deco = Block("$anchor = 0\n", deco.header, deco.binds)
    return {"deco": deco, "decorated": Block(decorated + "\n", HEADERS), "use": block(use)}


def decorator_alias(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = DecoSpec(rng.choice(list(KINDS)), rng.random() < 0.5, rng.choice(["assign", "import_as"]))
    changes = [
        ("now the standard decorator" if not s.standard else "now an identity function",
         replace(s, standard=not s.standard)),
    ]  # fmt: skip
    if s.standard:
        other = "import_as" if s.form == "assign" else "assign"
        changes.append(("bound another way", replace(s, form=other)))
    versions = tuple((label, _blocks(c, s)) for label, c in changes)
    return Feature("decorator_alias", _blocks(s, s), versions)
