"""A fuzz program (``ts_fuzzgen.py``) as files: the configuration, each module, each use.

Rendering is a pure function of the model, so a patch is exactly the files whose rendering
changed. How a module names and uses another is ``ts_fuzzedges.py``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tests.support.ts_fuzzedges import literal, other_type, render_edge, specifier, spell

if TYPE_CHECKING:
    from tests.support.ts_fuzzgen import Module, Program, Symbol

_OPTIONS = {
    "strict": True,
    "noEmit": True,
    "target": "es2022",
    "lib": ["es2022"],
    "types": [],
    "resolveJsonModule": True,
    "allowJs": True,
    "checkJs": True,
    "paths": {"@lib/*": ["./src/lib/*"]},
    "jsx": "preserve",
}
_MODULE = {
    "bundler": {"module": "esnext", "moduleResolution": "bundler"},
    # nodenext defaults to moduleDetection "force": "auto" keeps scripts scripts
    "cjs": {"module": "nodenext", "moduleResolution": "nodenext", "moduleDetection": "auto"},
}
_JSON_VALUE = {"number": "1", "string": '"one"', "boolean": "true"}
_TRAPS = (
    "const {name} = `\n/* not a comment, and never closed`;",
    "const {name} = \"import './decoy'\";",
    '// import {{ nothing }} from "./decoy";',
    "const {name} = `\nexport const fake = 1;\n`;",
)
_FN_BODIES = (
    "  return x;",
    "  const y = x;\n  return y;",
    "  return x; // an edited body",
    "  const bad: {other} = x;\n  return x;",  # an error inside the module only
)


def render(program: Program) -> dict[str, str]:
    """Every file of the program, by root-relative path."""
    config = {"compilerOptions": {**_OPTIONS, **_MODULE[program.config]}, "include": ["src"]}
    files = {
        "tsconfig.json": json.dumps(config, indent=2) + "\n",
        "package.json": json.dumps({"name": "fz", "private": True}) + "\n",
    }
    for module in program.modules.values():
        if not module.deleted:
            files.update(_render_module(program, module))
    return files


def _render_module(program: Program, module: Module) -> dict[str, str]:
    if module.flavour == "json":
        fields = ",\n".join(f'  "{s.name}": {_JSON_VALUE[s.type]}' for s in module.symbols)
        return {module.path: "{\n" + fields + "\n}\n"}
    javascript = module.path.endswith(".js")
    script = module.flavour == "script"
    head: list[str] = []
    imports: list[str] = []
    uses: list[str] = []
    for n, edge in enumerate(module.edges):
        render_edge(program, module, edge, f"u_{module.key}_{n}", head, imports, uses)
    traps = [_TRAPS[t].format(name=f"trap_{module.key}_{n}") for n, t in enumerate(module.traps)]
    for source, name in module.reexports:
        spec = spell(specifier(program, module, program.modules[source], 0), 0)
        imports.append(f"export {{ {name} }} from {spec};" if name else f"export * from {spec};")
    if module.flavour == "global":
        body = [_render_global(program, module)]
    elif module.flavour == "augment":
        body = [_render_augment(program, module)]
    else:
        body = [
            _render_symbol(program, module, s, javascript, program.config) for s in module.symbols
        ]
    tail = ["export {};"] if (script and module.exported) or (not script and javascript) else []
    if javascript and program.config == "cjs" and not script:
        tail = [f"exports.{s.name} = {s.name};" for s in module.symbols]
        tail += [
            f"exports.u_{module.key}_{n} = u_{module.key}_{n};" for n in range(len(module.edges))
        ]
    text = "\n".join([*head, *traps, *imports, *body, *uses, *tail]) + "\n"
    files = {module.path: text}
    if module.flavour == "dts":
        files[module.path.replace(".d.ts", ".js")] = _dts_sibling(module)
    return files


def _render_symbol(
    program: Program, module: Module, symbol: Symbol, javascript: bool, config: str
) -> str:
    name, type_, lit, flavour = symbol.name, symbol.type, literal(symbol.type), module.flavour
    if symbol.kind == "via":  # a script's global typed by an import() type
        assert module.source is not None
        owner, alias = module.source
        spec = spell(specifier(program, module, program.modules[owner], 0), 0)
        if javascript:
            return f"/** @type {{import({spec}).{alias}}} */\nvar {name};"
        return f"declare var {name}: import({spec}).{alias};"
    if module.path.endswith(".d.ts") and flavour == "script":
        return _declared_global(symbol)
    export = "" if flavour == "script" else "export "
    declare = "declare " if flavour == "dts" else ""
    body = _FN_BODIES[symbol.body].format(other=other_type(type_))
    if javascript:
        body = body.replace(
            f"const bad: {other_type(type_)}", f"/** @type {{{other_type(type_)}}} */\n  const bad"
        )
        export = "" if flavour == "script" or config == "cjs" else "export "
        binding = "var" if flavour == "script" else "const"
        return {
            "const": f"/** @type {{{type_}}} */\n{export}{binding} {name} = {lit};",
            "fn": f"/**\n * @param {{{type_}}} x\n * @returns {{{type_}}}\n */\n"
            f"{export}function {name}(x) {{\n{body}\n}}",
            "inferred": f"{export}function {name}() {{\n  return {lit};\n}}",
            "iface": f"/** @typedef {{{{ p: {type_} }}}} {name} */",
            "alias": f"/** @typedef {{{type_}}} {name} */",
            "ns": f"/** @type {{{{ q: {type_} }}}} */\nvar {name} = {{ q: {lit} }};",
            "class": f"{export}class {name} {{\n  /** @param {{{type_}}} v */\n"
            f"  constructor(v) {{\n    this.value = v;\n  }}\n"
            f"  /**\n   * @param {{{type_}}} x\n   * @returns {{{type_}}}\n   */\n"
            f"  get(x) {{\n{_indent(body)}\n  }}\n}}",
        }[symbol.kind]
    if flavour == "dts":
        return f"{export}{_declared_global(symbol)}"
    return {
        "const": f"{export}{declare}const {name}: {type_}" + (";" if declare else f" = {lit};"),
        "fn": f"{export}{declare}function {name}(x: {type_}): {type_}"
        + (";" if declare else f" {{\n{body}\n}}"),
        "inferred": f"{export}function {name}() {{\n  return {lit};\n}}",
        "iface": f"{export}interface {name} {{\n  p: {type_};\n}}",
        "alias": f"{export}type {name} = {type_};",
        "ns": f"namespace {name} {{\nexport const q: {type_} = {lit};\n}}",  # unindented
        "class": f"{export}class {name} {{\n  value: {type_};\n"
        f"  constructor(v: {type_}) {{\n    this.value = v;\n  }}\n"
        f"  get(x: {type_}): {type_} {{\n{_indent(body)}\n  }}\n}}",
    }[symbol.kind]


def _indent(body: str) -> str:
    return "\n".join(f"  {line}" for line in body.split("\n"))


def _declared_global(symbol: Symbol) -> str:
    """A declaration of a declaration file: no values, no bodies (``declare`` where needed)."""
    name, type_ = symbol.name, symbol.type
    return {
        "class": f"declare class {name} {{\n  value: {type_};\n  constructor(v: {type_});\n"
        f"  get(x: {type_}): {type_};\n}}",
        "const": f"declare const {name}: {type_};",
        "fn": f"declare function {name}(x: {type_}): {type_};",
        "iface": f"interface {name} {{\n  p: {type_};\n}}",
        "alias": f"type {name} = {type_};",
        "ns": f"declare namespace {name} {{\nexport const q: {type_};\n}}",
    }[symbol.kind]


def _dts_sibling(module: Module) -> str:
    lines: list[str] = []
    for s in module.symbols:
        if s.kind == "const":
            lines.append(f"export const {s.name} = {literal(s.type)};")
        elif s.kind == "fn":
            lines.append(
                f"/** @param {{any}} x */\nexport function {s.name}(x) {{\n  return x;\n}}"
            )
        elif s.kind == "class":
            lines.append(
                f"export class {s.name} {{\n  /** @param {{any}} v */\n  constructor(v) {{\n"
                "    this.value = v;\n  }\n  /** @param {any} x */\n  get(x) {\n"
                "    return x;\n  }\n}"
            )
    return "\n".join([*lines, "export {};"]) + "\n"


def _render_global(program: Program, module: Module) -> str:
    symbol = module.symbols[0]
    head, type_ = _source_import(program, module, symbol.type)
    return f"{head}\ndeclare global {{\n  var {symbol.name}: {type_};\n}}"


def _source_import(program: Program, module: Module, type_: str) -> tuple[str, str]:
    """What makes the module a module, and the type of its global declaration: an import of
    the alias it is built on, or ``export {}`` and the plain type."""
    if module.source is None:
        return "export {};", type_
    owner, alias = module.source
    spelling = int(module.key[1:]) % 6
    spec = spell(specifier(program, module, program.modules[owner], spelling), spelling)
    return f"import type {{ {alias} }} from {spec};", alias


def _render_augment(program: Program, module: Module) -> str:
    assert module.target is not None
    owner, interface = module.target
    symbol = module.symbols[0]
    spelling = int(module.key[1:]) % 6
    spec = spell(specifier(program, module, program.modules[owner], spelling), spelling)
    declare = "declare /* augments */ module" if spelling % 2 else "declare module"
    head, type_ = _source_import(program, module, symbol.type)
    return (
        f"{head}\n{declare} {spec} {{\n"
        f"  interface {interface} {{\n    {symbol.name}?: {type_};\n  }}\n}}"
    )
