"""One file's dependencies read from its syntax tree: the spellings that fooled regular
expressions (issue 19), string escapes as TypeScript cooks them, module-ness and global reach."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from prewrite_daemon.languages.typescript.comments import CommentFacts, read_comment
from prewrite_daemon.languages.typescript.literals import cook
from prewrite_daemon.languages.typescript.syntax import read_module

TSC = Path(__file__).parents[1] / "toolchains/node_modules/typescript5/bin/tsc"


def modules(rel: str, text: str) -> set[str]:
    facts = read_module(rel, text)
    assert facts.complete, facts
    return {spec for kind, spec in facts.specifiers if kind == "module"}


# --- literals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "cooked"),
    [
        ("./a", "./a"),
        ("./\\u0061", "./a"),
        ("./\\u{61}", "./a"),
        ("\\x2e/a", "./a"),
        ("./\\a", "./a"),  # an escaped ordinary character is that character
        ("./\\\na", "./a"),  # a line continuation is nothing
        ("./\\\r\na", "./a"),
        ("a\\\\b", "a\\b"),
        ("\\'q\\'", "'q'"),
        ("\\0", "\0"),
        ("\\uD83D\\uDE00", "\U0001f600"),  # a surrogate pair is one character
        ("./\\1", None),  # legacy octal: an error in a module
        ("./\\08", None),
        ("./\\8", None),
        ("./\\x4", None),
        ("./\\u00g1", None),
        ("./\\u{110000}", None),
        ("./\\uD83D", None),  # a lone surrogate names no file
    ],
)
def test_cook(raw: str, cooked: str | None) -> None:
    assert cook(raw) == cooked


# --- the spellings regular expressions missed -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        'import { a } from "./\\u0061";',
        "import { a } from './\\x61';",
        'import /* c */ { a } /* from "./z" */ from /* c */ "./a";',
        'import {\n  // a comment\n  a, /* another */\n} from\n  "./a";',
        'const t = `\n/* not a comment`;\nimport { a } from "./a";',
        'const s = "/*";\nimport { a } from "./a";\nconst e = "*/";',
        'export { a } from "./a";',
        'export * as ns from "./a";',
        'import type { A } from "./a";',
        'import a = require("./a");',
        'const m = import("./a");',
        "const m = import(`./a`);",
        'const m = import(/* lazy */ "./a");',
        'type A = typeof import("./a");',
        'let a: import("./a").A;',
        'function f(): number { return import("./a").then((m) => m.x); }',
        'export {};\ndeclare module "./a" { interface A { b: number } }',
        "export {};\ndeclare /* c */ module './a' { }",
    ],
)
def test_every_spelling_names_the_module(text: str) -> None:
    assert modules("m.ts", text) == {"./a"}


@pytest.mark.parametrize(
    "text",
    [
        '// import { z } from "./z";\nexport {};',
        '/** import { z } from "./z" */\nexport {};',
        "const s = 'import { z } from \"./z\"';\nexport {};",
        'const t = `import { z } from "./z"`;\nexport {};',
        "const m = import(`./${name}`);\nexport {};",  # computed: TypeScript resolves nothing
        'const m = import("./" + name);\nexport {};',
    ],
)
def test_what_is_not_an_import_in_typescript(text: str) -> None:
    assert modules("m.ts", text) == set()


def test_javascript_reads_jsdoc_and_require() -> None:
    text = (
        '/** @type {import("./t").T} */\nlet x;\n'
        '/** @import { U } from "./\\u0075" */\n'
        "// don't import \"./c\" isn't it\n"
        'const r = require("./r");\n'
    )
    assert modules("m.js", text) >= {"./t", "./u", "./c", "./r"}
    assert read_module("m.js", text).is_module  # require makes a CommonJS module


def test_references_and_pragma() -> None:
    text = (
        '/// <reference path="./g.d.ts" />\n'
        "/// <REFERENCE types='node' />\n"
        '/// <reference lib="es2022" />\n'
        "/* @jsxImportSource preact */\nexport {};\n"
    )
    facts = read_module("m.tsx", text)
    assert set(facts.specifiers) == {
        ("path", "./g.d.ts"),
        ("types", "node"),
        ("module", "preact/jsx-runtime"),
        ("module", "preact/jsx-dev-runtime"),
    }
    assert facts.global_reach
    assert facts.is_module


def test_a_comment_mentioning_a_reference_reaches_everything() -> None:
    facts = CommentFacts()
    read_comment("// see <reference> docs", javascript=False, facts=facts)
    assert facts.references
    assert not facts.specifiers


# --- module-ness and reach --------------------------------------------------------------------


MODULE_CASES = [
    ("m.ts", "export const a = 1;", True, False),
    ("m.ts", 'import "./x";', True, False),
    ("m.ts", "export default 1;", True, False),
    ("m.ts", "const a = 1;\nexport = a;", True, False),
    ("m.ts", "namespace N {}\nexport import M = N;", True, False),
    ("m.ts", "import M = N.x;", False, False),  # an alias, not module syntax
    ("m.ts", 'const x = import("./a");', False, False),
    ("m.ts", "const t = `\nexport const x = 1;\n`;", False, False),
    ("m.ts", "namespace N {\nexport const x = 1;\n}", False, False),
    ("m.ts", "export as namespace U;", False, True),
    ("m.ts", "export {};\ndeclare global { var g: number }", True, True),
    ("m.ts", "export {};\nnamespace global {}", True, True),
    ("m.ts", 'export {};\ndeclare module "pkg";', True, True),
    ("m.ts", "export {};\ndeclare module N { }", True, False),  # a namespace
    ("m.js", "var x = 1;", False, False),
    ("m.js", 'var x = require("./x");', True, False),
    ("m.js", 'var x = require("./x", 2);', False, False),  # not a require call
    ("m.js", "var x = require`./x`;", False, False),  # a tagged template, no call
    ("m.js", 'var x = new require("./x");', False, False),
    ("m.js", 'var x = (require)("./x");', False, False),
    ("m.js", 'var x = require?.("./x");', True, False),
    ("m.ts", 'var x = require("./x");', False, False),  # only JavaScript is CommonJS
    ("m.mts", "const x = 1;", False, False),  # the format is ignored: errs on script
]
# TypeScript decides these "module" where the model errs on "script" (the safe side)
CONSERVATIVE = {"const x = 1;"}


@pytest.mark.parametrize(("rel", "text", "module", "global_reach"), MODULE_CASES)
def test_module_and_reach(rel: str, text: str, module: bool, global_reach: bool) -> None:
    facts = read_module(rel, text)
    assert facts.complete
    assert (facts.is_module, facts.global_reach) == (module, global_reach)


@pytest.mark.skipif(
    not TSC.exists() or shutil.which("node") is None,
    reason="needs node and tests/toolchains/node_modules/typescript5 (the pinned tsc)",
)
def test_module_ness_is_what_tsc_decides(tmp_path: Path) -> None:
    """Each case declares a probe at its top level; a file that uses every probe finds those of
    the scripts only (a module's top-level names are its own)."""
    options: dict[str, object] = {"noEmit": True, "allowJs": True, "checkJs": True,
               "module": "esnext", "moduleResolution": "bundler", "types": []}  # fmt: skip
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": options}))
    for n, (rel, text, _, _) in enumerate(MODULE_CASES):
        suffix = rel.removeprefix("m")
        (tmp_path / f"c{n}{suffix}").write_text(f"{text}\nvar probe{n} = 1;\n")
    uses = "".join(f"probe{n};\n" for n in range(len(MODULE_CASES)))
    (tmp_path / "use.ts").write_text(f"export {{}};\n{uses}")
    node = shutil.which("node")
    assert node is not None
    out = subprocess.run(
        [node, str(TSC), "-p", ".", "--pretty", "false"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    ).stdout  # fmt: skip
    hidden = {
        int(m.group(1)) - 2
        for m in re.finditer(r"^use\.ts\((\d+),\d+\): error TS(?:2304|2552)", out, re.M)
    }
    for n, (rel, text, module, _) in enumerate(MODULE_CASES):
        assert read_module(rel, text).is_module == module
        if text in CONSERVATIVE:
            assert n in hidden, (rel, text)
        else:
            assert (n in hidden) == module, (rel, text, out)


@pytest.mark.parametrize(
    "text",
    [
        "export const = ;",  # a syntax error
        'export { x } from "./d.json" with { type: "json" };',  # the grammar lacks it
        'import "./\\1";',  # an escape TypeScript rejects
        'const m = import("./\\08");',
        "export {};\ndeclare\nglobal {}",
    ],
)
def test_what_the_parser_does_not_understand_is_unknown(text: str) -> None:
    facts = read_module("m.ts", text)
    assert not facts.complete
    assert facts.reaches_everything


@pytest.mark.parametrize(
    ("text", "passes_on"),
    [
        ('import { T } from "./a";\ndeclare global { interface SymbolConstructor { o: symbol } }',
         False),
        ('export {};\ndeclare module "./a" { interface A { x: string } }', False),
        ('import { T } from "./a";\nexport const t: T = 1;', False),  # no global part at all
        ('import { T } from "./a";\ndeclare global { var g: T }', True),
        ('import * as a from "./a";\ndeclare global { var g: a.T }', True),
        ('import { U } from "./a";\ntype V = U;\ndeclare global { var g: V }', True),
        ('import { U } from "./a";\nif (1) { var w: U; }\ndeclare global { var g: typeof w }',
         True),
        ('export default function foo(): void {}\ndeclare global { var g: typeof foo }', True),
        ('export {};\ndeclare global { var g: typeof import("./a") }', True),
        ('export {};\ndeclare module "x" { export * from "./a"; }', True),
        ('import { T } from "./a";\nexport const t: T = 1;\nexport as namespace G;', True),
        ('declare var g: import("./a").T;', True),  # a script
    ],
)  # fmt: skip
def test_a_global_part_built_on_imports_passes_changes_on(text: str, passes_on: bool) -> None:
    facts = read_module("m.ts", text)
    assert facts.complete
    assert facts.passes_on_everything is passes_on
