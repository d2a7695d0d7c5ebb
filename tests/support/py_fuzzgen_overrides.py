"""Fuzz features: subclasses that override what a base declares, and decorated classes.

The subclass lives at module level, in a function, nested in a class, or below an intermediate
class in a third module; it overrides a method (maybe marked ``@override``), an attribute
(declared, or assigned and typed by the base's declaration), a ``ClassVar``, a property, a
classmethod, inherits ``__init__``, or passes a keyword to ``__init_subclass__``. Mutations
retype, extend, finalise (``@final`` spelled several ways, ``Final``), remove or change the kind
of the base's member. Class decorators: ``functools.total_ordering`` and ``@deprecated``.
Metaclasses whose members the class object answers for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import TYPES, Block, Blocks, Feature, block, indent, other

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

EMPTY = Block()
MEMBERS = ("method", "attr", "inferred", "classvar", "property", "classmethod", "init", "subclass")
WHERES = ("module", "function", "nested", "chain")
FINALS = {
    "typing": ("@final", "from typing import final"),
    "module": ("@typing.final", "import typing"),
    "renamed": ("@$fin", "from typing import final as $fin"),
    "extensions": ("@final", "from typing_extensions import final"),
}


@dataclass(frozen=True)
class OverrideSpec:
    member: str
    where: str
    param: str = "int"
    ret: str = "int"
    extra_param: bool = False
    final: str = ""  # a FINALS spelling: the member is final
    final_class: str = ""
    kind: str = ""  # the base member's kind, when not ``member``
    removed: bool = False
    marked: bool = False  # the subclass's method says @override
    keyword: str = "flag"


def _base_member(s: OverrideSpec) -> tuple[str, tuple[str, ...]]:
    kind, t, p = s.kind or s.member, s.ret, s.param
    extra = ", y: int" if s.extra_param else ""
    v = TYPES[t]
    deco, header = FINALS.get(s.final, ("", ""))
    attr_ann = f"Final[{t}]" if s.final else t
    code = {
        "method": f"def $frob(self, x: {p}{extra}) -> {t}:\n    return {v}",
        "attr": f"$frob: {attr_ann} = {v}",
        "inferred": f"$frob: {attr_ann} = {v}",
        "classvar": f"$frob: ClassVar[{t}] = {v}",
        "property": f"@property\ndef $frob(self) -> {t}:\n    return {v}",
        "classmethod": f"@classmethod\ndef $frob(cls, x: {p}{extra}) -> {t}:\n    return {v}",
        "init": f"def __init__(self, x: {p}{extra}) -> None:\n    self.$x = x",
        "subclass": f"def __init_subclass__(cls, *, ${s.keyword}: bool = False) -> None:\n"
        "    super().__init_subclass__()",
    }[kind]
    headers = ("from typing import ClassVar",) if kind == "classvar" else ()
    if s.final and kind in ("attr", "inferred"):
        return code, (*headers, "from typing import Final")
    if s.final and kind not in ("classvar", "init", "subclass"):
        return f"{deco}\n{code}", (*headers, header)
    return code, headers


def _sub_body(s: OverrideSpec) -> tuple[str, tuple[str, ...]]:
    mark = "@override\n" if s.marked else ""
    headers = ("from typing_extensions import override",) if s.marked else ()
    code = {
        "method": f"{mark}def $frob(self, x: int) -> int:\n    return 2",
        "attr": "$frob: int = 2",
        "inferred": "$frob = 2",
        "classvar": "$frob = 2",
        "property": f"@property\n{mark}def $frob(self) -> int:\n    return 2",
        "classmethod": f"@classmethod\n{mark}def $frob(cls, x: int) -> int:\n    return 2",
        "init": "pass",
        "subclass": "pass",
    }[s.member]
    return code, headers


def _override_blocks(s: OverrideSpec, base: OverrideSpec) -> Blocks:
    member, header = _base_member(s) if not s.removed else ("$other: int = 0", ())
    fdeco, fheader = FINALS.get(s.final_class, ("", ""))
    deco = f"{fdeco}\n" if s.final_class else ""
    header = (*header, *((fheader,) if s.final_class else ()))
    body, sub_header = _sub_body(base)
    parent = "$Mid" if base.where == "chain" else "$Base"
    keywords = f", ${base.keyword}=True" if base.member == "subclass" else ""
    sub = f"class $Sub({parent}{keywords}):\n{indent(body)}"
    make = "$Sub(1)" if base.member == "init" else "$Sub()"
    if base.where == "function":
        use = f"def $build() -> object:\n{indent(sub)}\n\n    return {make}"
    elif base.where == "nested":
        use = f"class $Holder:\n{indent(sub)}\n\n\n$h = $Holder.{make}"
    else:
        use = f"{sub}\n\n\n$s = {make}"
    return {
        "base": Block(f"{deco}class $Base:\n{indent(member)}\n", header),
        "mid": block("class $Mid($Base):\n    pass") if base.where == "chain" else EMPTY,
        "use": Block(use + "\n", sub_header),
    }


def override(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = OverrideSpec(rng.choice(MEMBERS), rng.choice(WHERES), marked=rng.random() < 0.3)
    final = rng.choice(list(FINALS))
    changes = [
        ("member retyped", replace(s, ret=other(rng, s.ret))),
        ("parameter retyped", replace(s, param=other(rng, s.param))),
        ("parameter added", replace(s, extra_param=True)),
        ("member made final", replace(s, final=final)),
        ("class made final", replace(s, final_class=final)),
        ("member removed", replace(s, removed=True)),
        ("member kind", replace(s, kind=other(rng, s.member, ["method", "attr", "property"]))),
    ]
    if s.member == "subclass":
        changes.append(("class keyword renamed", replace(s, keyword="flag2")))
    versions = tuple((label, _override_blocks(c, s)) for label, c in changes)
    return Feature("override", _override_blocks(s, s), versions)


@dataclass(frozen=True)
class DecoratedSpec:
    kind: str  # "ordering" | "deprecated"
    decorated: bool = True
    lt: bool = True


def _decorated_blocks(s: DecoratedSpec) -> Blocks:
    if s.kind == "ordering":
        lt = "def __lt__(self, other: '$Ver') -> bool:\n    return self.n < other.n\n\n"
        cls = f"""class $Ver:
    def __init__(self, n: int) -> None:
        self.n = n

