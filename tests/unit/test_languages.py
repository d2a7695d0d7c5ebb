"""The language seam: which checkers judge a patch, and what each language claims."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.check.routing import merge_replies
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.languages.registry import languages_for
from prewrite_daemon.languages.typescript.environment import digest_node_modules, load_layout
from prewrite_daemon.languages.typescript.language import TYPESCRIPT

if TYPE_CHECKING:
    from pathlib import Path


def names(root: Path, paths: list[str]) -> list[str]:
    return [lang.name for lang in languages_for(root, paths)]


def test_a_python_tree_goes_to_pyright_whatever_the_patch(tmp_path: Path) -> None:
    assert names(tmp_path, ["a.py"]) == ["python"]
    assert names(tmp_path, ["README.md"]) == ["python"]
    assert names(tmp_path, ["src/a.ts"]) == ["python"]  # no tsconfig: not a TS workspace


def test_a_mixed_tree_routes_each_file_by_suffix(tmp_path: Path) -> None:
    (tmp_path / "tsconfig.json").write_text("{}")
    assert names(tmp_path, ["src/a.ts"]) == ["typescript"]
    assert names(tmp_path, ["tools/x.py"]) == ["python"]
    assert names(tmp_path, ["tools/x.py", "web/a.tsx"]) == ["python", "typescript"]
    assert names(tmp_path, ["tsconfig.json"]) == ["typescript"]
    assert names(tmp_path, ["pyproject.toml"]) == ["python"]
    assert names(tmp_path, ["README.md"]) == ["typescript"]


def test_typescript_claims_its_sources_and_configs() -> None:
    for rel in ["a.ts", "a.tsx", "a.mts", "a.cts", "a.d.ts", "a.js", "a.jsx", "a.mjs", "a.cjs"]:
        assert TYPESCRIPT.is_source(rel), rel
        assert not PYTHON.is_source(rel), rel
    assert TYPESCRIPT.is_checker_config("tsconfig.json")
    assert TYPESCRIPT.is_checker_config("packages/a/tsconfig.build.json")
    assert not TYPESCRIPT.is_checker_config("package.json")
    assert TYPESCRIPT.is_mirrored("package.json")
    assert not TYPESCRIPT.is_mirrored("a.py")


def test_typescript_rules_carry_the_ts_prefix_as_tsc_prints_them() -> None:
    raw = RawDiagnostic(0, 0, 0, 1, "error", "2345", "m", "ts")
    assert TYPESCRIPT.normalize(raw).rule == "TS2345"
    assert TYPESCRIPT.normalize(RawDiagnostic(0, 0, 0, 1, "error", "TS1", "m", "ts")).rule == "TS1"


def test_a_config_extending_outside_the_root_names_it_absolutely(tmp_path: Path) -> None:
    (tmp_path / "base.json").write_text('{"compilerOptions": {"strict": true}}')
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "tsconfig.json").write_text('{"extends": "../base.json", "include": ["src"]}')
    layout = load_layout(root, lambda rel: (root / rel).read_text())
    assert layout.config_text is not None
    assert json.loads(layout.config_text)["extends"] == str(tmp_path / "base.json")
    assert layout.outside == (tmp_path,)
    inside = '{"extends": "./base.json"}  // kept verbatim'
    (root / "tsconfig.json").write_text(inside)
    (root / "base.json").write_text("{}")
    assert load_layout(root, lambda rel: (root / rel).read_text()).config_text == inside


def test_an_install_moves_the_packages_digest(tmp_path: Path) -> None:
    modules = tmp_path / "node_modules"
    (modules / "@types" / "node").mkdir(parents=True)
    (modules / "@types" / "node" / "package.json").write_text('{"version": "1"}')
    (modules / "left-pad").mkdir()
    (modules / "left-pad" / "package.json").write_text('{"version": "1"}')
    before = digest_node_modules(modules)
    assert digest_node_modules(modules) == before
    (modules / "@types" / "node" / "package.json").write_text('{"version": "2.0"}')
    upgraded = digest_node_modules(modules)
    assert upgraded != before
    (modules / "right-pad").mkdir()
    assert digest_node_modules(modules) != upgraded


def _reply(ok: bool, rule: str) -> CheckReply:
    d = Diagnostic("a", 1, 1, 1, 2, "error", rule, "m", "s")
    return CheckReply(ok, [d] if not ok else [], ["a"], {"total_ms": 1.0})


def test_one_verdict_from_two_checkers_is_red_if_either_is() -> None:
    merged = merge_replies([("python", _reply(True, "x")), ("typescript", _reply(False, "TS1"))])
    assert not merged.ok
    assert [d.rule for d in merged.diagnostics] == ["TS1"]
    assert set(merged.timings_ms) == {"python.total_ms", "typescript.total_ms"}
    assert merge_replies([("python", _reply(True, "x"))]).ok
