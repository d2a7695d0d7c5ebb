"""The TypeScript reverse import graph, resolution: relative candidates, ``paths`` and ``baseUrl``,
``rootDirs``, module suffixes, transitive importers, new and deleted files, self references and
workspace packages, a ``package.json`` that is not read.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import pytest

from tests.unit.ts_graph_helpers import direct, graph_of

if TYPE_CHECKING:
    from pathlib import Path


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


@pytest.mark.timeout(10)
def test_a_fifo_or_huge_package_json_is_not_read(tmp_path: Path) -> None:
    """``package.json`` is read bounded: a FIFO never blocks the planner, a huge one is skipped."""
    os.mkfifo(tmp_path / "package.json")
    big = tmp_path / "big"
    big.mkdir()
    (big / "package.json").write_text(json.dumps({"name": "big", "pad": "x" * (5 << 20)}))
    graph = graph_of(tmp_path, {"main.ts": 'import "app/x";', "big/main.ts": 'import "big/x";'})
    assert direct(graph, "anything.ts") == set()  # neither is read as a self-reference
