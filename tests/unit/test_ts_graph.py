"""The TypeScript reverse import graph: scanning, resolution candidates, importers, globals."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from prewrite_daemon.languages.base import PlanningBudgetExceeded
from prewrite_daemon.languages.typescript.graph import (
    TsImportGraph,
    package_name,
    reaches_everything,
)
from prewrite_daemon.languages.typescript.syntax import read_module
from prewrite_daemon.languages.typescript.tsconfig import load_tsconfig

if TYPE_CHECKING:
    from prewrite_daemon.languages.base import DependencyGraph


def graph_of(
    root: Path, sources: dict[str, str], config: dict[str, Any] | None = None
) -> TsImportGraph:
    texts = {"tsconfig.json": json.dumps(config)} if config is not None else {}
    graph = TsImportGraph(load_tsconfig(root, texts.get), root)
    for rel, text in sources.items():
        graph.update(rel, textwrap.dedent(text))
    return graph


def test_is_a_dependency_graph(tmp_path: Path) -> None:
    graph: DependencyGraph = graph_of(tmp_path, {})  # pyright checks the Protocol
    assert graph.importers(["a.ts"]) == set()


def direct(graph: TsImportGraph, rel: str) -> set[str]:
    return graph.importers([rel], transitive=False)


# --- scanning -------------------------------------------------------------------------------


def test_scan_finds_every_form() -> None:
    text = textwrap.dedent(
        """\
        /// <reference path="globals.d.ts" />
        /// <reference types='node' />
        import a from "./a";
        import type { B } from './b';
        import "./side-effect";
        import {
            c,
        } from "./c";
        export * from "./d";
        export { e } from "./e";
        import f = require("./f");
        const g = require('./g');
        const h = await import("./h");
        const i = import(`./i`);
        /** @type {import("./j").J} */
        let j;
        type K = typeof import("./k");
        /** @jsxImportSource preact */
        """
    )
    assert sorted(read_module("x.js", text).specifiers) == sorted(
        [
            ("module", "./a"),
            ("module", "./b"),
            ("module", "./side-effect"),
            ("module", "./c"),
            ("module", "./d"),
            ("module", "./e"),
            ("module", "./f"),
            ("module", "./g"),
            ("module", "./h"),
            ("module", "./i"),
            ("module", "./j"),
            ("module", "./k"),
            ("module", "preact/jsx-runtime"),
            ("module", "preact/jsx-dev-runtime"),
            ("path", "globals.d.ts"),
            ("types", "node"),
        ]
    )


@pytest.mark.parametrize(
    ("specifier", "name"),
    [
        ("react", "react"),
        ("react/jsx-runtime", "react"),
        ("@a/b/c/d", "@a/b"),
        ("node:fs", "node:fs"),
    ],
)
def test_package_name(specifier: str, name: str) -> None:
    assert package_name(specifier) == name


# --- resolution -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "target"),
    [
        ("./a", "src/a.ts"),
        ("./a", "src/a.tsx"),
        ("./a", "src/a.d.ts"),
        ("./a", "src/a.js"),
        ("./a", "src/a/index.ts"),
        ("./a", "src/a/index.d.ts"),
        ("./a", "src/a/package.json"),
        ("./a", "src/a/lib/types.d.ts"),  # package.json "types" may point anywhere below
        ("./a.js", "src/a.ts"),
        ("./a.js", "src/a.tsx"),
        ("./a.js", "src/a.d.ts"),
        ("./a.mjs", "src/a.mts"),
        ("./a.mjs", "src/a.d.mts"),
        ("./a.cjs", "src/a.cts"),
        ("./a.ts", "src/a.ts"),
        ("../lib/x", "lib/x.ts"),
        (".", "src/index.ts"),
        ("./data.json", "src/data.json"),
        ("./styles.css", "src/styles.d.css.ts"),
    ],
)
def test_relative_candidates(tmp_path: Path, specifier: str, target: str) -> None:
    graph = graph_of(tmp_path, {"src/main.ts": f'import x from "{specifier}";'})
    assert direct(graph, target) == {"src/main.ts"}


def test_unrelated_files_are_not_importers(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {"src/main.ts": 'import x from "./a"; import "react";', "src/b.ts": "export {};"},
    )
    assert direct(graph, "src/b.ts") == set()
    assert direct(graph, "src/ab.ts") == set()
    assert direct(graph, "main.ts") == set()
    assert graph.files() == {"src/main.ts", "src/b.ts"}


def test_type_only_dynamic_require_and_references(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "t.ts": 'import type { T } from "./types";',
            "d.ts": 'const m = await import("./lazy");',
            "r.js": 'const c = require("./common");',
            "p.ts": '/// <reference path="ambient/globals.d.ts" />',
            "q.ts": '/// <reference types="mytypes" />',
            "j.js": '/** @param {import("./shape").Shape} s */ export function f(s) {}',
        },
        {"compilerOptions": {"typeRoots": ["./typings"]}},
    )
    assert direct(graph, "types.ts") == {"t.ts"}
    assert direct(graph, "lazy/index.ts") == {"d.ts"}
    assert direct(graph, "common.js") == {"r.js"}
    assert direct(graph, "ambient/globals.d.ts") == {"p.ts"}
    assert direct(graph, "typings/mytypes/index.d.ts") == {"q.ts"}
    assert direct(graph, "shape.d.ts") == {"j.js"}


def test_paths_and_base_url(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "src/app/main.ts": 'import { u } from "@lib/util"; import c from "config";',
            "src/app/other.ts": 'import { x } from "~exact";',
        },
        {
            "compilerOptions": {
                "baseUrl": "./src",
                "paths": {"@lib/*": ["lib/*", "fallback/*"], "~exact": ["../vendor/exact.ts"]},
            }
        },
    )
    assert direct(graph, "src/lib/util.ts") == {"src/app/main.ts"}
    assert direct(graph, "src/fallback/util/index.tsx") == {"src/app/main.ts"}
    assert direct(graph, "src/config.ts") == {"src/app/main.ts"}  # baseUrl lookup
    assert direct(graph, "vendor/exact.ts") == {"src/app/other.ts"}


def test_root_dirs_merge_directories(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {"src/view.ts": 'import t from "./template";'},
        {"compilerOptions": {"rootDirs": ["src", "generated"]}},
    )
    assert direct(graph, "generated/template.ts") == {"src/view.ts"}


def test_module_suffixes(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {"app.ts": 'import b from "./button";'},
        {"compilerOptions": {"moduleSuffixes": [".ios", ""]}},
    )
    assert direct(graph, "button.ios.ts") == {"app.ts"}
    assert direct(graph, "button.ts") == {"app.ts"}


def test_transitive_importers(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "a.ts": "export const a = 1;",
            "b.ts": 'export { a } from "./a.js";',
            "c.ts": 'import { a } from "./b";',
            "d.ts": 'import "./c";',
            "e.ts": "export {};",
        },
    )
    assert graph.importers(["a.ts"]) == {"b.ts", "c.ts", "d.ts"}
    assert graph.importers(["a.ts"], transitive=False) == {"b.ts"}
    assert graph.importers(["a.ts", "b.ts"]) == {"c.ts", "d.ts"}


def test_new_and_deleted_files(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"main.ts": 'import { n } from "./new-module";'})
    assert direct(graph, "new-module.ts") == {"main.ts"}  # before it exists
    graph.update("new-module.ts", "export const n = 1;")
    graph.update("user.ts", 'import "./main";')
    assert graph.importers(["new-module.ts"]) == {"main.ts", "user.ts"}
    graph.update("new-module.ts", None)
    assert graph.importers(["new-module.ts"]) == {"main.ts", "user.ts"}  # still its importers
    graph.update("main.ts", None)
    assert graph.importers(["new-module.ts"]) == set()
    assert graph.files() == {"user.ts"}


def test_update_replaces_old_edges(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"main.ts": 'import "./a";'})
    graph.update("main.ts", 'import "./b";')
    assert direct(graph, "a.ts") == set()
    assert direct(graph, "b.ts") == {"main.ts"}


def test_self_reference_and_subpath_imports_depend_on_everything(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"name": "@me/app"}))
    graph = graph_of(
        tmp_path,
        {
            "src/self.ts": 'import { x } from "@me/app/utils";',
            "src/hash.ts": 'import { y } from "#internal/y";',
            "src/ext.ts": 'import React from "react"; import fs from "node:fs";',
        },
    )
    assert direct(graph, "anything/at/all.ts") == {"src/self.ts", "src/hash.ts"}
    assert graph.importers([]) == set()


def test_nested_and_linked_workspace_packages(tmp_path: Path) -> None:
    lib = tmp_path / "packages/lib"
    lib.mkdir(parents=True)
    (lib / "package.json").write_text(json.dumps({"name": "@ws/lib"}))
    (tmp_path / "node_modules/@ws").mkdir(parents=True)
    os.symlink(lib, tmp_path / "node_modules/@ws/lib")
    graph = graph_of(
        tmp_path,
        {
            "packages/app/main.ts": 'import { l } from "@ws/lib";',
            "packages/lib/src/inner.ts": 'import { l } from "@ws/lib/other";',  # self-reference
        },
    )
    assert direct(graph, "packages/lib/src/index.ts") == {
        "packages/app/main.ts",
        "packages/lib/src/inner.ts",
    }
    assert direct(graph, "packages/app/x.ts") == set()


def test_paths_mapping_wins_over_self_reference(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"name": "app"}))
    graph = graph_of(
        tmp_path,
        {"main.ts": 'import "app/x";'},
        {"compilerOptions": {"paths": {"app/*": ["./src/*"]}}},
    )
    assert direct(graph, "src/x.ts") == {"main.ts"}
    assert direct(graph, "other.ts") == set()


# --- global reach among the importers ---------------------------------------------------------

GLOBAL_READERS = {
    "a.ts": "export type T = number;",
    "user.ts": "export const n: number = g;",  # no import edge to anything
    "other.ts": "export const o = 1;",
}


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("glob.ts", 'import type { T } from "./a";\ndeclare global { var g: T }'),
        ("glob.ts", 'declare var g: import("./a").T;'),  # a script: its declarations are global
        ("glob.ts", 'export {};\ndeclare module "./other" { var g: import("./a").T }'),
        ("glob.d.ts", 'import type { T } from "./a";\ndeclare global { var g: T }'),
        ("glob.ts", 'import * as a from "./a";\ndeclare global { var g: a.T }'),
        ("glob.ts", 'import { U } from "./a";\ntype V = U;\ndeclare global { var g: V }'),
        ("glob.ts", 'export {};\ndeclare global { var g: typeof import("./a") }'),
        ("glob.ts", 'import { U } from "./a";\nexport type W = U;\nexport as namespace G;'),
        ("glob.ts", 'import type { T } from "./a";\nexport as namespace G;\nexport let g: T;'),
        ("glob.ts", 'import { T } from "./a";\nexport const g: T = 1;\nexport const = ;'),
    ],
)
def test_an_importer_with_global_reach_reaches_every_file(
    tmp_path: Path, rel: str, text: str
) -> None:
    graph = graph_of(tmp_path, {**GLOBAL_READERS, rel: text})
    assert graph.importers(["a.ts"]) == {rel, "user.ts", "other.ts"}
    assert graph.affected([("a.ts", "", "")]) == {rel, "user.ts", "other.ts"}
    assert direct(graph, "a.ts") == {rel}  # the edges themselves stay what they are


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("mod.ts", 'import "./a";\nexport {};'),
        ("mod.d.ts", 'import type { T } from "./a";\nexport declare const g: T;'),
        # rxjs's types.ts: a global block built from nothing the module has
        ("mod.ts", 'import { T } from "./a";\ndeclare global { interface SymbolConstructor {} }'),
        ("mod.ts", '/// <reference path="./other.ts" />\nimport { T } from "./a";\nexport {};'),
    ],
)
def test_a_module_importer_does_not_widen(tmp_path: Path, rel: str, text: str) -> None:
    graph = graph_of(tmp_path, {**GLOBAL_READERS, rel: text})
    assert graph.importers(["a.ts"]) == {rel}
    assert reaches_everything(rel, text) is (text != 'import "./a";\nexport {};')


def test_the_deadline_is_kept(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"b.ts": 'import "./a";', "c.ts": 'import "./b";'})
    with pytest.raises(PlanningBudgetExceeded):
        graph.affected([("a.ts", "", "")], deadline=time.monotonic() - 1)


def test_json_modules_and_implicit_imports(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "main.ts": 'import data from "./data.json";\nexport const n: number = data.n;',
            "view.tsx": "export const v = <div />;",
            "plain.ts": "export const p = 1;",
        },
        {
            "compilerOptions": {
                "jsx": "react-jsx",
                "jsxImportSource": "@ui",
                "importHelpers": True,
                "paths": {"@ui/*": ["./ui/*"], "tslib": ["./vendor/tslib.ts"]},
            }
        },
    )
    assert graph.importers(["data.json"]) == {"main.ts"}
    assert direct(graph, "ui/jsx-runtime.ts") == {"view.tsx"}
    assert direct(graph, "ui/jsx-dev-runtime/index.ts") == {"view.tsx"}
    assert direct(graph, "vendor/tslib.ts") == {"main.ts", "view.tsx", "plain.ts"}


# --- reaches_everything ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "text", "expected"),
    [
        ("types.d.ts", "export interface A {}", True),
        ("types.d.mts", "export {};", True),
        ("styles.d.css.ts", "export {};", True),
        ("script.ts", "const x = 1;\nfunction f() {}", True),
        ("script.js", "var x = 1;\nfunction f() {}", True),
        ("commonjs.js", "var x = require('./y');", False),  # a CommonJS module to TypeScript
        ("template.ts", "const t = `\nexport const fake = 1;\n`;", True),
        ("namespace.ts", "namespace N {\nexport const a = 1;\n}", True),  # unindented export
        ("umd.ts", "export as namespace U;", True),  # not module syntax, and a global
        ("umd-module.ts", "export const a = 1;\nexport as namespace U;", True),
        ("aug.ts", 'export {};\ndeclare /* c */ module "./\\u0061" { interface A {} }', True),
        ("aug.ts", "export {};\ndeclare\n  global { var g: number }", True),  # unknown
        ("broken.ts", "export const = ;", True),
        ("ambient.d.css.ts", "export {};", True),
        ("mod.ts", "import { a } from './a';\nexport const b = a;", False),
        ("mod.ts", "export {};", False),
        ("mod.js", "export default 1;", False),
        ("dyn.ts", "import('./a');\nconst x = 1;", True),  # a dynamic import is not module syntax
        ("aug.ts", "export {};\ndeclare global { interface Window { x: 1 } }", True),
        ("aug.ts", "import 'x';\ndeclare module 'x' { interface X { y: 1 } }", True),
        ("ref.ts", '/// <reference types="node" />\nexport {};', True),
        ("ns.ts", "namespace N {\n  export const a = 1;\n}", True),  # indented export
        ("hidden.ts", "/*\nexport {};\n*/\nconst x = 1;", True),
        ("gone.ts", None, True),
        ("data.json", "{}", False),
    ],
)
def test_reaches_everything(rel: str, text: str | None, expected: bool) -> None:
    assert reaches_everything(rel, text) is expected


# --- against the real compiler ----------------------------------------------------------------

TSC = Path(__file__).parents[1] / "toolchains/node_modules/typescript5/bin/tsc"
EDGE = re.compile(r"""^\s+(?:Imported|Referenced) via (["'])(.+?)\1 from file '(.+?)'""")
PROJECT = {
    "package.json": '{"name": "app", "type": "module", "exports": {"./x": "./src/x.ts"}}',
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "noEmit": True,
                "allowJs": True,
                "checkJs": True,
                "module": "nodenext",
                "resolveJsonModule": True,
                "paths": {"@lib/*": ["./src/lib/*"]},
            },
            "files": ["src/main.ts"],
        }
    ),
    "src/main.ts": textwrap.dedent(
        """\
        /// <reference path="./glob.d.ts" />
        import { a } from "./a/index.js";
        import type { U } from "@lib/util.js";
        import d from "./data.json" with { type: "json" };
        import { b } from "./b.js";
        import { c } from "./c.mjs";
        import { j } from "./j.js";
        import x from "app/x";
        import k = require("./k.cjs");
        const m = await import("./dyn.mjs");
        const trap = `
        /* a template, not a comment`;
        import { esc } from "./\\u0065sc.js";
        import /* from "./nope.js" */ { cm } /* c */ from /* c */ "./cm.js";
        type L = typeof import("./lazy.js");
        export { a, b, c, d, j, k, m, x, trap, esc, cm };
        export type { U, L };
        """
    ),
    "src/esc.ts": "export const esc = 1;",
    "src/cm.ts": "export const cm = 1;",
    "src/lazy.ts": "export const lazy = 1;",
    "src/a/index.ts": 'export const a = 1;\nexport * from "../deep/index.js";',
    "src/deep/index.ts": "export const deep = 1;",
    "src/b.ts": "export const b = 1;",
    "src/c.mts": "export const c = 1;",
    "src/lib/util.ts": "export type U = 1;",
    "src/data.json": '{"x": 1}',
    "src/dyn.mjs": "export const m = 1;",
    "src/glob.d.ts": "declare var g: number;",
    "src/j.js": '/** @type {import("./shape.js").Shape} */\nexport const j = 1;',
    "src/shape.d.ts": "export type Shape = number;",
    "src/x.ts": "export default 1;",
    "src/k.cts": "export = 1;",
}


