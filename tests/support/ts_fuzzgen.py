"""Random small TypeScript projects for the planner fuzzer: modules, the symbols they export and
the uses other files make of them, each reached through a different syntax.

A program is a model (``Program``: modules, symbols, edges), rendered to files by
``ts_fuzzrender.py`` and changed by ``ts_fuzzpatches.py``; a patch is the difference between two
renderings, so the same code writes the base and the candidate. Everything is drawn from one
``random.Random(seed)``: a seed names a program and its patches for good.

What the programs hold, chosen to tempt the planner (issue 19): modules in ``.ts``, ``.tsx``
and checked ``.js`` (ESM with JSDoc types, or CommonJS with ``require``), ``index`` files,
``@lib/*`` ``paths``, a ``.d.ts`` beside its ``.js``, JSON modules, scripts whose declarations are
global (with ``namespace`` blocks whose ``export`` is unindented, and template literals holding
``export`` and ``/*``), modules with ``declare global`` (some built from an imported alias, so
only the global's users see the alias change), module augmentations (``declare module``), and
imports in every spelling: named, namespace, ``import type``, ``export *``/``export {} from``
re-exports, ``import x = require()``, ``import()`` in an annotated body, ``typeof import()``,
``import("x").T``, JSDoc ``import()`` types and ``@import`` tags, ``/// <reference path>``,
escaped specifiers (``\\u0061``, ``\\x2e``, ``\\u{61}``, a line continuation) and comments inside
import statements. Two configurations: ``bundler`` (ESM) and ``cjs`` (``nodenext`` CommonJS).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

TYPES = ("number", "string", "boolean")
LITERAL = {"number": "1", "string": '"s"', "boolean": "true"}
VALUE_KINDS = ("const", "fn", "inferred", "class")
TYPE_KINDS = ("iface", "alias")
CONFIGS = ("bundler", "cjs")
# flavour -> weight when drawing a module
_FLAVOURS = {
    "ts": 6,
    "tsx": 1,
    "js": 2,
    "script": 2,
    "global": 2,
    "augment": 1,
    "json": 1,
    "dts": 1,
}
_MODULE_LIKE = frozenset({"ts", "tsx", "js", "dts"})
_IMPORTERS = frozenset({"ts", "tsx", "js"})


@dataclass
class Symbol:
    name: str
    kind: str  # const, fn, inferred, iface, alias, ns (a script's namespace), field (JSON), aug
    type: str
    body: int = 0  # which body a function has (a body edit leaves the interface alone)


@dataclass
class Edge:
    """One use of ``owner``'s symbol by the module holding the edge, typed as it was drawn."""

    owner: str  # the module that declares the symbol
    via: str  # the module the import names (the owner, or one re-exporting it)
    symbol: str
    kind: str
    type: str  # the type the use expects (the symbol's type when the edge was drawn)
    syntax: str
    spelling: int  # how the specifier is written (``ts_fuzzrender.spell``)
    style: int  # how the statement is laid out (comments, line breaks)


@dataclass
class Module:
    key: str
    path: str
    flavour: str
    symbols: list[Symbol] = field(default_factory=list[Symbol])
    edges: list[Edge] = field(default_factory=list[Edge])
    reexports: list[tuple[str, str | None]] = field(default_factory=list[tuple[str, str | None]])
    traps: list[int] = field(default_factory=list[int])
    target: tuple[str, str] | None = None  # augment: the (module, interface) it augments
    # global, augment, script: the (module, alias) its global declaration's type comes from
    source: tuple[str, str] | None = None
    exported: bool = False  # a script given ``export {}`` (a patch makes it a module)
    deleted: bool = False  # gone from disk; what names it still does (and breaks)


@dataclass
class Program:
    seed: int
    config: str
    modules: dict[str, Module] = field(default_factory=dict[str, Module])
    counter: int = 0  # fresh names

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def owner_of(self, symbol: str) -> Module | None:
        return next((m for m in self.modules.values() for s in m.symbols if s.name == symbol), None)


def syntaxes(config: str, importer: str, owner: Module, kind: str) -> list[str]:
    """The ways a module of flavour ``importer`` can use a ``kind`` symbol of ``owner``."""
    flavour = owner.flavour
    if flavour in ("script", "global"):
        return ["global", "global_ref"] if flavour == "script" and importer != "js" else ["global"]
    if flavour == "json":
        return ["json"]
    if flavour == "augment":
        return ["aug_use"] if importer != "js" else []
    values = kind in VALUE_KINDS
    if importer == "js":
        if config == "cjs":
            return ["js_require"] if values else []
        return ["js_named"] if values else ["jsdoc_type", "jsdoc_tag"]
    found = ["named", "namespace"]
    found += ["dynamic", "typeof_import"] if values else ["type_only", "import_type"]
    if config == "cjs":
        found.append("require")
    return found


def _path(rng: random.Random, config: str, key: str, flavour: str) -> str:
    if flavour == "json":
        return f"src/{key}.json"
    if flavour == "dts":
        return f"src/{key}.d.ts"
    if flavour == "js" or (flavour == "script" and config == "bundler" and rng.random() < 0.3):
        return f"src/{key}.js"
    if flavour == "script" and rng.random() < 0.25:
        return f"src/{key}.d.ts"  # a global declaration file
    ext = ".tsx" if flavour == "tsx" else ".ts"
    where = rng.random()
    if flavour in ("ts", "tsx") and where < 0.2:
        return f"src/lib/{key}{ext}"  # reached through @lib/* as well
    if flavour == "ts" and where < 0.35:
        return f"src/{key}/index.ts"
    return f"src/{key}{ext}"


