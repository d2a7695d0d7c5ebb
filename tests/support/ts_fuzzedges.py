"""How one module of a fuzz program names another and uses what it exports.

Specifiers are computed from the two paths (relative, ``index`` directories, ``@lib/*``, ``.js``
for ``.ts`` where the configuration allows or needs it, ``.json`` kept) and then *spelled*: the
same module name written with escapes, line continuations and other quotes. Each edge of the
model (``ts_fuzzgen.Edge``) becomes an import (or a reference, or nothing for a global) and a
declaration typed as the edge expects, so that a change to the symbol breaks it.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from tests.support.ts_fuzzgen import LITERAL, TYPES

if TYPE_CHECKING:
    from tests.support.ts_fuzzgen import Edge, Module, Program


def literal(type_: str) -> str:
    return LITERAL[type_]


def other_type(type_: str) -> str:
    return TYPES[(TYPES.index(type_) + 1) % len(TYPES)]


def spell(spec: str, spelling: int) -> str:
    """``spec`` as a string literal written one of six ways (all naming the same module)."""
    i = next((k for k, c in enumerate(spec) if c.isalpha()), 0)
    c = spec[i]
    body = {
        0: spec,
        1: spec,
        2: f"{spec[:i]}\\u{ord(c):04x}{spec[i + 1 :]}",
        3: f"\\x{ord(spec[0]):02x}{spec[1:]}",
        4: f"{spec[:i]}\\u{{{ord(c):x}}}{spec[i + 1 :]}",
        5: f"{spec[:1]}\\\n{spec[1:]}",
    }[spelling]
    return f"'{body}'" if spelling == 1 else f'"{body}"'


def specifier(program: Program, importer: Module, target: Module, spelling: int) -> str:
    """The module name ``importer`` uses for ``target``, as the configuration resolves it."""
    path = target.path.replace(".d.ts", ".js") if target.flavour == "dts" else target.path
    cjs = program.config == "cjs"
    if path.endswith(".json"):
        stem, ext = path, ""
    else:
        stem, ext = path.rsplit(".", 1)[0], ".js" if cjs or spelling % 3 == 1 else ""
        if stem.endswith("/index") and not ext:
            stem = stem.removesuffix("/index")  # the directory
    if stem.startswith("src/lib/") and spelling % 2 == 0:
        return f"@lib/{stem.removeprefix('src/lib/')}{ext}"
    relative = posixpath.relpath(stem, posixpath.dirname(importer.path))
    return (relative if relative.startswith("../") else f"./{relative}") + ext


def _value(edge: Edge, access: str) -> str:
    return {
        "fn": f"{access}({literal(edge.type)})",
        "class": f"new {access}({literal(edge.type)}).get({literal(edge.type)})",
        "inferred": f"{access}()",
        "ns": f"{access}.q",
    }.get(edge.kind, access)


def _typed(edge: Edge, name: str, reference: str, javascript: bool, export: str = "export ") -> str:
    """A use of a type symbol: a value declared with it."""
    init = f"{{ p: {literal(edge.type)} }}" if edge.kind == "iface" else literal(edge.type)
    if javascript:
        return f"/** @type {{{reference}}} */\n{export}const {name} = {init};"
    return f"export const {name}: {reference} = {init};"


def render_edge(
    program: Program,
    module: Module,
    edge: Edge,
    name: str,
    head: list[str],
    imports: list[str],
    uses: list[str],
) -> None:
    """Add the import (``imports``, or a reference to ``head``) and the use of one edge."""
    via = program.modules[edge.via]
    spec = specifier(program, module, via, edge.spelling)
    lit = spell(spec, edge.spelling)
    javascript = module.path.endswith(".js")
    cjs_js = javascript and program.config == "cjs"
    t, s = edge.type, edge.symbol
    declared = f"/** @type {{{t}}} */\nconst {name}" if javascript else f"export const {name}: {t}"
    if javascript and not cjs_js:
        declared = f"/** @type {{{t}}} */\nexport const {name}"
    match edge.syntax:
        case "named" | "type_only" | "js_named":
            imports.append(_named_import(s, lit, edge.style, type_only=edge.syntax == "type_only"))
            access = s
        case "namespace":
            imports.append(f"import * as ns_{name} from {lit};")
            access = f"ns_{name}.{s}"
        case "require":
            imports.append(f"import r_{name} = require({lit});")
            access = f"r_{name}.{s}"
        case "js_require":
            imports.append(f"const r_{name} = require({lit});")
            access = f"r_{name}.{s}"
        case "json":
            if program.config == "cjs":
                imports.append(f"{'const' if javascript else 'import'} j_{name} = require({lit});")
            else:
                imports.append(f"import j_{name} from {lit};")
            access = f"j_{name}.{s}"
        case "global_ref":
            path = posixpath.relpath(via.path, posixpath.dirname(module.path))
            head.append(f'/// <reference path="{path}" />')
            access = s
        case "global":
            access = s
        case "aug_use":
            assert via.target is not None
            target = program.modules[via.target[0]]
            tspec = spell(specifier(program, module, target, edge.spelling), edge.spelling)
            imports.append(f"import type {{ {via.target[1]} }} from {tspec};")
            uses.append(f"declare const a_{name}: {via.target[1]};")
            uses.append(f"export const {name}: {t} | undefined = a_{name}.{s};")
            return
        case "dynamic":
            source = f"`{spec}`" if edge.style == 2 and "\\" not in spec else lit
            uses.append(
                f"export async function {name}(): Promise<{t}> {{\n"
                f"  const m = await import({source});\n  return {_value(edge, f'm.{s}')};\n}}"
            )
            return
        case "typeof_import":
            uses.append(f"declare const q_{name}: typeof import({lit});")
            access = f"q_{name}.{s}"
        case "import_type":
            uses.append(_typed(edge, name, f"import({lit}).{s}", javascript=False))
            return
        case "jsdoc_type":
            uses.append(_typed(edge, name, f"import({lit}).{s}", javascript=True))
            return
        case _:  # "jsdoc_tag"
            imports.append(f"/** @import {{ {s} }} from {lit} */")
            uses.append(_typed(edge, name, s, javascript=True))
            return
    if edge.kind in ("iface", "alias"):
        uses.append(_typed(edge, name, access, javascript, "" if cjs_js else "export "))
    else:
        uses.append(f"{declared} = {_value(edge, access)};")


def _named_import(symbol: str, lit: str, style: int, type_only: bool) -> str:
    keyword = "import type" if type_only else "import"
    if style == 1:
        return f'{keyword} /* c */ {{ {symbol} }} /* from "./decoy" */ from /* c */ {lit};'
    if style == 2:
        return f'{keyword} {{\n  // {symbol} from "./decoy"\n  {symbol},\n}} from\n  {lit};'
    return f"{keyword} {{ {symbol} }} from {lit};"