{indent(lt) if s.lt else ""}    def __eq__(self, other: object) -> bool:
        return isinstance(other, $Ver) and self.n == other.n
"""
        deco = "@functools.total_ordering\n" if s.decorated else ""
        return {
            "def": Block(deco + cls, ("import functools",)),
            "use": block("$v = $Ver(1) <= $Ver(2)"),
        }
    deco = "@deprecated('use something else')\n" if s.decorated else ""
    cls = f"{deco}class $Old:\n    pass\n"
    return {
        "def": Block(cls, ("from typing_extensions import deprecated",)),
        "use": block("$o = $Old()"),
    }


def decorated(ctx: FeatureCtx) -> Feature:
    s = DecoratedSpec(ctx.rng.choice(["ordering", "deprecated"]), ctx.rng.random() < 0.7)
    changes = [("decorator toggled", replace(s, decorated=not s.decorated))]
    if s.kind == "ordering":
        changes.append(("__lt__ removed", replace(s, lt=False)))
    versions = tuple((label, _decorated_blocks(c)) for label, c in changes)
    return Feature("decorated", _decorated_blocks(s), versions)


# A metaclass's member, reached through the class object by syntax (``C()``, ``C[0]``,
# ``for x in C``, ``len(C)``, ``C | 1``) or by name, the class maybe getting the metaclass from
# a base in another module.
META_MEMBERS = {
    "call": ("def __call__(cls, *args: object, **kwargs: object) -> {t}:\n    return {v}",
             "$x: int = $C()"),
    "getitem": ("def __getitem__(cls, i: int) -> {t}:\n    return {v}", "$x: int = $C[0]"),
    "iter": ("def __iter__(cls) -> Iterator[{t}]:\n    return iter([{v}])",
             "for $v in $C:\n    $w: int = $v"),
    "len": ("def __len__(cls) -> {t}:\n    return {v}", "$n = len($C)"),
    "or": ("def __or__(cls, other: object) -> {t}:\n    return {v}", "$x: int = $C | 1"),
    "named": ("def registry(cls) -> {t}:\n    return {v}", "$x: int = $C.registry()"),
}  # fmt: skip


@dataclass(frozen=True)
class MetaSpec:
    member: str
    inherited: bool  # the class gets the metaclass from a base
    t: str = "int"
    present: bool = True
    keyword: bool = True  # the base (or class) still names the metaclass


def _meta_blocks(s: MetaSpec, base: MetaSpec) -> Blocks:
    code, use = META_MEMBERS[s.member]
    member = code.format(t=s.t, v=TYPES[s.t]) if s.present else "pass"
    meta = Block(
        f"class $Meta(type):\n{indent(member)}\n", ("from collections.abc import Iterator",)
    )
    keyword = "metaclass=$Meta" if s.keyword else ""
    if base.inherited:
        holder = block(f"class $Base({keyword}):\n    pass")
        cls = block("class $C($Base):\n    pass")
    else:
        holder, cls = EMPTY, block(f"class $C({keyword}):\n    pass")
    return {"meta": meta, "holder": holder, "cls": cls, "use": block(use)}


def metaclass(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = MetaSpec(rng.choice(list(META_MEMBERS)), rng.random() < 0.5)
    changes = [
        ("metaclass member retyped", replace(s, t=other(rng, "int"))),
        ("metaclass member removed", replace(s, present=False)),
        ("metaclass dropped", replace(s, keyword=False)),
    ]
    versions = tuple((label, _meta_blocks(c, s)) for label, c in changes)
    return Feature("metaclass", _meta_blocks(s, s), versions)
