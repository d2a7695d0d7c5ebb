"""Fuzz features: records whose synthesized members carry a change no consumer spells.

A dataclass (decorated through an import, an alias, the module, a ``dataclass_transform``
decorator or base class of the program's own, or ``attrs`` from the environment), a NamedTuple
or a TypedDict, built positionally, matched with positional class patterns, unpacked, hashed in
a set, ordered, or written as a dict literal; a sub-record in another module adds a field.
Mutations reorder, add, retype or rename fields, toggle ``frozen``/``order``/``kw_only``/
``total``, or drop the decorator.
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
DATACLASS_FORMS = (
    "dataclass",
    "alias",
    "module",
    "transform",
    "transform_base",
    "attrs",
    "workspace",
)
FORMS = (*DATACLASS_FORMS, "namedtuple", "typeddict")
USES = ("positional", "match", "keywords", "hash", "order", "sub")
FIELD_TYPES = ("int", "str", "float", "bytes", "list[int]")


@dataclass(frozen=True)
class RecordSpec:
    form: str
    fields: tuple[tuple[str, str], ...]  # (name, type); the last may have a default
    use: str
    default: bool = False  # the last field has a default
    frozen: bool = False
    order: bool = False
    kw_only: bool = False
    decorated: bool = True
    total: bool = True


def _options(s: RecordSpec) -> str:
    opts = [
        f"{k}=True"
        for k, on in (("frozen", s.frozen), ("order", s.order), ("kw_only", s.kw_only))
        if on
    ]
    return f"({', '.join(opts)})" if opts else ""


def _decorator(s: RecordSpec) -> tuple[str, tuple[str, ...], Block]:
    """The class's decorator line(s), its headers, and the block defining a transform."""
    opts = _options(s)
    if s.form == "transform":
        deco_code = """
            $TT = TypeVar('$TT')


            @dataclass_transform(frozen_default=False)
            def $model(*, frozen: bool = False, order: bool = False, kw_only: bool = False
                       ) -> Callable[[type[$TT]], type[$TT]]:
                return lambda cls: cls
            """
        helper = block(
            deco_code,
            "from collections.abc import Callable",
            "from typing import TypeVar",
            "from typing_extensions import dataclass_transform",
        )
        return f"@$model({opts[1:-1]})\n", (), helper
    if s.form == "transform_base":
        helper = block(
            """
            @dataclass_transform()
            class $ModelBase:
                def __init_subclass__(cls, *, frozen: bool = False, order: bool = False,
                                      kw_only: bool = False) -> None:
                    pass
            """,
            "from typing_extensions import dataclass_transform",
        )
        return "", (), helper
    spelled = {
        "dataclass": ("@dataclass", "from dataclasses import dataclass"),
        "alias": ("@$dc", "from dataclasses import dataclass as $dc"),
        "module": ("@dataclasses.dataclass", "import dataclasses"),
        "attrs": ("@attrs.define", "import attrs"),
    }
    if s.form == "workspace":  # dataclass re-exported by another module of the program
        helper = reexport("from dataclasses import dataclass as $wdc", "wdc")
        return f"@$wdc{opts}\n", (), helper
    deco, header = spelled[s.form]
    return f"{deco}{opts}\n", (header,), EMPTY


def _record_def(s: RecordSpec) -> Blocks:
    lines = [f"${n}: {t}" for n, t in s.fields]
    if s.default:
        lines[-1] += f" = {TYPES[s.fields[-1][1]]}"
    body = indent("\n".join(lines))
    if s.form == "namedtuple":
        return {
            "helper": EMPTY,
            "rec": Block(f"class $Rec(NamedTuple):\n{body}\n", ("from typing import NamedTuple",)),
        }
    if s.form == "typeddict":
        total = "" if s.total else ", total=False"
        return {
            "helper": EMPTY,
            "rec": Block(
                f"class $Rec(TypedDict{total}):\n{body}\n", ("from typing import TypedDict",)
            ),
        }
    deco, header, helper = _decorator(s) if s.decorated else ("", (), EMPTY)
    if s.form in ("transform", "workspace"):
        helper = _decorator(s)[2]
    bases = ""
    if s.form == "transform_base":
        helper = _decorator(s)[2]
        kws = _options(s)[1:-1]
        bases = f"($ModelBase{', ' + kws if kws else ''})" if s.decorated else ""
    return {"helper": helper, "rec": Block(f"{deco}class $Rec{bases}:\n{body}\n", header)}


