"""Random changes to a fuzz program (``ts_fuzzgen.py``), as patches of files.

Each patch applies one to three *mutations* to a copy of the model and is the difference between
the two renderings. The mutations are interface changes, or changes that only look like one:

- ``retype``: a symbol's type (a module's export, a script's global, a ``declare global`` var, an
  augmentation's member, a JSON field, a ``.d.ts`` declaration); users typed with the old type
  break. An alias a ``declare global`` is built from is picked often: only the global's users,
  which import nothing, see it.
- ``body``: an annotated function's body (no interface change; sometimes an error inside it).
- ``rename``, ``remove``: an export goes; its importers break.
- ``delete``: a module goes; ``create``: a new module and a new importer of it.
- ``trap``: a template literal or comment that fooled regular expressions (no change at all).
- ``export_script``: a script gains ``export {}``: its globals vanish.
- ``edge``: a module gains one more import and use.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.ts_fuzzgen import TYPES, Edge, Module, Symbol, draw_edge, syntaxes
from tests.support.ts_fuzzrender import render

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.support.ts_fuzzgen import Program


@dataclass(frozen=True)
class FuzzPatch:
    name: str  # the mutations, e.g. "retype(m3_const4 number->string)+trap(m1)"
    edits: dict[str, str | None]  # changed files: new text, None when deleted

    @property
    def touches_json_module(self) -> bool:
        return any(p.endswith(".json") and p.startswith("src/") for p in self.edits)


def _live(program: Program) -> list[Module]:
    return [m for m in program.modules.values() if not m.deleted]


def _symbols(program: Program) -> list[tuple[Module, Symbol]]:
    return [(m, s) for m in _live(program) for s in m.symbols]


def _used(program: Program) -> set[str]:
    return {e.symbol for m in program.modules.values() for e in m.edges}


def _retype(program: Program, rng: random.Random) -> str | None:
    pairs = _symbols(program)
    used = _used(program)
    aliases = {m.source[1] for m in _live(program) if m.source}
    weighted = [p for p in pairs if p[1].name in used or p[1].name in aliases]
    if not pairs:
        return None
    module, symbol = rng.choice(weighted if weighted and rng.random() < 0.8 else pairs)
    if module.source is not None and symbol.kind in ("aug", "via"):
        return None  # its type is the alias's: retype the alias instead
    old = symbol.type
    symbol.type = rng.choice([t for t in TYPES if t != old])
    for other in program.modules.values():  # a global built on this alias follows it
        if other.source == (module.key, symbol.name):
            for built in other.symbols:
                if built.kind in ("aug", "via"):
                    built.type = symbol.type
    return f"retype({symbol.name} {old}->{symbol.type})"


def _body(program: Program, rng: random.Random) -> str | None:
    fns = [
        (m, s)
        for m, s in _symbols(program)
        if s.kind in ("fn", "class") and not m.path.endswith(".d.ts")
    ]
    if not fns:
        return None
    _, symbol = rng.choice(fns)
    symbol.body = rng.choice([b for b in range(4) if b != symbol.body])
    return f"body({symbol.name}#{symbol.body})"


def _rename_or_remove(program: Program, rng: random.Random) -> str | None:
    pairs = [(m, s) for m, s in _symbols(program) if m.flavour not in ("global", "augment")]
    used = _used(program)
    pairs = [p for p in pairs if p[1].name in used] or pairs
    if not pairs:
        return None
    module, symbol = rng.choice(pairs)
    if module.flavour == "json" or rng.random() < 0.5:
        module.symbols.remove(symbol)
        return f"remove({symbol.name})"
    old, symbol.name = symbol.name, program.fresh(f"{symbol.name}_r")
    return f"rename({old}->{symbol.name})"


def _delete(program: Program, rng: random.Random) -> str | None:
    modules = _live(program)
    if not modules:
        return None
    module = rng.choice(modules)
    module.deleted = True  # whatever names it now names nothing
    return f"delete({module.key})"


def _create(program: Program, rng: random.Random) -> str | None:
    importers = [m for m in _live(program) if m.flavour in ("ts", "tsx")]
    if not importers:
        return None
    key = program.fresh("n")
    module = Module(key, f"src/{key}.ts", "ts")
    kind = rng.choice(["const", "fn", "iface", "alias", "class"])
    module.symbols.append(Symbol(program.fresh(f"{key}_{kind}"), kind, rng.choice(TYPES)))
    program.modules[key] = module
    importer = rng.choice(importers)
    symbol = module.symbols[0]
    syntax = rng.choice(syntaxes(program.config, importer.flavour, module, symbol.kind))
    # the importer may expect another type than the new module has: red, by design
    expected = rng.choice(TYPES) if rng.random() < 0.5 else symbol.type
    importer.edges.append(
        Edge(key, key, symbol.name, symbol.kind, expected, syntax, rng.randrange(6), 0)
    )
    return f"create({key} for {importer.key})"


def _trap(program: Program, rng: random.Random) -> str | None:
    modules = [m for m in _live(program) if m.flavour not in ("json", "dts")]
    if not modules:
        return None
    module = rng.choice(modules)
    module.traps.append(rng.randrange(4))
    return f"trap({module.key})"


def _export_script(program: Program, rng: random.Random) -> str | None:
    scripts = [m for m in _live(program) if m.flavour == "script" and not m.exported]
    if not scripts:
        return None
    module = rng.choice(scripts)
    module.exported = True
    return f"export_script({module.key})"


def _edge(program: Program, rng: random.Random) -> str | None:
    importers = [m for m in _live(program) if m.flavour in ("ts", "tsx", "js")]
    if not importers:
        return None
    module = rng.choice(importers)
    edge = draw_edge(rng, program, module)
    if edge is None:
        return None
    module.edges.append(edge)
    return f"edge({module.key}->{edge.symbol} {edge.syntax})"


_MUTATIONS: tuple[tuple[Callable[[Program, random.Random], str | None], int], ...] = (
    (_retype, 8),
    (_body, 2),
    (_rename_or_remove, 2),
    (_delete, 1),
    (_create, 1),
    (_trap, 1),
    (_export_script, 1),
    (_edge, 1),
)


def generate_patches(program: Program, count: int) -> list[FuzzPatch]:
    """``count`` patches of ``program``, each drawn from its seed and its index."""
    base = render(program)
    patches: list[FuzzPatch] = []
    attempt = 0
    while len(patches) < count and attempt < count * 10:
        rng = random.Random(f"{program.seed}:{attempt}")
        attempt += 1
        changed = copy.deepcopy(program)
        names: list[str] = []
        for _ in range(rng.choices((1, 2, 3), (7, 2, 1))[0]):
            mutate = rng.choices([m for m, _ in _MUTATIONS], [w for _, w in _MUTATIONS])[0]
            name = mutate(changed, rng)
            if name is not None:
                names.append(name)
        after = render(changed)
        edits = {
            path: after.get(path)
            for path in sorted(set(base) | set(after))
            if base.get(path) != after.get(path)
        }
        if edits:
            patches.append(FuzzPatch("+".join(names), edits))
    return patches
