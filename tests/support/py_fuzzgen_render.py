"""A generated program written out as files, before or after a patch's changes.

Each block goes to its slot's module; a reference to a name another block binds elsewhere is
spelled one of many ways, chosen once per (feature, block, name) so that the base and every
patch spell it alike: ``from m import x``, a relative import, ``import m as alias`` then
``alias.x``, ``from pkg import m`` then ``m.x``, ``import pkg.m`` then ``pkg.m.x``, a re-export
from the package's ``__init__`` (``as`` form or plain), from a hub module (plain, star, or an
alias variable ``x_al = x``), or a star import of the module itself. Slots with a
stub get one written from their source (``stubs.autostub``); ``__all__`` lists a slot's public
names. A patch (``Op``s) is rendered as the same program with its changes applied; the files that
differ from the base render are the patch.
"""

from __future__ import annotations

import random
from string import Template
from typing import TYPE_CHECKING

from tests.support.py_fuzzgen_stubs import autostub
from tests.support.py_fuzzgen_view import (
    Reexports,
    all_text,
    binder_of,
    file_path,
    lines_text,
    module_path,
    reexported,
    relative,
    unique,
    view_of,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from tests.support.py_fuzzgen_model import Block, Op, Program
    from tests.support.py_fuzzgen_view import View

SPELLINGS = {
    "from": 4,
    "relative": 2,
    "import_as": 2,
    "from_pkg": 2,
    "dotted": 1,
    "init": 2,
    "hub": 2,
    "hub_star": 1,
    "star": 2,
    "alias": 1,
    "init_module": 1,
}
MODULE_SPELLINGS = ("import_as", "from_pkg", "dotted")


def render(program: Program, ops: Sequence[Op] = ()) -> dict[str, str]:
    """Every file of ``program`` (with ``ops`` applied): path -> text."""
    base = _Renderer(program, view_of(program))
    base_files = base.run(None)
    if not ops:
        return base_files
    view = view_of(program, ops)
    files = _Renderer(program, view).run(base.reexports)
    base_view = view_of(program)
    for slot in view.frozen_source:
        path, base_path = file_path(program, view, slot), file_path(program, base_view, slot)
        if path in files and base_path in base_files:
            files[path] = base_files[base_path]
    for slot in view.frozen_stub:
        path = file_path(program, view, slot, stub=True)
        base_path = file_path(program, base_view, slot, stub=True)
        if path in files and base_path in base_files:
            files[path] = base_files[base_path]
    return files


def patch_files(program: Program, ops: Sequence[Op]) -> dict[str, str | None]:
    """The patch: path -> new text, None for a deleted file."""
    before, after = render(program), render(program, ops)
    return {
        p: after.get(p)
        for p in sorted(before.keys() | after.keys())
        if before.get(p) != after.get(p)
    }


class _Renderer:
    def __init__(self, program: Program, view: View) -> None:
        self.program = program
        self.view = view
        self.imports: dict[int, list[str]] = {i: [] for i in range(len(program.slots))}
        self.reexports = Reexports()

    def run(self, inherited: Reexports | None) -> dict[str, str]:
        program, view = self.program, self.view
        bodies: dict[int, list[str]] = {i: [] for i in range(len(program.slots))}
        headers: dict[int, list[str]] = {i: [] for i in range(len(program.slots))}
        public: dict[int, list[str]] = {i: [] for i in range(len(program.slots))}
        for f, feature in enumerate(program.features):
            binder = binder_of(program, f)
            for key in feature.blocks:
                b = view.versions[f].get(key)
                if b is None or not b.code.strip():
                    continue
                slot = program.placement[(f, key)]
                code, header = self._substitute(f, key, b, slot, binder)
                bodies[slot].append(code)
                headers[slot] += header
                public[slot] += [self._name(f, n) for n in b.defines() if not n.startswith("_")]
        for lo, hi, form in view.cycles:
            self.imports[lo] += self._cycle_import(lo, hi, form)
        reexports = self.reexports if inherited is None else inherited.merged(self.reexports)
        self.reexports = reexports
        files: dict[str, str] = {}
        for slot in sorted(view.present):
            text = self._module(slot, headers[slot], bodies[slot], public[slot])
            files[file_path(program, view, slot)] = text
            if slot in view.stubbed:
                files[file_path(program, view, slot, stub=True)] = autostub(text)
            if view.packaged.get(slot) == "shadowed":  # a package beside the module wins
                files[file_path(program, view, slot).removesuffix(".py") + "/__init__.py"] = ""
        init = reexports.files.get("__init__", [])
        init = [line for line in init if reexported(line) not in view.init_drop]
        files[f"{program.name}/__init__.py"] = lines_text(
            init, [f"{leaf} = 1" for leaf in sorted(view.init_shadow)]
        )
        if any(s.name.startswith("sub.") for s in program.slots):
            files[f"{program.name}/sub/__init__.py"] = ""
        for package in view.no_init:
            files.pop(f"{program.name}/{package}__init__.py", None)
        for name, lines in reexports.files.items():
            if name != "__init__":
                imports = [line for line in lines if line.startswith("from ")]
                files[f"{program.name}/{name}.py"] = lines_text(
                    imports, [line for line in lines if not line.startswith("from ")]
                )
        return files

    def _module(self, slot: int, header: list[str], bodies: list[str], public: list[str]) -> str:
        view = self.view
        # sorted: a patch that drops one block's import moves no other line
        top = sorted(set(header)) + sorted(set(self.imports[slot]) - set(header))
        parts = ["\n".join(top)] if top else []
        parts += bodies
        if slot in view.getattr:
            parts.append("def __getattr__(name: str) -> int: ...\n")
        listed = [n for n in unique(public) if n != view.all_drop.get(slot)]
        form = self.program.slots[slot].all_form
        if self.program.slots[slot].all_:
            parts.append(all_text(listed, form))
        elif slot in view.all_added:
            parts.append(all_text([n for n in listed if n != view.all_added[slot]], form))
        if slot in view.future:
            parts.insert(0, "from __future__ import annotations")
        text = "\n\n\n".join(p.rstrip("\n") for p in parts) + "\n" if parts else ""
        return f"{view.comment[slot]}\n{text}" if slot in view.comment else text

    def _cycle_import(self, lo: int, hi: int, form: str) -> list[str]:
        """An import of slot ``hi`` in slot ``lo``, spelled ``form``: pyright's cycle report
        counts ``import a.b`` and ``from a import b`` as importing ``a`` too, the others not."""
        mod = module_path(self.program, self.view, hi)
        parent, _, leaf = mod.rpartition(".")
        if form == "import_as":
            return [f"import {mod} as {leaf}_cyc"]
        if form == "from_parent" and parent:
            return [f"from {parent} import {leaf}"]
        if form == "relative" and parent and not self.program.slots[lo].ext:
            here = module_path(self.program, self.view, lo)
            return [f"from {relative(here, parent)} import {leaf}"]
        if form == "type_checking":
            return ["from typing import TYPE_CHECKING", f"if TYPE_CHECKING:\n    import {mod}"]
        return [f"import {mod}"]

    def _name(self, f: int, name: str) -> str:
        return f"{name}_{self.program.features[f].uid}"

    def _substitute(
        self, f: int, key: str, b: Block, slot: int, binder: Mapping[str, str]
    ) -> tuple[str, list[str]]:
        code, header = Template(b.code), [Template(h) for h in b.header]
        mapping: dict[str, str] = {}
        for ident in {*code.get_identifiers(), *(i for h in header for i in h.get_identifiers())}:
            target = binder.get(ident.removeprefix("mod__"))
            if ident.startswith("mod__") and target is not None:
                tslot = self.program.placement[(f, target)]
                mapping[ident] = self._module_ref(f, key, ident, slot, tslot)
            elif target is not None and target != key:
                tslot = self.program.placement[(f, target)]
                name = self._name(f, ident)
                mapping[ident] = name if tslot == slot else self._ref(f, key, name, slot, tslot)
            else:
                mapping[ident] = self._name(f, ident)
        return code.substitute(mapping), [h.substitute(mapping) for h in header]

    def _rng(self, f: int, key: str, name: str) -> random.Random:
        stem = name.replace("_rn_", "_")  # a renamed name is spelled as it was
        uid = self.program.features[f].uid
        return random.Random(f"{self.program.seed}/{uid}/{key}/{stem}")

    def _ref(self, f: int, key: str, name: str, slot: int, tslot: int) -> str:
        """The expression for ``name`` (bound in ``tslot``) in ``slot``, imports recorded."""
        program, view = self.program, self.view
        t_ext, c_ext = program.slots[tslot].ext, program.slots[slot].ext
        allowed = {
            s: w
            for s, w in SPELLINGS.items()
            if not (s == "relative" and (t_ext or c_ext))
            and not (s == "from_pkg" and t_ext)
            and not (s == "init_module" and (t_ext or "." in view.import_name[tslot]))
            and not (s in ("star", "hub_star") and name.startswith("_"))
        }
        rng = self._rng(f, key, name)
        spelling = rng.choices(list(allowed), list(allowed.values()))[0]
        mod = module_path(program, view, tslot)
        imports = self.imports[slot]
        pkg = program.name
        rel = "." + view.import_name[tslot]
        if spelling in ("from", "relative"):
            source = (
                relative(module_path(program, view, slot), mod) if spelling == "relative" else mod
            )
            imports.append(f"from {source} import {name}")
            return name
        if spelling in MODULE_SPELLINGS:
            return self._module_expr(spelling, slot, mod) + "." + name
        if spelling == "init_module":  # the package's __init__ makes the module its attribute
            self.reexports.add("__init__", f"from . import {view.import_name[tslot]}")
            imports.append(f"import {pkg}")
            return f"{pkg}.{view.import_name[tslot]}.{name}"
        if spelling == "star":
            imports.append(f"from {mod} import *")
            return name
        if spelling == "init":
            # No star form: a slot importing ``from pkg import x`` would close a cycle of it.
            form = "plain" if t_ext else rng.choice(["as", "plain"])
            line = {
                "as": f"from {rel} import {name} as {name}",
                "plain": f"from {mod} import {name}",
            }[form]
            self.reexports.add("__init__", line)
            imports.append(f"from {pkg} import {name}")
            return name
        hub = f"hub{tslot}"
        if spelling == "hub_star":
            self.reexports.add(hub, f"from {mod} import *")
            imports.append(f"from {pkg}.{hub} import *")
            return name
        self.reexports.add(hub, f"from {mod} import {name}")
        if spelling == "alias":
            self.reexports.add(hub, f"{name}_al = {name}")
            imports.append(f"from {pkg}.{hub} import {name}_al")
            return f"{name}_al"
        imports.append(f"from {pkg}.{hub} import {name}")
        return name

    def _module_ref(self, f: int, key: str, ident: str, slot: int, tslot: int) -> str:
        program = self.program
        choices = [
            s for s in MODULE_SPELLINGS if not (s == "from_pkg" and program.slots[tslot].ext)
        ]
        spelling = self._rng(f, key, ident).choice(choices)
        return self._module_expr(spelling, slot, module_path(program, self.view, tslot))

    def _module_expr(self, spelling: str, slot: int, mod: str) -> str:
        imports = self.imports[slot]
        if spelling == "import_as" or (spelling == "from_pkg" and "." not in mod):
            alias = mod.replace(".", "_") + "_mod"
            imports.append(f"import {mod} as {alias}")
            return alias
        if spelling == "from_pkg":
            parent, leaf = mod.rsplit(".", 1)
            imports.append(f"from {parent} import {leaf}")
            return leaf
        imports.append(f"import {mod}")
        return mod
