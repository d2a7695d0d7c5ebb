"""Small TypeScript workspaces for end-to-end tests, each with its own TypeScript installed.

The workspace's ``node_modules/typescript`` links to one of the toolchains ``make install``
puts in ``tests/toolchains`` (5.9.3: tsserver; 7.0.2: tsc --lsp), as ``npm install`` would
put it there; a fake dependency ``libx`` stands in for a package installed and upgraded behind
the daemon's back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

TOOLCHAINS = Path(__file__).resolve().parents[1] / "toolchains" / "node_modules"
TS_PACKAGES = {5: TOOLCHAINS / "typescript5", 7: TOOLCHAINS / "typescript7"}

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "nodenext",
        "skipLibCheck": False,
    },
    "include": ["src"],
}
FILES = {
    "src/geometry.ts": (
        "export interface Point {\n  x: number;\n  y: number;\n}\n\n"
        "export function distance(a: Point, b: Point): number {\n"
        "  return Math.hypot(a.x - b.x, a.y - b.y);\n}\n"
    ),
    "src/index.ts": (
        'import { distance, type Point } from "./geometry.js";\n'
        'import { make } from "libx";\n\n'
        "const origin: Point = { x: 0, y: 0 };\n"
        "export const d: number = distance(origin, { x: 3, y: 4 });\n"
        "export const made: number = make();\n"
    ),
    "src/shapes/index.ts": (
        'import type { Point } from "../geometry.js";\n\n'
        "export function centre(points: Point[]): Point {\n"
        "  const n = points.length;\n"
        "  return { x: points.reduce((s, p) => s + p.x, 0) / n, "
        "y: points.reduce((s, p) => s + p.y, 0) / n };\n}\n"
    ),
}


def toolchain(major: int) -> Path:
    package = TS_PACKAGES[major]
    if not (package / "package.json").is_file():
        pytest.skip(f"TypeScript {major} toolchain missing: run `make install`")
    return package


def install_libx(root: Path, version: str, returns: str) -> None:
    """``npm install libx@version`` as it lands on disk: a package.json and typings rewritten."""
    lib = root / "node_modules" / "libx"
    lib.mkdir(parents=True, exist_ok=True)
    manifest = {"name": "libx", "version": version, "types": "index.d.ts", "main": "index.js"}
    (lib / "package.json").write_text(json.dumps(manifest))
    (lib / "index.d.ts").write_text(f"export declare function make(): {returns};\n")
    (lib / "index.js").write_text("exports.make = () => 1;\n")


def make_ts_repo(root: Path, major: int) -> Path:
    """A TypeScript workspace at ``root`` checked by TypeScript ``major``; returns the root."""
    package = toolchain(major)
    root.mkdir(parents=True, exist_ok=True)
    (root / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2))
    deps = {"typescript": json.loads((package / "package.json").read_text())["version"]}
    (root / "package.json").write_text(
        json.dumps({"name": "demo", "type": "module", "devDependencies": deps}, indent=2)
    )
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "node_modules").mkdir()
    os.symlink(package, root / "node_modules" / "typescript", target_is_directory=True)
    install_libx(root, "1.0.0", "number")
    return root
