"""Fuzz features: functions reached through decorators, inference and overloads.

A function, maybe decorated (a ``ParamSpec`` decorator of the program's own, identity or one that
changes the return type, ``functools.cache``, ``contextlib.contextmanager``, ``@deprecated``),
maybe ``async``, reached through another module's unannotated wrapper, variable, alias or
``functools.partial``, or assigned to a ``Callable``, and called as a statement in another
unannotated wrapper (``names.calls``). Overloaded functions and methods called with each arm.
Mutations retype the return or the parameter, add a parameter, make it keyword-only, swap the
decorator, toggle ``async``; for overloads, swap, drop or add an arm.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_model import TYPES, Block, Blocks, Feature, block, indent, other

if TYPE_CHECKING:
    from tests.support.py_fuzzgen_model import FeatureCtx

EMPTY = Block()
DECOS = ("", "", "identity", "listify", "cache", "contextmanager", "deprecated")
MIDDLES = ("", "unannotated", "variable", "alias", "partial")
CUSTOM = {
    "identity": """
        def $deco(fn: Callable[$PS, $R]) -> Callable[$PS, $R]:
            return fn
        """,
    "listify": """
        def $deco(fn: Callable[$PS, $R]) -> Callable[$PS, list[$R]]:
            def inner(*args: $PS.args, **kwargs: $PS.kwargs) -> list[$R]:
                return [fn(*args, **kwargs)]

            return inner
        """,
}
DECO_HEADERS = {
    "cache": ("@functools.cache", ("import functools",)),
    "contextmanager": (
        "@contextmanager",
        ("from contextlib import contextmanager", "from collections.abc import Iterator"),
    ),
    "deprecated": (
        "@deprecated('use something else')",
        ("from typing_extensions import deprecated",),
    ),
}


@dataclass(frozen=True)
class FuncSpec:
    deco: str
    middle: str
    callback: bool  # assigned to a Callable instead of called
    ret: str = "int"
    param: str = "int"
    extra: bool = False
    kwonly: bool = False
    asyncf: bool = False


def _deco_block(s: FuncSpec) -> Block:
    if s.deco not in CUSTOM:
        return EMPTY
    head = "$PS = ParamSpec('$PS')\n$R = TypeVar('$R')\n\n\n"
    return block(
        head + textwrap.dedent(CUSTOM[s.deco]).strip("\n"),
        "from collections.abc import Callable",
        "from typing import ParamSpec, TypeVar",
    )


def _fn_block(s: FuncSpec) -> Block:
    params = f"{'*, ' if s.kwonly else ''}x: {s.param}{', y: int' if s.extra else ''}"
    deco, header = ("@$deco", ()) if s.deco in CUSTOM else DECO_HEADERS.get(s.deco, ("", ()))
    if s.deco == "contextmanager":
        body, ret = f"yield {TYPES[s.ret]}", f"Iterator[{s.ret}]"
    else:
        body, ret = f"return {TYPES[s.ret]}", s.ret
    asyncf = "async " if s.asyncf else ""
    code = f"{deco + chr(10) if deco else ''}{asyncf}def $make({params}) -> {ret}:\n    {body}\n"
    return Block(code, header)


def _result(s: FuncSpec) -> str:
    return f"list[{s.ret}]" if s.deco == "listify" else s.ret


def _use_blocks(s: FuncSpec) -> Blocks:
    arg = TYPES[s.param]
    call = {
        "": f"$make({arg})",
        "unannotated": "$wrap()",
        "variable": "$val",
        "alias": f"$fn({arg})",
        "partial": "$part()",
    }[s.middle]
    mid = {
        "": EMPTY,
        "unannotated": block(f"def $wrap():\n    return $make({arg})"),
        "variable": block(f"$val = $make({arg})"),
        "alias": block("$fn = $make"),
        "partial": block(f"$part = functools.partial($make, {arg})", "import functools"),
    }[s.middle]
    if s.callback:
        code = f"$cb: Callable[[{s.param}], {_result(s)}] = $make"
        return {"mid": EMPTY, "use": block(code, "from collections.abc import Callable")}
    # an unannotated wrapper calling it as a statement (``names.calls``: its type is its own
    # return's whatever the call's arguments), used from the ``use`` block
    stmt = (
        EMPTY if s.asyncf else block(f"def $stmt():\n    $make({arg})\n    return {TYPES[s.ret]}")
    )
    calls = "" if s.asyncf else f"\n$s: {s.ret} = $stmt()"
    if s.deco == "contextmanager":
        code = f"with {call} as $v:\n    $w: {s.ret} = $v"
    elif s.asyncf:
        code = f"async def $main() -> None:\n    $r: {_result(s)} = await {call}"
    else:
        code = f"$r: {_result(s)} = {call}"
    return {"mid": mid, "stmt": stmt, "use": block(code + calls)}


def _function_blocks(s: FuncSpec, base: FuncSpec) -> Blocks:
    return {"deco": _deco_block(s), "fn": _fn_block(s), **_use_blocks(base)}


def function(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = FuncSpec(rng.choice(DECOS), rng.choice(MIDDLES), rng.random() < 0.15)
    if s.deco != "contextmanager" and rng.random() < 0.2:
        s = replace(s, asyncf=True)
    changes = [
        ("return retyped", replace(s, ret=other(rng, s.ret))),
        ("parameter retyped", replace(s, param=other(rng, s.param))),
        ("parameter added", replace(s, extra=True)),
        ("keyword-only", replace(s, kwonly=True)),
        ("decorator changed", replace(s, deco=other(rng, s.deco, list(DECOS)))),
    ]
    if s.deco != "contextmanager":
        changes.append(("async toggled", replace(s, asyncf=not s.asyncf)))
    versions = tuple((label, _function_blocks(c, s)) for label, c in changes)
    return Feature("function", _function_blocks(s, s), versions)


@dataclass(frozen=True)
class OverloadSpec:
    method: bool
    arms: tuple[tuple[str, str], ...] = (("int", "int"), ("str", "str"))
    spelled: str = "overload"  # or "typing.overload"


def _overload_blocks(s: OverloadSpec, base: OverloadSpec) -> Blocks:
    header = (
        ("import typing",) if s.spelled == "typing.overload" else ("from typing import overload",)
    )
    self_ = "self, " if s.method else ""
    arms = "".join(f"@{s.spelled}\ndef $conv({self_}x: {p}) -> {r}: ...\n" for p, r in s.arms)
    impl = f"def $conv({self_}x: Any) -> Any:\n    return x\n"
    code = arms + impl
    if s.method:
        code = f"class $Conv:\n{indent(code)}"
    target = "$Conv().$conv" if s.method else "$conv"
    uses = "\n".join(f"$a{i}: {r} = {target}({TYPES[p]})" for i, (p, r) in enumerate(base.arms))
    return {"def": Block(code, (*header, "from typing import Any")), "use": block(uses)}


def overloaded(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    s = OverloadSpec(rng.random() < 0.3, spelled=rng.choice(["overload", "typing.overload"]))
    (p0, r0), second = s.arms
    changes = [
        ("arm retyped", replace(s, arms=((p0, other(rng, r0)), second))),
        ("arm dropped", replace(s, arms=(s.arms[0], ("bytes", "bytes")))),
        ("arm added", replace(s, arms=(*s.arms, ("float", "float")))),
        ("arms swapped", replace(s, arms=(second, (p0, r0)))),
        ("parameter widened", replace(s, arms=(("object", r0), second))),
    ]
    versions = tuple((label, _overload_blocks(c, s)) for label, c in changes)
    return Feature("overload", _overload_blocks(s, s), versions)
