"""The TypeScript patch generator on a small synthetic tree: deterministic, valid, every kind."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import sha256_hex
from prewrite.protocol import Diagnostic
from tests.support.ts_patchgen import KINDS, TsIndex, generate_ts_patches

if TYPE_CHECKING:
    from pathlib import Path

SOURCES = {
    "src/util.ts": (
        "export function clamp(value: number, high: number): number {\n"
        "  return Math.min(value, high);\n"
        "}\n\n"
        "export function shout(text: string): string {\n"
        "  return text.toUpperCase();\n"
        "}\n\n"
        "export function unusedHelper(): void {\n"
        "  return;\n"
        "}\n"
    ),
    "src/shapes.ts": (
        "export interface Shape {\n  name: string;\n}\n\n"
        "export interface Sized {\n  size: number;\n}\n"
    ),
    "src/core.ts": (
        'import { clamp, shout } from "./util";\n'
        'import type { Shape } from "./shapes";\n\n'
        "export function scale(value: number, factor: number): number {\n"
        "  return clamp(value * factor, 10);\n"
        "}\n\n"
        "export function greet(shape: Shape): string {\n"
        "  return shout(shape.name);\n"
        "}\n"
    ),
    "src/report.ts": (
        'import { greet, scale } from "./core";\n'
        'import { clamp } from "./util";\n'
        'import type { Sized } from "./shapes";\n\n'
        "export function render(): string {\n"
        "  const sized: Sized = { size: clamp(scale(2, 3), 5) };\n"
        '  return greet({ name: "x" }) + String(sized.size);\n'
        "}\n\n"
        "export function broken(): number {\n"
        '  return "pre-existing error";\n'
        "}\n"
    ),
    "src/index.ts": 'export * from "./core";\nexport { render } from "./report";\n',
    "src/standalone.ts": "export function alone(flag: boolean): boolean {\n  return !flag;\n}\n",
    "src/types.d.ts": "declare const VERSION: string;\n",
    "node_modules/lib/index.ts": "export function ignored(): void {\n  return;\n}\n",
}
TSCONFIG = {"compilerOptions": {"strict": True, "noEmit": True}, "include": ["src/**/*.ts"]}
BASE = [
    Diagnostic("src/report.ts", 11, 3, 11, 3, "error", "TS2322", "Type...", "ts"),
    Diagnostic("src/core.ts", 5, 3, 5, 3, "error", "TS2322", "Type...", "ts"),
]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for rel, text in SOURCES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2) + "\n")
    return tmp_path


def test_the_index_finds_sources_functions_interfaces_and_imports(tree: Path) -> None:
    index = TsIndex(tree)
    assert sorted(index.files) == [
        "src/core.ts",
        "src/index.ts",
        "src/report.ts",
        "src/shapes.ts",
        "src/standalone.ts",
        "src/util.ts",
    ]
    names = {(fn.path, fn.name, fn.returns) for fn in index.functions}
    assert ("src/core.ts", "greet", "string") in names
    assert ("src/util.ts", "unusedHelper", "void") in names
    assert [(p, name) for p, _, name in index.interfaces] == [
        ("src/shapes.ts", "Shape"),
        ("src/shapes.ts", "Sized"),
    ]
    assert index.importers("src/util.ts") == ["src/core.ts", "src/report.ts"]
    assert index.importers("src/report.ts") == ["src/index.ts"]
    assert index.importers("src/standalone.ts") == []


def test_every_kind_yields_and_the_counts_hold(tree: Path) -> None:
    patches = generate_ts_patches(tree, base=BASE)
    kinds = Counter(p.kind for p in patches)
    assert set(kinds) == {kind for kind, _, _ in KINDS}
    assert all(kinds[kind] <= quota for kind, quota, _ in KINDS)
    assert len(patches) >= 24
    assert sum(len(p.changes) > 1 for p in patches) >= 5
    assert len({p.name for p in patches}) == len(patches)


def test_generation_is_deterministic_per_seed(tree: Path) -> None:
    first = generate_ts_patches(tree, seed=7, base=BASE)
    assert first == generate_ts_patches(tree, seed=7, base=BASE)
    assert [p.name for p in first] != [p.name for p in generate_ts_patches(tree, seed=8, base=BASE)]


def test_changes_are_valid_against_the_tree(tree: Path) -> None:
    for patch in generate_ts_patches(tree, base=BASE):
        for change in patch.changes:
            target = tree / change.path
            assert not change.path.startswith("node_modules/"), patch.name
            if change.base_sha256 is None:
                assert not target.exists(), patch.name
                assert change.content is not None
            else:
                assert sha256_hex(target.read_bytes()) == change.base_sha256, patch.name
                assert change.delete or change.content != target.read_text(), patch.name


def test_edits_keep_the_header_and_reach_the_right_places(tree: Path) -> None:
    by_kind = {p.kind: p for p in generate_ts_patches(tree, base=BASE)}
    required = by_kind["required_param"].changes[0].content or ""
    assert "pwExtra: number)" in required
    returned = by_kind["return_type"].changes[0].content or ""
    assert ") | undefined {" in returned
    shifted = by_kind["shift_only"].changes[0]
    assert shifted.path in {"src/report.ts", "src/core.ts"}
    assert (shifted.content or "").count("// prewrite: shifted") == 1
    config = json.loads(by_kind["tsconfig_strict"].changes[0].content or "")
    assert sum(v is True for v in config["compilerOptions"].values()) == 3
    added, importer = by_kind["new_module"].changes
    assert added.base_sha256 is None
    stem = added.path.rsplit("/", 1)[1].removesuffix(".ts")
    assert f'from "./{stem}";' in (importer.content or "")


def test_shift_kinds_need_base_errors(tree: Path) -> None:
    kinds = {p.kind for p in generate_ts_patches(tree)}
    assert not kinds & {"shift_only", "shift_many"}
