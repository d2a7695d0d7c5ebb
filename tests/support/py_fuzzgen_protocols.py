"""Fuzz features: structural typing. A value meets a Protocol (or a typeshed one) by its shape.

The Protocol is spelled every way the planner must recognise (``typing.Protocol`` through an
import, a module alias, a renamed import, ``typing_extensions``, a star import, a variable, an
inherited Protocol, a generic one, PEP 695, nested in a class, under ``TYPE_CHECKING``); the
implementation is a plain class, an inherited member, a nested class, a dataclass field, an
``__init__`` attribute, a module (modules meet Protocols too) or a function (a callback
Protocol). The consumer never spells the member: it assigns, passes, returns or lists the value
where the Protocol is expected. Mutations change the member on either side. (Dunders and
typeshed's Protocols: ``py_fuzzgen_dunders``.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import (
    OTHER_VALUES,
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
# spelling -> (header, code before the class, the base list)
SPELLINGS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "plain": (("from typing import Protocol",), "", "Protocol"),
    "module": (("import typing",), "", "typing.Protocol"),
    "module_alias": (("import typing as $t",), "", "$t.Protocol"),
    "extensions": (("from typing_extensions import Protocol",), "", "Protocol"),
    "renamed": (("from typing import Protocol as $Shape",), "", "$Shape"),
    "star": (("from typing import *",), "", "Protocol"),
    "variable": (("from typing import Protocol",), "$PBase = Protocol\n\n\n", "$PBase"),
    "inherited": (("from typing import Protocol",), "", "$PRoot, Protocol"),
    "generic": (
        ("from typing import Protocol, TypeVar",),
        "$T = TypeVar('$T', covariant=True)\n\n\n",
        "Protocol[$T]",
    ),
    "pep695": (("from typing import Protocol",), "", "Protocol"),
    "nested": (("from typing import Protocol",), "", "Protocol"),
    "type_checking": (("from typing import TYPE_CHECKING, Protocol",), "", "Protocol"),
    "workspace": ((), "", "$WPB"),  # re-exported by another module of the program
}
MEMBERS = ("method", "arg", "attr", "property", "call")
IMPLS = ("plain", "inherited", "nested", "dataclass", "init", "module", "function", "namedtuple")
USES = ("annot", "param", "list", "return", "spelled", "isinstance")


@dataclass(frozen=True)
class ProtoSpec:
    spelling: str
    member: str
    impl: str
    use: str
    proto_type: str = "int"
    impl_type: str = "int"
    impl_member: str = "frob"  # "" removed, "frob2" renamed
    impl_kind: str = ""  # the implementation's member kind, when not the Protocol's
    value: str = ""  # the implementation's value, when not the default of its type
    extra: bool = False  # the Protocol gains a member
    proto_arg: bool = False  # the Protocol's method gains a parameter
    runtime: bool = False
    is_protocol: bool = True
    quoted: bool = False  # the consumer's annotations are strings


def _proto_member(kind: str, t: str, name: str = "$frob") -> str:
    return {
        "method": f"def {name}(self) -> {t}: ...",
        "arg": f"def {name}(self, x: int) -> {t}: ...",
        "attr": f"{name}: {t}",
        "property": f"@property\ndef {name}(self) -> {t}: ...",
        "call": f"def __call__(self, x: int) -> {t}: ...",
    }[kind]


def _impl_member(kind: str, t: str, name: str, value: str) -> str:
    return {
        "method": f"def {name}(self) -> {t}:\n    return {value}",
        "arg": f"def {name}(self, x: int) -> {t}:\n    return {value}",
        "attr": f"{name}: {t} = {value}",
        "property": f"@property\ndef {name}(self) -> {t}:\n    return {value}",
        "call": f"def __call__(self, x: int) -> {t}:\n    return {value}",
        "init": f"def __init__(self) -> None:\n    self.{name}: {t} = {value}",
    }[kind]


def _protocol_blocks(s: ProtoSpec) -> Blocks:
    header, before, bases = SPELLINGS[s.spelling]
    t = "$T" if s.spelling == "generic" else "T" if s.spelling == "pep695" else s.proto_type
    member = _proto_member(s.member, t)
    if s.proto_arg and s.member in ("method", "arg"):
        member = member.replace("(self", "(self, y: str", 1)
    members = member + ("\n" + _proto_member("method", "int", "$extra") if s.extra else "")
    if not s.is_protocol:  # the same class, nominal
        bases = {"generic": "Generic[$T]", "inherited": "$PRoot"}.get(s.spelling, "object")
        header = (*header, "from typing import Generic")
    header = (*header, *(("from typing import runtime_checkable",) if s.runtime else ()))
    deco = "@runtime_checkable\n" if s.runtime else ""
    name = "$P[T]" if s.spelling == "pep695" else "$P"
    body = indent(members)
    root = EMPTY
    if s.spelling == "inherited":
        root = block(f"class $PRoot(Protocol):\n{body}", "from typing import Protocol")
        body = indent("pass")
    cls = f"{deco}class {name}({bases}):\n{body}"
    binds: tuple[str, ...] = ()
    if s.spelling == "nested":
        cls = f"class $NS:\n{indent(cls)}"
    elif s.spelling == "type_checking":
        cls = f"if TYPE_CHECKING:\n{indent(cls)}\nelse:\n    $P = object"
        binds = ("P",)
    pbase = EMPTY
    if s.spelling == "workspace":
        pbase = reexport("from typing import Protocol as $WPB", "WPB")
    return {"pbase": pbase, "root": root, "proto": Block(before + cls + "\n", header, binds)}


def _impl_blocks(s: ProtoSpec) -> tuple[Blocks, str]:
    """The implementation's blocks and the expression of a value of it."""
    kind = s.impl_kind or s.member
    value = s.value or TYPES[s.impl_type]
    if s.impl_member:
        member = _impl_member(kind, s.impl_type, "$" + s.impl_member, value)
    else:
        member = "$other: int = 0"
    if s.impl == "module":
        code = member.replace("(self, ", "(").replace("(self)", "()")
        impl = block(f"$anchor = 0\n{code}")
        return {
            "base": EMPTY,
            "impl": replace(impl, local=("frob", "frob2", "other")),
        }, "$mod__anchor"
    if s.impl == "function":
        sig = f"def $impl_fn(x: int) -> {s.impl_type}:\n    return {value}"
        return {"base": EMPTY, "impl": block(sig)}, "$impl_fn"
    header: tuple[str, ...] = ()
    deco, bases, base = "", "", EMPTY
    if s.impl == "dataclass":
        deco, header = "@dataclass\n", ("from dataclasses import dataclass",)
    elif s.impl == "namedtuple":
        bases, header = "(NamedTuple)", ("from typing import NamedTuple",)
    elif s.impl == "inherited":
        base, bases, member = block(f"class $ImplBase:\n{indent(member)}"), "($ImplBase)", "pass"
    cls = f"{deco}class $Impl{bases}:\n{indent(member)}"
    if s.impl == "nested":
        return {"base": EMPTY, "impl": block(f"class $Outer:\n{indent(cls)}")}, "$Outer.$Impl()"
    return {"base": base, "impl": Block(cls + "\n", header)}, "$Impl()"


