"""Fuzz features: classes whose change shows where their members are never spelled.

Enums matched exhaustively (``match`` and ``assert_never``, ``Literal`` of every member, values
used as their type); abstract classes made concrete by a mixin and instantiated elsewhere;
subclasses (at module level, in a function, nested in a class, through an intermediate class)
overriding a base's method, attribute, ``ClassVar``, property or classmethod, or passing class
keywords to its ``__init_subclass__``; generic classes whose variance is inferred.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import (
    TYPES,
    Block,
    Blocks,
    Feature,
    block,
    indent,
    other,
    reexport,
)

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

EMPTY = Block()
ENUM_FORMS = (
    "Enum",
    "IntEnum",
    "StrEnum",
    "str_mixin",
    "Flag",
    "auto",
    "functional",
    "namer",
    "workspace",
)
ENUM_USES = ("match", "ifelse", "value", "literal", "arith", "lookup", "len")


@dataclass(frozen=True)
class EnumSpec:
    form: str
    members: tuple[tuple[str, str], ...]  # (name, value)
    use: str
    namer_type: str = "str"  # what the mixin's _generate_next_value_ returns
    method_member: str = ""  # a member turned into a method (no longer a member)


def _enum_def(s: EnumSpec) -> Blocks:
    if s.form == "functional":
        names = [f"'${n}'" for n, _ in s.members]
        return {
            "ebase": EMPTY,
            "namer": EMPTY,
            "enum": block(
                f"$Color = Enum('$Color', [{', '.join(names)}])", "from enum import Enum"
            ),
        }
    base = {"str_mixin": "str, Enum", "auto": "Enum", "namer": "$Namer, Enum"}.get(s.form, s.form)
    imported = {"str_mixin": "Enum", "auto": "Enum, auto", "namer": "Enum, auto"}.get(
        s.form, s.form
    )
    header = [f"from enum import {imported}"]
    ebase = EMPTY
    if s.form == "workspace":  # Enum re-exported by another module of the program
        base, header, ebase = "$WEnum", [], reexport("from enum import Enum as $WEnum", "WEnum")
    lines: list[str] = []
    for name, value in s.members:
        if name == s.method_member:
            lines.append(f"def ${name}(self) -> int:\n    return 0")
        else:
            lines.append(f"${name} = {'auto()' if s.form in ('auto', 'namer') else value}")
    namer = EMPTY
    if s.form == "namer":
        namer = block(
            f"""
            class $Namer:
                @staticmethod
                def _generate_next_value_(
                    name: str, start: int, count: int, last_values: list[Any]
                ) -> {s.namer_type}:
                    return {TYPES[s.namer_type]}
            """,
            "from typing import Any",
        )
    return {
        "ebase": ebase,
        "namer": namer,
        "enum": Block(f"class $Color({base}):\n{indent(chr(10).join(lines))}\n", tuple(header)),
    }


def _enum_use(s: EnumSpec) -> Block:
    names = [n for n, _ in s.members]
    first = f"$Color.${names[0]}"
    if s.use in ("match", "ifelse"):
        if s.use == "match":
            cases = "".join(
                f"    case $Color.${n}:\n        return {i}\n" for i, n in enumerate(names)
            )
            body = f"match c:\n{cases}    case _:\n        assert_never(c)"
        else:
            arms = [
                f"{'if' if i == 0 else 'elif'} c is $Color.${n}:\n    return {i}"
                for i, n in enumerate(names)
            ]
            body = "\n".join(arms) + "\nelse:\n    assert_never(c)"
        code = f"def $which(c: $Color) -> int:\n{indent(body)}"
        return Block(code + "\n", ("from typing import assert_never",))
    value_type = "str" if s.members[0][1].startswith("'") else "int"
    code = {
        "value": f"$v: {value_type} = {first}.value",
        "literal": f"def $take(c: Literal[{', '.join(f'$Color.${n}' for n in names)}]) -> None:\n"
        "    pass\n\n\nfor $c in $Color:\n    $take($c)",
        "arith": f"$v = {first} + 1",
        "lookup": f"$v: $Color = $Color['${names[0]}']",
        "len": "$n: int = len($Color)",
    }[s.use]
    return Block(code + "\n", ("from typing import Literal",) if s.use == "literal" else ())


def _enum_blocks(s: EnumSpec, base: EnumSpec) -> Blocks:
    return {**_enum_def(s), "use": _enum_use(base)}


def enum(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    form = rng.choice(ENUM_FORMS)
    strs = form in ("StrEnum", "str_mixin") or (form == "Enum" and rng.random() < 0.3)
    count = rng.randint(2, 3)
    members = tuple((f"M{i}", f"'v{i}'" if strs else str(i + 1)) for i in range(count))
    s = EnumSpec(form, members, rng.choice(ENUM_USES))
    added = (*members, (f"M{count}", f"'v{count}'" if strs else str(count + 1)))
    first_retyped = ((members[0][0], "1" if strs else "'one'"), *members[1:])
    changes = [
        ("member added", replace(s, members=added)),
        ("member removed", replace(s, members=members[:-1])),
        (
            "member renamed",
            replace(s, members=(*members[:-1], (members[-1][0] + "x", members[-1][1]))),
        ),
        ("value retyped", replace(s, members=first_retyped)),
        ("member made a method", replace(s, method_member=members[-1][0])),
        ("form changed", replace(s, form=other(rng, form, list(ENUM_FORMS)))),
    ]
    if form == "namer":
        changes.append(("namer retyped", replace(s, namer_type="int")))
    versions = tuple((label, _enum_blocks(c, s)) for label, c in changes)
    return Feature("enum", _enum_blocks(s, s), versions)


ABC_SPELLINGS = {
    "abc": (("from abc import ABC, abstractmethod",), "ABC", "@abstractmethod"),
    "module": (("import abc",), "abc.ABC", "@abc.abstractmethod"),
    "meta": (("from abc import ABCMeta, abstractmethod",), "metaclass=ABCMeta", "@abstractmethod"),
    "renamed": (("from abc import ABC, abstractmethod as $am",), "ABC", "@$am"),
    "protocol": (("from typing import Protocol",), "Protocol", ""),
    "workspace": ((), "$WABC", "@$wam"),  # re-exported by another module of the program
}


@dataclass(frozen=True)
class AbcSpec:
    spelling: str
    use: str  # "instantiate" | "factory" | "local" | "leaf"
    mixin_has: bool = True
    extra_abstract: bool = False
    base_first: bool = False
    abstract: bool = True
    mixin_ret: str = "int"


def _abc_blocks(s: AbcSpec) -> Blocks:
    header, bases, deco = ABC_SPELLINGS[s.spelling]
    abstract = s.abstract and (deco or s.spelling == "protocol")
    body = "..." if abstract else "return 0"
    members = f"{deco + chr(10) if abstract and deco else ''}def $run(self) -> int:\n    {body}"
    if s.extra_abstract:
        members += f"\n\n{deco + chr(10) if deco else ''}def $stop(self) -> None: ..."
    mixin = f"def $run(self) -> {s.mixin_ret}:\n    return {TYPES[s.mixin_ret]}"
    order = "$Base, $Mixin" if s.base_first else "$Mixin, $Base"
    use = {
        "instantiate": "$obj = $Impl()",
        "factory": "def $make() -> $Base:\n    return $Impl()",
        "local": "def $build() -> None:\n    class $Local($Impl):\n        pass\n\n    $Local()",
        "leaf": "class $Leaf($Impl):\n    pass\n\n\n$leaf = $Leaf()",
    }[s.use]
    abcs = EMPTY
    if s.spelling == "workspace":
        imports = ("from abc import ABC as $WABC", "from abc import abstractmethod as $wam")
        abcs = Block("$abc_anchor = 0\n", imports, binds=("WABC", "wam"))
    return {
        "abcs": abcs,
        "base": Block(f"class $Base({bases}):\n{indent(members)}\n", header),
        "mixin": block(f"class $Mixin:\n{indent(mixin if s.mixin_has else 'pass')}"),
        "impl": block(f"class $Impl({order}):\n    pass"),
        "use": block(use),
    }


def abstract(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = AbcSpec(
        rng.choice(list(ABC_SPELLINGS)), rng.choice(["instantiate", "factory", "local", "leaf"])
    )
    changes = [
        ("mixin loses the method", replace(s, mixin_has=False)),
        ("base gains an abstract method", replace(s, extra_abstract=True)),
        ("bases reordered", replace(s, base_first=True)),
        ("abstractmethod dropped", replace(s, abstract=False)),
        ("mixin method retyped", replace(s, mixin_ret=other(rng, "int"))),
        ("spelling changed", replace(s, spelling=other(rng, s.spelling, list(ABC_SPELLINGS)))),
    ]
    return Feature("abstract", _abc_blocks(s), tuple((lb, _abc_blocks(c)) for lb, c in changes))


@dataclass(frozen=True)
class GenericSpec:
    form: str  # "typevar" | "covariant" | "infer" (infer_variance=True) | "pep695"
    use: str  # "widen" | "get"
    put: bool = False  # a method taking T (invariant)
    public: bool = False  # the item a public mutable attribute
    get_type: str = "T"
    covariant: bool = True


def _generic_blocks(s: GenericSpec) -> Blocks:
    t = "T" if s.form == "pep695" else "$T"
    attr = "item" if s.public else "_item"
    methods = [
        f"def __init__(self, item: {t}) -> None:\n    self.{attr} = item",
        f"def get(self) -> {s.get_type.replace('T', t)}:\n"
        f"    return {'[self.' + attr + ']' if s.get_type != 'T' else 'self.' + attr}",
    ]
    if s.put:
        methods.append(f"def put(self, item: {t}) -> None:\n    self.{attr} = item")
    body = indent("\n\n".join(methods))
    tv = EMPTY
    if s.form == "pep695":
        cls = Block(f"class $Box[T]:\n{body}\n")
    else:
        variance = ", covariant=True" if s.form == "covariant" and s.covariant else ""
        if s.form == "infer":
            variance = ", infer_variance=True" if s.covariant else ""
        tv = block(f"$T = TypeVar('$T'{variance})", "from typing_extensions import TypeVar")
        cls = Block(f"class $Box(Generic[$T]):\n{body}\n", ("from typing import Generic",))
    use = {
        "widen": "def $widen(b: $Box[int]) -> $Box[object]:\n    return b",
        "get": "$v: int = $Box(1).get()",
    }[s.use]
    return {"tv": tv, "box": cls, "use": block(use)}


def generic(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    forms = (
        ["typevar", "covariant", "infer", "pep695"]
        if ctx.py312
        else ["typevar", "covariant", "infer"]
    )
    form = rng.choice(forms)
    s = GenericSpec(form, "get" if form == "typevar" else rng.choice(["widen", "widen", "get"]))
    changes = [
        ("method taking T added", replace(s, put=True)),
        ("item made public", replace(s, public=True)),
        ("get retyped", replace(s, get_type="list[T]")),
        ("TypeVar made invariant", replace(s, covariant=False)),
    ]
    return Feature(
        "generic", _generic_blocks(s), tuple((lb, _generic_blocks(c)) for lb, c in changes)
    )