@pytest.mark.skipif(
    not TSC.exists() or shutil.which("node") is None,
    reason="needs node and tests/toolchains/node_modules/typescript5 (the pinned tsc)",
)
def test_every_edge_tsc_resolves_is_in_the_graph(tmp_path: Path) -> None:
    for rel, text in PROJECT.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    node = shutil.which("node")
    assert node is not None
    explained = subprocess.run(
        [node, str(TSC), "-p", ".", "--explainFiles"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "error TS" not in explained, explained
    graph = graph_of(tmp_path, {rel: text for rel, text in PROJECT.items() if "." in rel})
    edges: list[tuple[str, str]] = []
    current = ""
    for line in explained.splitlines():
        if line and not line.startswith(" "):
            current = line
        elif (match := EDGE.match(line)) and not current.startswith(("../", "/")):
            edges.append((match.group(3), current))
    assert len(edges) >= 12
    for importer, imported in edges:
        assert importer in graph.importers([imported], transitive=False), (importer, imported)


# --- comments -------------------------------------------------------------------------------


def test_jsdoc_examples_in_typescript_are_not_dependencies(tmp_path: Path) -> None:
    """rxjs's JSDoc examples import 'rxjs' itself: in .ts files they are only comments."""
    (tmp_path / "package.json").write_text('{"name": "rxjs"}')
    doc = """\
        /**
         * ```ts
         * import { of } from 'rxjs';
         * ```
         */
        // import { map } from './map';
        /* import './gone' */ import { real } from './real';
        const glob = "src/**/*.ts"; export const lazy = () => import('./lazy');
        """
    graph = graph_of(tmp_path, {"op.ts": doc, "op.js": doc})
    assert direct(graph, "map.ts") == {"op.js"}  # JS: JSDoc types are real under checkJs
    assert direct(graph, "other.ts") == {"op.js"}  # the self-reference reaches all, in JS only
    assert direct(graph, "real.ts") == {"op.ts", "op.js"}
    assert direct(graph, "lazy.ts") == {"op.ts", "op.js"}
    assert "op.ts" not in direct(graph, "gone.ts")


@pytest.mark.timeout(10)
def test_a_fifo_or_huge_package_json_is_not_read(tmp_path: Path) -> None:
    """``package.json`` is read bounded: a FIFO never blocks the planner, a huge one is skipped."""
    os.mkfifo(tmp_path / "package.json")
    big = tmp_path / "big"
    big.mkdir()
    (big / "package.json").write_text(json.dumps({"name": "big", "pad": "x" * (5 << 20)}))
    graph = graph_of(tmp_path, {"main.ts": 'import "app/x";', "big/main.ts": 'import "big/x";'})
    assert direct(graph, "anything.ts") == set()  # neither is read as a self-reference
