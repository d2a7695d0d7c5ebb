"""The TypeScript reverse import graph, scanning: it is a ``DependencyGraph``, every import form is
found, package names are read, and JSDoc examples in comments are not dependencies.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.typescript.graph import package_name
from prewrite_daemon.languages.typescript.syntax import read_module
from tests.unit.ts_graph_helpers import direct, graph_of

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.languages.base import DependencyGraph


def test_is_a_dependency_graph(tmp_path: Path) -> None:
    graph: DependencyGraph = graph_of(tmp_path, {})  # pyright checks the Protocol
    assert graph.importers(["a.ts"]) == set()


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