def _use_blocks(s: ProtoSpec, value: str) -> Blocks:
    generic = s.spelling in ("generic", "pep695")
    proto = "$NS.$P" if s.spelling == "nested" else "$P"
    ann = f"{proto}[{s.proto_type}]" if generic else proto
    if s.quoted:
        ann = f'"{ann}"'
    api = EMPTY
    if s.use == "annot":
        use = f"$p: {ann} = {value}"
    elif s.use == "param":
        api = block(f"def $take(p: {ann}) -> None:\n    pass")
        use = f"$take({value})"
    elif s.use == "list":
        use = f"$ps: list[{ann}] = [{value}]"
    elif s.use == "return":
        use = f"def $make() -> {ann}:\n    return {value}"
    elif s.use == "spelled":
        reach = {"attr": "p.$frob", "property": "p.$frob", "call": "p(1)"}.get(
            s.member, "p.$frob()"
        )
        use = f"def $run(p: {ann}) -> {s.proto_type}:\n    return {reach}\n\n\n$run({value})"
    else:
        use = f"$ok = isinstance({value}, {proto})"
    return {"api": api, "use": block(use)}


def _blocks(s: ProtoSpec) -> Blocks:
    impl, value = _impl_blocks(s)
    return {**_protocol_blocks(s), **impl, **_use_blocks(s, value)}


def protocol(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    spellings = [k for k in SPELLINGS if ctx.py312 or k != "pep695"]
    s = ProtoSpec(rng.choice(spellings), rng.choice(MEMBERS), rng.choice(IMPLS), rng.choice(USES))
    if s.member in ("call", "property") and s.impl == "module":
        s = replace(s, impl="plain")
    if s.impl == "function" and s.member != "call":
        s = replace(s, impl="plain")
    if s.impl in ("dataclass", "namedtuple") and s.member != "attr":
        s = replace(s, impl="plain")
    if s.impl == "init":
        s = replace(s, member="attr", impl="plain", impl_kind="init")
    if s.use == "isinstance" or rng.random() < 0.2:
        s = replace(s, runtime=True)
    if rng.random() < 0.25:
        s = replace(s, quoted=True)
    if s.spelling in ("generic", "pep695") and s.use == "isinstance":
        s = replace(s, use="annot")
    changes = [
        ("impl member retyped", replace(s, impl_type=other(rng, s.impl_type))),
        ("impl member retyped", replace(s, impl_type=other(rng, s.impl_type))),
        ("impl member renamed", replace(s, impl_member="frob2")),
        ("impl member removed", replace(s, impl_member="")),
        ("impl member value", replace(s, value=OTHER_VALUES[s.impl_type])),
        ("protocol gains a member", replace(s, extra=True)),
        ("protocol method gains a parameter", replace(s, proto_arg=True)),
        ("runtime_checkable toggled", replace(s, runtime=not s.runtime)),
        ("no longer a Protocol", replace(s, is_protocol=False)),
    ]
    if s.spelling not in ("generic", "pep695"):
        changes.append(("protocol member retyped", replace(s, proto_type=other(rng, s.proto_type))))
    if s.impl not in ("module", "function") and not s.impl_kind:
        kinds = [k for k in ("method", "attr", "property") if k != s.member]
        changes.append(("impl member kind", replace(s, impl_kind=rng.choice(kinds))))
    return Feature("protocol", _blocks(s), tuple((label, _blocks(c)) for label, c in changes))
