"""TsScope.covers against TypeScript's rules, and against the real ``tsc --listFilesOnly``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from prewrite_daemon.languages.typescript.scope import (
    SOURCE_SUFFIXES,
    TsScope,
    is_ts_source,
    spec_pattern,
)
from prewrite_daemon.languages.typescript.tsconfig import load_tsconfig

TSC = Path(__file__).parents[1] / "toolchains/node_modules/typescript5/bin/tsc"

# Names chosen to hit each rule: dot files and directories, package folders, extension priority,
# .min.js, declaration files, module extensions, odd characters, nested excludes.
TREE = (
    "src/a.ts",
    "src/a.d.ts",  # loses to a.ts
    "src/b.d.ts",
    "src/c.js",
    "src/c.d.ts",  # legacy: both c.js and c.d.ts are roots
    "src/d.ts",
    "src/d.js",  # loses to d.ts (allowJs)
    "src/e.tsx",
    "src/e.ts",  # e.tsx loses to it
    "src/f.jsx",
    "src/.dot.ts",
    "src/.config/y.ts",
    "src/node_modules/z.ts",
    "src/gen/out.ts",
    "src/gen/deep/out2.ts",
    "src/x.spec.ts",
    "src/sub/x.spec.ts",
    "src/weird name (1).ts",
    "src/a+b$c.ts",
    "src/dir.ts/inner.ts",
    "lib/m.mts",
    "lib/n.cts",
    "lib/o.d.mts",
    "lib/p.mjs",
    "lib/q.cjs",
    "lib/r.d.cts",
    "lib/s.cts",
    "lib/s.d.cts",  # loses to s.cts
    "vendor/v.min.js",
    "vendor/w.js",
    "vendor/nested/w2.js",
    ".hidden/x.ts",
    ".hidden/explicit.ts",
    "node_modules/pkg/index.ts",
    "bower_components/b/index.ts",
    "dist/built.ts",
    "dist/built.d.ts",
    "top.ts",
    "top.txt",
    "data/d.json",
    "q1.ts",
    "qq.ts",
)

VARIANTS: dict[str, dict[str, Any]] = {
    "everything_js": {"compilerOptions": {"allowJs": True}},
    "default_ts_outdir": {"compilerOptions": {"outDir": "dist"}},
    "specs": {
        "compilerOptions": {"allowJs": True, "resolveJsonModule": True},
        "include": ["src", "lib/**/*", "vendor/*.js", "src/.config/*.ts", "?1.ts", "data/*.json"],
        "exclude": ["src/gen", "**/*.spec.ts"],
        "files": [".hidden/explicit.ts", "src/gen/out.ts", "vendor/v.min.js"],
    },
    "files_only": {"files": ["top.ts", "src/f.jsx", "src/a.d.ts", "node_modules/pkg/index.ts"]},
    "one_level": {
        "compilerOptions": {"checkJs": True, "declarationDir": "types"},
        "include": ["src/*", "*.ts", "vendor/**/*.js", "dist/*"],
        "exclude": ["dist/*.d.ts"],
    },
}


def build(directory: Path, config: dict[str, Any]) -> None:
    for rel in TREE:
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}" if rel.endswith(".json") else "export {};\n")
    config = {**config}
    config["compilerOptions"] = {"noEmit": True, **config.get("compilerOptions", {})}
    (directory / "tsconfig.json").write_text(json.dumps(config))


def covered(directory: Path) -> set[str]:
    def read(rel: str) -> str | None:
        path = directory / rel
        return path.read_text() if path.is_file() else None

    scope = TsScope(load_tsconfig(directory, read), directory)
    return {rel for rel in TREE if scope.covers(rel)}


@pytest.mark.skipif(
    not TSC.exists() or shutil.which("node") is None,
    reason="needs node and tests/toolchains/node_modules/typescript5 (the pinned tsc)",
)
def test_covers_equals_tsc_list_files_only(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None
    running: dict[str, subprocess.Popen[str]] = {}
    for name, config in VARIANTS.items():
        build(tmp_path / name, config)
        running[name] = subprocess.Popen(
            [node, str(TSC), "-p", str(tmp_path / name), "--listFilesOnly"],
            stdout=subprocess.PIPE,
            text=True,
        )
    for name, process in running.items():
        out, _ = process.communicate(timeout=120)
        prefix = f"{(tmp_path / name).resolve()}/"
        listed = {line[len(prefix) :] for line in out.splitlines() if line.startswith(prefix)}
        assert covered(tmp_path / name) == listed, name


def scope_of(tmp_path: Path, config: dict[str, Any]) -> TsScope:
    texts = {"tsconfig.json": json.dumps(config)}
    return TsScope(load_tsconfig(tmp_path, texts.get), tmp_path, exists=lambda rel: False)


def test_default_include_skips_dot_and_package_dirs(tmp_path: Path) -> None:
    scope = scope_of(tmp_path, {})
    assert scope.covers("src/a.ts")
    assert scope.covers("a.d.ts")
    assert not scope.covers("src/a.js")
    assert not scope.covers(".github/a.ts")
    assert not scope.covers("node_modules/p/a.ts")
    assert not scope.covers("src/a.md")


def test_files_without_include_means_no_wildcards(tmp_path: Path) -> None:
    scope = scope_of(tmp_path, {"files": ["main.ts"]})
    assert scope.covers("main.ts")
    assert not scope.covers("other.ts")


def test_explicit_dot_dir_and_node_modules(tmp_path: Path) -> None:
    scope = scope_of(tmp_path, {"include": [".storybook/*.ts", "node_modules/local"]})
    assert scope.covers(".storybook/main.ts")
    assert scope.covers("node_modules/local/a.ts")
    assert not scope.covers("node_modules/local/node_modules/x/a.ts")


def test_higher_priority_sibling_is_asked_through_exists(tmp_path: Path) -> None:
    texts = {"tsconfig.json": "{}"}
    config = load_tsconfig(tmp_path, texts.get)
    scope = TsScope(config, tmp_path, exists=lambda rel: rel == "a.ts")
    assert not scope.covers("a.d.ts")
    assert scope.covers("b.d.ts")


def test_suffixes() -> None:
    assert set(SOURCE_SUFFIXES) >= {".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".cjs"}
    assert is_ts_source("a.d.mts", allow_js=False)
    assert not is_ts_source("a.mjs", allow_js=False)
    assert is_ts_source("a.mjs", allow_js=True)
    assert not is_ts_source("a.json", allow_js=True)


def test_spec_pattern_matches_typescripts_own() -> None:
    # Printed by ts.getPatternFromSpec("src/**/*.ts", "/r/x", "files") in TypeScript 5.9.3.
    expected = (
        "/r/x/src(?:/(?!(?:node_modules|bower_components|jspm_packages)(?:/|$))[^/.][^/]*)*?"
        "/(?!(?:node_modules|bower_components|jspm_packages)(?:/|$))"
        "(?:[^./](?:[^./]|(?:\\.(?!min\\.js$))?)*)?\\.ts"
    )
    assert spec_pattern("/r/x/src/**/*.ts", "files") == expected
    assert spec_pattern("/r/x/src", "exclude") == "/r/x/src(?:/.+?)?/[^/]*"