def _record_use(s: RecordSpec) -> Blocks:
    values = [TYPES[t] for _, t in s.fields]
    positional = f"$Rec({', '.join(values)})"
    sub = EMPTY
    if s.form == "typeddict":
        items = ", ".join(f"'${n}': {v}" for (n, _), v in zip(s.fields, values, strict=True))
        return {"sub": sub, "use": block(f"$d: $Rec = {{{items}}}")}
    if s.use == "match":
        names = [f"$c{i}" for i in range(len(s.fields))]
        checks = "\n".join(f"            $w{i}: {t} = $c{i}" for i, (_, t) in enumerate(s.fields))
        code = (
            f"def $read(r: object) -> None:\n    match r:\n        case $Rec({', '.join(names)}):\n"
            f"{checks}\n        case _:\n            pass"
        )
    elif s.use == "keywords":
        kws = ", ".join(f"${n}={v}" for (n, _), v in zip(s.fields, values, strict=True))
        code = f"$r = $Rec({kws})"
    elif s.use == "hash":
        code = f"$s = {{{positional}}}"
    elif s.use == "order":
        code = f"$v = {positional} < {positional}"
    elif s.use == "sub" and s.form in DATACLASS_FORMS:
        sub = Block(f"{_decorator(s)[0]}class $Sub($Rec):\n    $extra: int = 0\n", _decorator(s)[1])
        code = f"$r = $Sub({', '.join(values)})"
    else:
        code = f"$r = {positional}"
        if s.form == "namedtuple":
            names = ", ".join(f"$c{i}" for i in range(len(s.fields)))
            code = f"{names} = {positional}\n$w: {s.fields[0][1]} = $c0"
    return {"sub": sub, "use": block(code)}


def _record_blocks(s: RecordSpec, base: RecordSpec) -> Blocks:
    return {**_record_def(s), **_record_use(base)}


def record(ctx: FeatureCtx) -> Feature:
    rng = ctx.rng
    form = rng.choice(FORMS)
    count = rng.randint(2, 3)
    fields = tuple((f"f{i}", rng.choice(FIELD_TYPES)) for i in range(count))
    s = RecordSpec(form, fields, rng.choice(USES), default=rng.random() < 0.3)
    if s.use == "order" and form in DATACLASS_FORMS:
        s = replace(s, order=True)
    swapped = (fields[1], fields[0], *fields[2:])
    changes = [
        ("fields reordered", replace(s, fields=swapped)),
        ("field added", replace(s, fields=(*fields, (f"f{count}", "int")))),
        (
            "field retyped",
            replace(s, fields=((fields[0][0], other(rng, fields[0][1])), *fields[1:])),
        ),
        ("field renamed", replace(s, fields=(*fields[:-1], (fields[-1][0] + "x", fields[-1][1])))),
        ("default toggled", replace(s, default=not s.default)),
    ]
    if form in DATACLASS_FORMS:
        changes += [
            ("frozen toggled", replace(s, frozen=not s.frozen)),
            ("order toggled", replace(s, order=not s.order)),
            ("kw_only toggled", replace(s, kw_only=not s.kw_only)),
            ("decorator dropped", replace(s, decorated=False)),
        ]
    if form == "typeddict":
        changes.append(("total toggled", replace(s, total=not s.total)))
    versions = tuple((label, _record_blocks(c, s)) for label, c in changes)
    return Feature("record", _record_blocks(s, s), versions)