def _symbols(rng: random.Random, module: Module, program: Program) -> None:
    flavour = module.flavour
    if flavour == "json":
        module.symbols = [Symbol("count", "field", "number"), Symbol("label", "field", "string")]
        return
    if flavour in ("global", "augment"):
        module.symbols = [Symbol(program.fresh(f"{module.key}_g"), "aug", rng.choice(TYPES))]
        return
    kinds = ["const", "fn", "inferred", "iface", "alias", "class"]
    if flavour == "js" and program.config == "cjs":
        kinds = list(VALUE_KINDS)  # a CommonJS module exports values (``exports.x = x``)
    elif flavour == "script":
        kinds = ["const", "fn", "iface", "alias", "ns", "class"]
    elif flavour == "dts":
        kinds = ["const", "fn", "iface", "alias", "class"]
    for _ in range(rng.randint(2, 4)):
        kind = rng.choice(kinds)
        module.symbols.append(
            Symbol(program.fresh(f"{module.key}_{kind}"), kind, rng.choice(TYPES))
        )


def draw_edge(rng: random.Random, program: Program, module: Module) -> Edge | None:
    owners = [
        m for m in program.modules.values() if m.key != module.key and m.symbols and not m.deleted
    ]
    if not owners:
        return None
    owner = rng.choice(owners)
    symbol = rng.choice(owner.symbols)
    options = syntaxes(program.config, module.flavour, owner, symbol.kind)
    if not options:
        return None
    syntax = rng.choice(options)
    via = owner.key
    reexporters = [
        m.key
        for m in program.modules.values()
        if m.key != module.key
        and not m.deleted
        and any(t == owner.key and n in (None, symbol.name) for t, n in m.reexports)
    ]
    if reexporters and syntax in ("named", "namespace", "type_only") and rng.random() < 0.6:
        via = rng.choice(reexporters)
    edge = Edge(owner.key, via, symbol.name, symbol.kind, symbol.type, syntax, 0, 0)
    # a line continuation inside a JSDoc comment is not a string's: JS files spell 0-4 only
    edge.spelling = rng.randrange(5 if module.path.endswith(".js") else 6)
    edge.style = rng.randrange(3)
    taken = {binding(program, e) for e in module.edges} - {None}
    return None if binding(program, edge) in taken else edge


def binding(program: Program, edge: Edge) -> str | None:
    """The name an edge's import binds in its module (two imports of one name clash)."""
    if edge.syntax in ("named", "type_only", "js_named", "jsdoc_tag"):
        return edge.symbol
    if edge.syntax == "aug_use":
        target = program.modules[edge.owner].target
        return target[1] if target else None
    return None


def generate_program(seed: int, config: str | None = None) -> Program:
    """A program of 6-10 modules drawn from ``seed`` (``config`` None: drawn too)."""
    rng = random.Random(seed)
    program = Program(seed, config or rng.choice(CONFIGS))
    flavours = [f for f in _FLAVOURS if not (program.config == "cjs" and f in ("tsx", "dts"))]
    for i in range(rng.randint(6, 10)):
        key = f"m{i}"
        flavour = rng.choices(flavours, [_FLAVOURS[f] for f in flavours])[0]
        module = Module(key, _path(rng, program.config, key, flavour), flavour)
        _symbols(rng, module, program)
        _attach(rng, program, module)
        if module.flavour in _IMPORTERS:
            for _ in range(rng.randint(1, 4)):
                edge = draw_edge(rng, program, module)
                if edge is not None:
                    module.edges.append(edge)
        if module.path.endswith(".d.ts"):  # no values in a declaration file: a comment only
            module.traps = [2] * rng.randint(0, 1)
        elif module.flavour != "json":
            module.traps = [rng.randrange(4) for _ in range(rng.randint(0, 2))]
        program.modules[key] = module
    return program


def _attach(rng: random.Random, program: Program, module: Module) -> None:
    """What a module refers to by its flavour: an augmentation's interface, a global's alias,
    a module's re-exports."""
    earlier = [m for m in program.modules.values() if m.flavour in ("ts", "tsx")]
    aliases = [(m.key, s) for m in earlier for s in m.symbols if s.kind == "alias"]
    if module.flavour == "augment":
        targets = [(m.key, s.name) for m in earlier for s in m.symbols if s.kind == "iface"]
        if not targets:
            module.flavour, module.path, module.symbols = "ts", f"src/{module.key}.ts", []
            _symbols(rng, module, program)
            return
        module.target = rng.choice(targets)
    if module.flavour in ("augment", "global", "script") and aliases and rng.random() < 0.6:
        # built on an imported alias: only the global's users, which import nothing, see it
        owner, alias = rng.choice(aliases)
        module.source = (owner, alias.name)
        if module.flavour == "script":
            name = program.fresh(f"{module.key}_via")
            module.symbols.append(Symbol(name, "via", alias.type))
        else:
            module.symbols[0].type = alias.type
    elif module.flavour in ("ts", "tsx") and earlier and rng.random() < 0.35:
        source = rng.choice(earlier)
        named = rng.choice(source.symbols).name if rng.random() < 0.5 else None
        module.reexports.append((source.key, named))
