"""The JS/TS format and lint tools, run for real: prettier, eslint and biome from
``tests/toolchains`` (``make install``), linked into temporary workspaces as their own
``node_modules``. Each tool judges a file only where the workspace configures and installs it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from prewrite_daemon.ladder.node_tools import NodeTools

TOOLCHAINS = Path(__file__).resolve().parents[1] / "toolchains" / "node_modules"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None or not (TOOLCHAINS / ".bin" / "prettier").exists(),
    reason="node and tests/toolchains (make install) are needed",
)

ESLINT_CONFIG = (
    'export default [{rules: {"no-undef": "error", "no-unused-vars": "warn"},\n'
    '  languageOptions: {globals: {console: "readonly"}}}];\n'
)


def workspace(tmp_path: Path, **files: str) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "node_modules").symlink_to(TOOLCHAINS)
    for name, text in files.items():
        path = root / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_nothing_configured_means_no_tool(tmp_path: Path) -> None:
    tools = NodeTools(workspace(tmp_path, src__a_js="const a = 1\n"))
    assert tools.formatter("src/a.js") is None
    assert tools.linters("src/a.js") == []


def test_configured_but_not_installed_is_reported(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{".prettierrc": "{}\n", "eslint.config.mjs": ESLINT_CONFIG})
    (root / "node_modules").unlink()
    tools = NodeTools(root)
    assert tools.formatter("a.js") is None
    assert tools.configured_but_missing("a.js") == ["prettier", "eslint"]


async def test_prettier_formats_by_the_files_real_path(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{".prettierrc": '{"semi": false}\n'})
    tools = NodeTools(root)
    tool = tools.formatter("src/a.js")
    assert tool is not None
    assert tool.name == "prettier"
    assert await tools.format(tool, "src/a.js", "const  a = 1;\n", 30) == "const a = 1\n"
    assert await tools.format(tool, "src/a.js", "const a = (;\n", 30) is None


async def test_a_prettierignore_leaves_the_file_as_given(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{".prettierrc": "{}\n", ".prettierignore": "vendor/\n"})
    tools = NodeTools(root)
    tool = tools.formatter("vendor/x.js")
    assert tool is not None
    assert await tools.format(tool, "vendor/x.js", "const  a = 1\n", 30) == "const  a = 1\n"


async def test_eslint_reports_errors_not_warnings(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{"eslint.config.mjs": ESLINT_CONFIG})
    tools = NodeTools(root)
    [tool] = tools.linters("src/a.js")
    assert tool.name == "eslint"
    found = await tools.lint(tool, "src/a.js", "const unused = 1\nconsole.log(b)\n", 30)
    assert [(d.rule, d.line, d.column, d.source) for d in found] == [("no-undef", 2, 13, "eslint")]


async def test_biome_formats_and_lints(tmp_path: Path) -> None:
    text = "const a = 1;\nif (a == 1) {\n  debugger;\n}\n"
    root = workspace(tmp_path, **{"biome.json": "{}\n", "src__a.js": text})
    tools = NodeTools(root)
    formatter = tools.formatter("src/a.js")
    assert formatter is not None
    assert formatter.name == "biome"
    assert await tools.format(formatter, "src/a.js", "const  a = 1\n", 30) == "const a = 1;\n"
    [linter] = tools.linters("src/a.js")
    found = await tools.lint(linter, "src/a.js", text, 30)
    assert {d.rule for d in found} >= {"lint/suspicious/noDebugger"}
    assert all(d.source == "biome" and d.path == "src/a.js" for d in found)


def test_a_nested_config_counts_for_the_files_below_it_only(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{"web__.prettierrc": "{}\n"})
    tools = NodeTools(root)
    assert tools.formatter("web/src/a.ts") is not None
    assert tools.formatter("server/a.ts") is None


def test_prettier_in_package_json_counts(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{"package.json": '{"name": "x", "prettier": {}}\n'})
    assert NodeTools(root).formatter("a.ts") is not None
