"""Fuzz features: types that flow through statements and bodies, not through declarations.

- **binding**: a module-level name bound by any statement pyright infers a declared type from
  (``for``, ``with``, ``match`` capture, walrus, unpacking, ``+=``, ``try``, ``if``, ``while``,
  a comprehension's walrus, a lambda, a default value, a closure, a generator, a class body's
  ``for``/``with``, ``global`` in a nested function, ``self``/``cls``/``this`` attributes set in
  a method or in a function nested in one), from another module's call; another module reads it.
- **trivial**: a Protocol's method made implemented or not by its body alone (``...``, ``pass``,
  a docstring, ``raise NotImplementedError``, a real return) under a subclass that is
  instantiated, or that calls it through ``super()``.
- **match_args**: a plain class with ``__match_args__``, matched positionally elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import TYPES, Block, Blocks, Feature, block, indent, other

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

EMPTY = Block()
# kind -> (how the source is called, the statements binding ``$bound``, how it is read)
BINDINGS: dict[str, tuple[str, str, str]] = {
    "for": ("list", "for $bound in $src():\n    pass", "$bound"),
    "with": ("cm", "with $src() as $bound:\n    pass", "$bound"),
    "match": ("value", "match $src():\n    case $bound:\n        pass", "$bound"),
    "walrus": ("value", "if ($bound := $src()):\n    pass", "$bound"),
    "unpack": ("value", "$bound, $other = $src(), 0", "$bound"),
    "star_unpack": ("value", "$bound, *$rest = [$src()]", "$bound"),
    "augmented": ("value", "$bound = $src()\n$bound += $src()", "$bound"),
    "try": ("value", "try:\n    $bound = $src()\nexcept Exception:\n    $bound = $src()", "$bound"),
    "while": ("value", "while True:\n    $bound = $src()\n    break", "$bound"),
    "comprehension": ("value", "$all = [$bound := $src() for _ in range(1)]", "$bound"),
    "lambda": ("value", "$bound = lambda: $src()", "$bound()"),
    "default": ("value", "def $bound(x=$src()):\n    return x", "$bound()"),
    "closure": (
        "value",
        "def $bound():\n    def inner():\n        return $src()\n\n    return inner()",
        "$bound()",
    ),
    "ternary": ("value", "$bound = $src() if $flag else $src()\n", "$bound"),
    "class_for": (
        "value",
        "class $Holder:\n    for _i in range(1):\n        $attr = $src()",
        "$Holder.$attr",
    ),
    "class_with": (
        "cm",
        "class $Holder:\n    with $src() as $attr:\n        pass",
        "$Holder.$attr",
    ),
    "global_nested": (
        "value",
        "$bound = 0\n\n\ndef $setup() -> None:\n    def inner() -> None:\n"
        "        global $bound\n        $bound = $src()\n\n    inner()",
        "$bound",
    ),
    "this": (
        "value",
        "class $Holder:\n    def setup(this) -> None:\n        this.$attr = $src()",
        "$Holder().$attr",
    ),
    "cls": (
        "value",
        "class $Holder:\n    @classmethod\n    def setup(cls) -> None:\n        cls.$attr = $src()",
        "$Holder.$attr",
    ),
    "nested_self": (
        "value",
        "class $Holder:\n    def setup(self) -> None:\n        def inner() -> None:\n"
        "            self.$attr = $src()\n\n        inner()",
        "$Holder().$attr",
    ),
    "self": (
        "value",
        "class $Holder:\n    def setup(self) -> None:\n        self.$attr = $src()",
        "$Holder().$attr",
    ),
}


@dataclass(frozen=True)
class BindingSpec:
    kind: str
    t: str = "int"
    value: str = ""  # the source's return value, when not the default of ``t``


def _binding_blocks(s: BindingSpec, base: BindingSpec) -> Blocks:
    shape, binding, read = BINDINGS[s.kind]
    v = s.value or TYPES[s.t]
    source = {
        "value": Block(f"def $src() -> {s.t}:\n    return {v}\n"),
        "list": Block(f"def $src() -> list[{s.t}]:\n    return [{v}]\n"),
        "cm": Block(
            f"@contextmanager\ndef $src() -> Iterator[{s.t}]:\n    yield {v}\n",
            ("from collections.abc import Iterator", "from contextlib import contextmanager"),
        ),
    }[shape]
    flag = ["$flag = True"] if "$flag" in binding else []
    code = "\n\n\n".join([*flag, binding])
    return {"src": source, "bind": block(code), "use": block(f"$w: {base.t} = {read}")}


def binding(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = BindingSpec(rng.choice(list(BINDINGS)))
    changes = [
        ("source retyped", replace(s, t=other(rng, "int", ["str", "bytes", "float", "object"]))),
        ("source retyped", replace(s, t=other(rng, "int", ["int | None", "list[int]"]))),
        ("source body", replace(s, value="2")),
    ]
    versions = tuple((label, _binding_blocks(c, s)) for label, c in changes)
    return Feature("binding", _binding_blocks(s, s), versions)


BODIES = ("...", "pass", '"""Implemented by subclasses."""', "raise NotImplementedError()",
          "return 0", '"""Doc."""\n...', "pass\n...", "x = 1\nraise NotImplementedError",
          "if $flag:\n    raise NotImplementedError\nreturn 0", "raise RuntimeError()",
          # inert statements (``names.bodies.live_body``) around a real body, and before a stub
          "pass\nreturn 0", '"""Doc."""\nreturn 0', "return 0\n...", "0\n...",
          '"""Doc."""\npass\n...', "if $flag:\n    pass\n    'why'\nreturn 0")  # fmt: skip


@dataclass(frozen=True)
class TrivialSpec:
    base: str  # "protocol" | "plain" | "abc" | "abstract" (@abstractmethod)
    use: str  # "instantiate" | "super"
    body: str
    member: str = "method"  # "method" | "property" | "classmethod"
    annotated: bool = True  # ``-> int`` (else the body decides the inferred return type)


def _trivial_blocks(s: TrivialSpec, base: TrivialSpec) -> Blocks:
    header, bases = {
        "protocol": (("from typing import Protocol",), "Protocol"),
        "plain": ((), ""),
        "abc": (("from abc import ABC",), "ABC"),
        "abstract": (("from abc import ABC, abstractmethod",), "ABC"),
    }[s.base]
    kind = {"property": "@property\n", "classmethod": "@classmethod\n"}.get(base.member, "")
    deco = kind + ("@abstractmethod\n" if s.base == "abstract" else "")
    first = "cls" if base.member == "classmethod" else "self"
    returns = " -> int" if s.annotated else ""
    method = f"{deco}def $run({first}){returns}:\n{indent(s.body)}"
    flag = "$flag = True\n\n\n" if "$flag" in s.body else ""
    base_block = Block(f"{flag}class $Base({bases}):\n{indent(method)}\n", header)
    call = {"property": "super().$run", "classmethod": "super().$run()"}.get(base.member)
    if base.use == "super":
        body = f"return {call or 'super().$run()'}"
        sub = f"class $Impl($Base):\n{indent(kind)}    def $run({first}) -> int:\n        {body}"
    else:
        sub = "class $Impl($Base):\n    pass"
    return {"base": base_block, "impl": block(sub), "use": block("$obj = $Impl()")}


def trivial(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    kinds = ["protocol", "protocol", "abc", "abstract", "plain"]
    use = rng.choice(["instantiate", "super"])
    member = rng.choice(["method", "method", "property", "classmethod"])
    s = TrivialSpec(rng.choice(kinds), use, rng.choice(BODIES), member, rng.random() < 0.5)
    changes = [(f"body {b!r}", replace(s, body=b)) for b in BODIES if b != s.body]
    changes.append(("return annotation", replace(s, annotated=not s.annotated)))
    changes.append(("base kind", replace(s, base=other(rng, s.base, kinds))))
    versions = tuple((label, _trivial_blocks(c, s)) for label, c in changes)
    return Feature("trivial", _trivial_blocks(s, s), versions)


@dataclass(frozen=True)
class MatchArgsSpec:
    t: str = "int"
    order: tuple[str, ...] = ("frob", "size")
    declared: bool = True  # the attributes are declared in the class body (else in __init__)


def _match_args_blocks(s: MatchArgsSpec, base: MatchArgsSpec) -> Blocks:
    args = ", ".join(f"'${n}'" for n in s.order)
    v = TYPES[s.t]
    if s.declared:
        body = f"__match_args__ = ({args})\n$frob: {s.t} = {v}\n$size: str = ''"
    else:
        body = (
            f"__match_args__ = ({args})\n\ndef __init__(self) -> None:\n"
            f"    self.$frob: {s.t} = {v}\n    self.$size: str = ''"
        )
    use = (
        "def $read(o: object) -> None:\n    match o:\n        case $Pt($a, $b):\n"
        f"            $w: {base.t} = $a\n            $z: str = $b\n"
        "        case _:\n            pass"
    )
    return {"cls": block(f"class $Pt:\n{indent(body)}"), "use": block(use)}


def match_args(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = MatchArgsSpec(declared=rng.random() < 0.6)
    changes = [
        ("attribute retyped", replace(s, t=other(rng, "int", ["str", "bytes", "float"]))),
        ("__match_args__ reordered", replace(s, order=("size", "frob"))),
    ]
    versions = tuple((label, _match_args_blocks(c, s)) for label, c in changes)
    return Feature("match_args", _match_args_blocks(s, s), versions)
