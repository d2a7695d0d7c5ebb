"""The TypeScript reverse import graph, global reach among the importers: an importer with global
reach reaches every file, a module importer does not widen, the planning deadline, JSON modules
and implicit imports, and ``reaches_everything``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.base import PlanningBudgetExceeded
from prewrite_daemon.languages.typescript.graph import reaches_everything
from tests.unit.ts_graph_helpers import direct, graph_of

if TYPE_CHECKING:
    from pathlib import Path


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
