"""What one render of a generated program shows: each feature's blocks and each slot's state,
the base's or with a patch's changes (``Op``) applied."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from tests.support.py_fuzzgen_model import Block, Op, Program


@dataclass
class View:
    """The program as one render shows it: each feature's blocks and each slot's state."""

    versions: dict[int, Mapping[str, Block]]
    present: set[int]
    file_name: dict[int, str]
    import_name: dict[int, str]
    stubbed: set[int]
    frozen_stub: set[int] = field(default_factory=set[int])
    frozen_source: set[int] = field(default_factory=set[int])
    all_drop: dict[int, str] = field(default_factory=dict[int, str])
    all_added: dict[int, str] = field(default_factory=dict[int, str])
    getattr: set[int] = field(default_factory=set[int])
    cycles: list[tuple[int, int, str]] = field(default_factory=list[tuple[int, int, str]])
    init_drop: set[str] = field(default_factory=set[str])
    renamed: dict[int, tuple[str, str]] = field(default_factory=dict[int, tuple[str, str]])
    packaged: dict[int, str] = field(default_factory=dict[int, str])  # "moved" | "shadowed"
    future: set[int] = field(default_factory=set[int])  # from __future__ import annotations
    comment: dict[int, str] = field(default_factory=dict[int, str])  # a "# pyright:" comment
    init_shadow: set[str] = field(default_factory=set[str])  # __init__ binds a submodule's name
    no_init: set[str] = field(default_factory=set[str])  # packages left without __init__.py


def view_of(program: Program, ops: Sequence[Op] = ()) -> View:
    slots = program.slots
    view = View(
        {f: feature.blocks for f, feature in enumerate(program.features)},
        {i for i, s in enumerate(slots) if not s.absent},
        {i: s.name for i, s in enumerate(slots)},
        {i: s.name for i, s in enumerate(slots)},
        {i for i, s in enumerate(slots) if s.stub},
    )
    for op in ops:
        _apply(program, view, op)
    return view


def _apply(program: Program, view: View, op: Op) -> None:
    t = op.target
    match op.kind:
        case "mutate":
            view.versions[t] = program.features[t].mutations[op.index][1]
        case "rename":
            view.versions[t] = _renamed(view.versions[t], op.arg, keep_one=op.index == 1)
            view.renamed[t] = (op.arg, op.arg + "_rn")
        case "delete":
            view.present.discard(t)
        case "add":
            view.present.add(t)
        case "move":
            view.file_name[t] = program.slots[t].name + "_mv"
            if op.index == 1:
                view.import_name[t] = view.file_name[t]
        case "stub_add":
            view.stubbed.add(t)
        case "stub_drop":
            view.stubbed.discard(t)
        case "stub_only":
            view.frozen_source.add(t)
        case "source_only":
            view.frozen_stub.add(t)
        case "all_drop":
            view.all_drop[t] = op.arg
        case "all_add":
            view.all_added[t] = op.arg
        case "getattr":
            view.getattr.add(t)
        case "cycle":
            view.cycles.append((t, op.index, op.arg))
        case "init_drop":
            view.init_drop.add(op.arg)
        case "to_package" | "shadow_package":
            view.packaged[t] = "moved" if op.kind == "to_package" else "shadowed"
        case "future":
            view.future.add(t)
        case "pyright":
            view.comment[t] = op.arg
        case "init_shadow":
            view.init_shadow.add(op.arg)
        case "init_delete":  # the package becomes a namespace package
            view.no_init.add(op.arg)
        case _:
            raise ValueError(f"unknown op {op.kind}")


def _renamed(blocks: Mapping[str, Block], name: str, keep_one: bool) -> dict[str, Block]:
    """Every ``$name`` becomes ``$name_rn``; ``keep_one``: the last block that only uses it
    keeps the old name (a rename that forgot a caller)."""
    pattern = re.compile(rf"\$(mod__)?{re.escape(name)}(?!\w)")
    users = [k for k, b in blocks.items() if pattern.search(b.code) and name not in b.defines()]
    kept = users[-1] if keep_one and users else None
    out: dict[str, Block] = {}
    for key, b in blocks.items():
        if key == kept:
            out[key] = b
            continue
        code = pattern.sub(lambda m: f"${m.group(1) or ''}{name}_rn", b.code)
        binds = tuple(n + "_rn" if n == name else n for n in b.binds)
        out[key] = replace(b, code=code, binds=binds)
    return out


def binder_of(program: Program, f: int) -> dict[str, str]:
    """Name -> the key of the block binding it, in any version of feature ``f``."""
    out: dict[str, str] = {}
    for version in program.features[f].versions():
        for key, b in version.items():
            for name in b.defines():
                out.setdefault(name, key)
                out.setdefault(name + "_rn", key)
    return out


def module_path(program: Program, view: View, slot: int) -> str:
    name = view.import_name[slot]
    if program.slots[slot].ext:
        return f"{program.name}_{name}"
    return f"{program.name}.{name}"


def file_path(program: Program, view: View, slot: int, stub: bool = False) -> str:
    name = view.file_name[slot]
    if program.slots[slot].ext:
        if stub and program.slots[slot].stub == "stubs":
            return f"{program.name}_{name}-stubs/__init__.pyi"
        return f"{program.name}_{name}/__init__.py" + ("i" if stub else "")
    path = f"{program.name}/{name.replace('.', '/')}"
    if view.packaged.get(slot) == "moved":
        path += "/__init__"
    return path + ".py" + ("i" if stub else "")


@dataclass
class Reexports:
    """Lines of the package's ``__init__`` and of each slot's hub module (``hub<slot>``, which
    re-exports that slot's names only: a hub of every slot would import the slots that import
    it, and pyright resolves a star import in a cycle by the order it checks files in)."""

    files: dict[str, list[str]] = field(default_factory=dict[str, list[str]])

    def add(self, name: str, line: str) -> None:
        self.files.setdefault(name, []).append(line)

    def merged(self, other: Reexports) -> Reexports:
        names = dict.fromkeys([*self.files, *other.files])
        return Reexports(
            {n: unique([*self.files.get(n, []), *other.files.get(n, [])]) for n in names}
        )


def unique(lines: list[str]) -> list[str]:
    return list(dict.fromkeys(lines))


def all_text(names: list[str], form: str) -> str:
    """``__all__`` in one of the forms pyright reads."""
    if form == "tuple":
        return f"__all__ = {tuple(names)!r}\n"
    if form == "plus" and names:
        return f"__all__ = {names[:1]!r}\n__all__ += {names[1:]!r}\n"
    if form == "extend" and names:
        return f"__all__ = {names[:1]!r}\n__all__.extend({names[1:]!r})\n"
    if form == "annotated":
        return f"__all__: list[str] = {names!r}\n"
    if form == "append":
        return "__all__: list[str] = []\n" + "".join(f"__all__.append({n!r})\n" for n in names)
    return f"__all__ = {names!r}\n"


def relative(importer: str, target: str) -> str:
    """``target`` as a relative module from the module ``importer`` (both in one package)."""
    here = importer.split(".")[:-1]
    there = target.split(".")
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    dots = "." * (len(here) - common + 1)
    return dots + ".".join(there[common:])


def reexported(line: str) -> str:
    """The name an ``__init__`` line re-exports ("" for a star import)."""
    return "" if line.endswith("*") else line.rsplit(" ", 1)[-1]


def lines_text(*groups: list[str]) -> str:
    parts = ["\n".join(g) for g in groups if g]
    return "\n\n".join(parts) + "\n" if parts else ""
