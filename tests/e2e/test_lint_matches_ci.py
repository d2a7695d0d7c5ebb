"""The lint rung judges what the repository's CI judges, no more.

Without a ruff configuration, ruff's defaults (isort, pyupgrade, simplify, ...) are not the
repository's rules: only breakage (``E9,F63,F7,F82``) is. With one, exactly what it selects.
Real daemon, real ruff, real pyright, temporary repositories.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file, new_file

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

BASE = {
    "pyproject.toml": '[project]\nname = "plain"\nversion = "0"\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "def total(xs: list[int]) -> int:\n    return sum(xs)\n",
}
# Correct code that ruff's defaults flag: I001 (unsorted imports), UP045 (Optional), SIM102.
STYLE_ONLY = """\
import sys
import os
from typing import Optional

from pkg.helper import double


def pick(x: Optional[int]) -> int:
    if x:
        if x > 1:
            return double(x) + len(sys.argv) + len(os.sep)
    return 0
"""
HELPER = "def double(x: int) -> int:\n    return 2 * x\n"


def make(root: Path, extra_pyproject: str = "") -> Path:
    for rel, text in BASE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text + (extra_pyproject if rel == "pyproject.toml" else ""))
    return root


def check(client: Client, root: Path, *changes: FileChange) -> CheckReply:
    return client.check(root, list(changes), python=sys.executable)


def style_patch(root: Path) -> list[FileChange]:
    return [change_file(root, "pkg/core.py", STYLE_ONLY), new_file("pkg/helper.py", HELPER)]


def test_without_ruff_config_style_findings_are_not_reds(client: Client, tmp_path: Path) -> None:
    root = make(tmp_path / "plain")
    reply = check(client, root, *style_patch(root))
    assert reply.ok, reply.diagnostics
    assert {r.rung: r.outcome for r in reply.rungs}["lint"] == "pass"
    assert any("E9,F63,F7,F82 only (no ruff configuration)" in v for v in reply.verified)


def test_without_ruff_config_an_undefined_name_is_red_at_lint(
    client: Client, tmp_path: Path
) -> None:
    root = make(tmp_path / "plain_red")
    text = "def total(xs: list[int]) -> int:\n    return sum(xs) + undefined_name\n"
    reply = check(client, root, change_file(root, "pkg/core.py", text))
    assert reply.failed_rung == "lint"
    assert [(d.rule, d.line) for d in reply.diagnostics] == [("F821", 2)]


def test_with_ruff_selecting_isort_the_same_patch_is_red(client: Client, tmp_path: Path) -> None:
    root = make(tmp_path / "isort", '\n[tool.ruff.lint]\nselect = ["I"]\n')
    reply = check(client, root, *style_patch(root))
    assert reply.failed_rung == "lint"
    assert {d.rule for d in reply.diagnostics} == {"I001"}
    assert any("under the workspace's ruff configuration" in v for v in reply.verified)


def test_a_ruff_toml_above_the_package_counts_as_configuration(
    client: Client, tmp_path: Path
) -> None:
    root = make(tmp_path / "ruff_toml")
    (root / "ruff.toml").write_text('[lint]\nselect = ["UP"]\n')
    reply = check(client, root, *style_patch(root))
    assert reply.failed_rung == "lint"
    assert {d.rule for d in reply.diagnostics} == {"UP045"}
