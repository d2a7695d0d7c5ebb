"""Fuzz features: names whose type comes from elsewhere: aliases, constants, inferred values.

Type aliases in every form (plain, ``TypeAlias`` under its name or another, PEP 695 ``type``,
``TypeAliasType``, ``NewType``, a ``Union``, a string, a ``sys.version_info`` branch, a
``Literal`` matched exhaustively), used in an annotation, a parameter, a function of another
module that returns one, or a second alias built from it; ``Final`` constants (read as their
``Literal``) spelled several ways; and values inferred across modules: a module variable
assigned through ``global`` in a function, an unannotated variable or class attribute set from
another module's call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import TYPES, Block, Blocks, Feature, block, other, reexport

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

EMPTY = Block()
ALIAS_FORMS = (
    "workspace",
    "plain",
    "typealias",
    "renamed",
    "pep695",
    "aliastype",
    "newtype",
    "union",
    "string",
    "branch",
    "literal",
)
CLASSES = ("int", "str", "float", "bytes")


@dataclass(frozen=True)
class AliasSpec:
    form: str
    use: str  # "annot" | "param" | "return" | "chain"
    target: str = "int"
    literals: tuple[str, ...] = ("'a'", "'b'")
    made_class: bool = False
    quoted: bool = False  # the consumer's annotation is a string


def _alias_def(s: AliasSpec) -> Block:
    t = s.target
    if s.made_class:
        return block(f"class $Num({t}):\n    pass")
    forms: dict[str, tuple[str, tuple[str, ...]]] = {
        "plain": (f"$Num = {t}", ()),
        "typealias": (f"$Num: TypeAlias = {t}", ("from typing import TypeAlias",)),
        "renamed": (f"$Num: $TA = {t}", ("from typing import TypeAlias as $TA",)),
        "pep695": (f"type $Num = {t}", ()),
        "aliastype": (
            f"$Num = TypeAliasType('$Num', {t})",
            ("from typing_extensions import TypeAliasType",),
        ),
        "newtype": (f"$Num = NewType('$Num', {t})", ("from typing import NewType",)),
        "union": (f"$Num = Union[{t}, None]", ("from typing import Union",)),
        "string": (f"$Num: TypeAlias = '{t}'", ("from typing import TypeAlias",)),
        "branch": (
            f"if sys.version_info >= (3, 8):\n    $Num = {t}\nelse:\n    $Num = bytes",
            ("import sys",),
        ),
        "literal": (f"$Num = Literal[{', '.join(s.literals)}]", ("from typing import Literal",)),
        "workspace": (f"$Num: $WTA = {t}", ()),
    }
    code, header = forms[s.form]
    return Block(code + "\n", header, ("Num",) if s.form == "branch" else ())


def _alias_use(s: AliasSpec) -> Blocks:
    value = TYPES[s.target]
    if s.form == "literal":
        cases = "".join(
            f"        case {lit}:\n            return {i}\n" for i, lit in enumerate(s.literals)
        )
        code = (
            f"def $which(m: $Num) -> int:\n    match m:\n{cases}        case _:\n"
            "            assert_never(m)"
        )
        return {"mid": EMPTY, "use": block(code, "from typing import assert_never")}
    if s.form == "newtype":
        return {"mid": EMPTY, "use": block(f"$x = $Num({value})\n$y: {s.target} = $x")}
    if s.use == "return":
        mid = block(f"def $mk() -> $Num:\n    return {value}")
        return {"mid": mid, "use": block(f"$y: {s.target} = $mk()")}
    if s.use == "chain":
        pair = (
            "type $Pair = tuple[$Num, $Num]" if s.form == "pep695" else "$Pair = tuple[$Num, $Num]"
        )
        return {"mid": block(pair), "use": block(f"$p: $Pair = ({value}, {value})")}
    num = '"$Num"' if s.quoted else "$Num"
    if s.use == "param":
        return {"mid": EMPTY, "use": block(f"def $f(v: {num}) -> None:\n    pass\n\n\n$f({value})")}
    return {"mid": EMPTY, "use": block(f"$x: {num} = {value}")}


def alias(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    forms = [f for f in ALIAS_FORMS if ctx.py312 or f != "pep695"]
    uses = ["annot", "param", "return", "chain"]
    s = AliasSpec(rng.choice(forms), rng.choice(uses), rng.choice(CLASSES))
    s = replace(s, quoted=rng.random() < 0.3)
    changes = [
        ("retargeted", replace(s, target=other(rng, s.target, list(CLASSES)))),
        ("made a class", replace(s, made_class=True)),
        ("form changed", replace(s, form=other(rng, s.form, forms))),
    ]
    if s.form == "literal":
        changes += [
            ("literal added", replace(s, literals=(*s.literals, "'c'"))),
            ("literal removed", replace(s, literals=s.literals[:1])),
        ]
    use = _alias_use(s)

    def blocks(c: AliasSpec) -> Blocks:
        ta = (
            reexport("from typing import TypeAlias as $WTA", "WTA")
            if c.form == "workspace"
            else EMPTY
        )
        return {"ta": ta, "def": _alias_def(c), **use}

    versions = tuple((label, blocks(c)) for label, c in changes)
    return Feature("alias", blocks(s), versions)


CONST_FORMS = {
    "final": ("$LIMIT: Final = {v}", "from typing import Final"),
    "renamed": ("$LIMIT: $Fin = {v}", "from typing import Final as $Fin"),
    "module": ("$LIMIT: typing.Final = {v}", "import typing"),
    "typed": ("$LIMIT: Final[{t}] = {v}", "from typing import Final"),
    "literal": ("$LIMIT: Literal[{v}] = {v}", "from typing import Literal"),
    "plain": ("$LIMIT = {v}", ""),
    "workspace": ("$LIMIT: $WFin = {v}", ""),
}


@dataclass(frozen=True)
class ConstSpec:
    form: str
    value: str  # "3" or "'fast'"
    via: bool  # read through an unannotated variable of another module


def _const_blocks(s: ConstSpec, base: ConstSpec) -> Blocks:
    code, header = CONST_FORMS[s.form]
    t = "str" if s.value.startswith("'") else "int"
    const = Block(code.format(v=s.value, t=t) + "\n", (header,) if header else ())
    mid = block("$COPY: Final = $LIMIT", "from typing import Final") if base.via else EMPTY
    read = "$COPY" if base.via else "$LIMIT"
    use = block(f"$x: Literal[{base.value}] = {read}", "from typing import Literal")
    fin = reexport("from typing import Final as $WFin", "WFin") if s.form == "workspace" else EMPTY
    return {"fin": fin, "const": const, "mid": mid, "use": use}


def const(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    value = rng.choice(["3", "'fast'"])
    s = ConstSpec(rng.choice(list(CONST_FORMS)), value, rng.random() < 0.4)
    changes = [
        ("value changed", replace(s, value="4" if value == "3" else "'slow'")),
        ("value retyped", replace(s, value="'3'" if value == "3" else "3")),
        ("form changed", replace(s, form=other(rng, s.form, list(CONST_FORMS)))),
    ]
    versions = tuple((label, _const_blocks(c, s)) for label, c in changes)
    return Feature("const", _const_blocks(s, s), versions)


@dataclass(frozen=True)
class InferredSpec:
    kind: str  # "global" | "self_attr" | "variable" | "class_attr"
    assigned: str = "int"  # the type of the second assignment / the source's return


def _inferred_blocks(s: InferredSpec) -> Blocks:
    v = TYPES[s.assigned]
    if s.kind == "global":
        src = f"$counter = 0\n\n\ndef $bump() -> None:\n    global $counter\n    $counter = {v}"
        return {"source": EMPTY, "mid": block(src), "use": block("$w: int = $counter")}
    if s.kind == "self_attr":
        src = (
            f"class $Store:\n    def __init__(self) -> None:\n        self.$val = 0\n\n"
            f"    def $reset(self) -> None:\n        self.$val = {v}"
        )
        return {"source": EMPTY, "mid": block(src), "use": block("$w: int = $Store().$val")}
    source = block(f"def $source() -> {s.assigned}:\n    return {v}")
    if s.kind == "variable":
        return {
            "source": source,
            "mid": block("$cache = $source()"),
            "use": block("$w: int = $cache"),
        }
    return {
        "source": source,
        "mid": block("class $Cfg:\n    $level = $source()"),
        "use": block("$w: int = $Cfg.$level"),
    }


def inferred(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = InferredSpec(rng.choice(["global", "self_attr", "variable", "class_attr"]))
    changes = [
        ("retyped", replace(s, assigned=other(rng, "int"))),
        ("retyped", replace(s, assigned=other(rng, "int"))),
    ]
    versions = tuple((label, _inferred_blocks(c)) for label, c in changes)
    return Feature("inferred", _inferred_blocks(s), versions)
