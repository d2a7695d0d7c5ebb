"""The JS/TS format and lint rungs through the real daemon: the workspace's own prettier and
eslint (from ``tests/toolchains``, linked in as its ``node_modules``), as a mutation and for new
errors only; never run in a workspace not trusted to run its own code."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file, new_file

if TYPE_CHECKING:
    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

TOOLCHAINS = Path(__file__).resolve().parents[1] / "toolchains" / "node_modules"
needs_tools = pytest.mark.skipif(
    shutil.which("node") is None or not (TOOLCHAINS / ".bin" / "eslint").exists(),
    reason="node and tests/toolchains (make install) are needed",
)

FILES = {
    ".prettierrc": '{"semi": false}\n',
    "eslint.config.mjs": (
        'export default [{rules: {"no-undef": "error"},\n'
        '  languageOptions: {globals: {console: "readonly"}}}];\n'
    ),
    "src/old.js": "console.log(missing)\n",  # an eslint error the patch did not introduce
    "src/ok.js": "export const one = 1\n",
}


def make(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "node_modules").symlink_to(TOOLCHAINS)
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def check(client: Client, root: Path, *changes: FileChange, rungs: list[str] | None = None
          ) -> CheckReply:  # fmt: skip
    return client.check(root, list(changes), python=sys.executable, rungs=rungs)


@needs_tools
def test_prettier_formats_and_eslint_passes(client: Client, tmp_path: Path) -> None:
    root = make(tmp_path / "js")
    reply = check(client, root, new_file("src/a.js", "const a = 1;\nconsole.log(a);\n"))
    assert reply.ok, reply.diagnostics
    [file] = reply.files
    assert (file.content, file.formatted) == ("const a = 1\nconsole.log(a)\n", True)
    assert "format: prettier on 1 JS/TS file(s), 1 changed" in reply.verified
    assert "lint: eslint on 1 JS/TS file(s)" in reply.verified


@needs_tools
def test_a_new_eslint_error_is_red_at_lint(client: Client, tmp_path: Path) -> None:
    root = make(tmp_path / "red")
    text = "export const one = 1\nconsole.log(nowhere)\n"
    reply = check(client, root, change_file(root, "src/ok.js", text))
    assert reply.failed_rung == "lint"
    assert [(d.rule, d.line, d.source) for d in reply.diagnostics] == [("no-undef", 2, "eslint")]


@needs_tools
def test_an_error_the_base_had_is_not_held_against_the_patch(
    client: Client, tmp_path: Path
) -> None:
    root = make(tmp_path / "old")
    text = "// touched\nconsole.log(missing)\n"
    reply = check(client, root, change_file(root, "src/old.js", text))
    assert reply.ok, reply.diagnostics


@needs_tools
def test_rungs_typecheck_skips_the_node_tools(client: Client, tmp_path: Path) -> None:
    root = make(tmp_path / "skip")
    reply = check(client, root, new_file("src/a.js", "console.log(nowhere);\n"), rungs=["parse"])
    assert reply.ok
    assert reply.files[0].content == "console.log(nowhere);\n"  # not formatted


@needs_tools
def test_an_untrusted_workspace_never_runs_its_node_tools(client: Client) -> None:
    base = Path(tempfile.mkdtemp(prefix="pw-untrusted-node-", dir="/tmp"))
    try:
        root = make(base / "ws")
        reply = check(client, root, new_file("src/a.js", "console.log(nowhere);\n"))
        assert reply.ok  # nothing judged it: the receipt says why
        assert reply.files[0].content == "console.log(nowhere);\n"
        assert any("not trusted" in line and "JS/TS" in line for line in reply.not_verified)
    finally:
        shutil.rmtree(base)
