"""The TypeScript reverse import graph against the real compiler: every edge ``tsc`` resolves in a
project of every resolution form is in the graph.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.unit.ts_graph_helpers import graph_of

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
