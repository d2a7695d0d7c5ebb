"""Ruff's config resolution: the ladder feeds ruff the candidate text on stdin with
``--stdin-filename``; these tests check that this resolves the same configuration as CI's
``ruff check <path>`` on the tree (a config above the root, a nested one, and this repository).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from prewrite_daemon.ladder.ruff import Ruff, ruff_executable
from tests.unit.ruff_rungs.ruff_helpers import LONG, TIMEOUT_S, UNUSED_AND_UNDEFINED
from tests.unit.ruff_rungs.ruff_helpers import positions as _positions
from tests.unit.ruff_rungs.ruff_helpers import write_files as _write_files

REPO = Path(__file__).resolve().parents[3]


async def test_a_config_above_the_root_resolves_like_ci(workspace: Path) -> None:
    """A project inside a monorepo configured at its top: with a relative ``--stdin-filename``
    ruff would never look above the working directory; CI's ``ruff check`` does."""
    top = workspace.parent
    (top / "ruff.toml").write_text('line-length = 20\n[lint]\nselect = ["E501"]\n')
    root = top / "packages" / "lib"
    _write_files(root, {"pyproject.toml": '[project]\nname = "lib"\n', "m.py": LONG})
    exe = ruff_executable(sys.executable)
    ci = _ruff_json([exe, "check", "--no-cache", "--output-format", "json", "m.py"], root)
    assert [c[0] for c in ci] == ["E501"]
    for warm in (False, True):
        ruff = Ruff(root, sys.executable, warm=warm)
        found = await ruff.lint("m.py", LONG, TIMEOUT_S)
        await ruff.stop()
        assert _positions(found) == [c[:5] for c in ci]


# --- config resolution: the ladder's stdin command vs CI's path command ---------------------


def _ruff_json(argv: list[str], cwd: Path, stdin: str | None = None) -> list[tuple[Any, ...]]:
    proc = subprocess.run(
        argv, cwd=cwd, input=stdin, capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode in (0, 1), proc.stderr
    items: list[dict[str, Any]] = json.loads(proc.stdout or "[]")
    return sorted(
        (
            item["code"],
            item["location"]["row"],
            item["location"]["column"],
            item["end_location"]["row"],
            item["end_location"]["column"],
            item["message"],
        )
        for item in items
    )


async def test_nested_config_resolves_like_ci(workspace: Path, ruff: Ruff) -> None:
    (workspace / "sub").mkdir()
    (workspace / "sub" / "ruff.toml").write_text('line-length = 20\n[lint]\nselect = ["E501"]\n')
    text = "import os\nx = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\n"
    (workspace / "sub" / "a.py").write_text(text)
    ci = _ruff_json([ruff.exe, "check", "--output-format", "json", "sub/a.py"], workspace)
    found = await ruff.lint("sub/a.py", text, TIMEOUT_S)
    assert [c[0] for c in ci] == ["E501"]  # the nested file's rules, not the root's F401
    assert _positions(found) == [c[:5] for c in ci]


# One real file under each of CI's roots (`make lint`: ruff check client daemon tests bench).
REPO_FILES = [
    "client/prewrite/protocol/replies.py",
    "daemon/prewrite_daemon/ladder/runner.py",
    "tests/unit/patch_validation/test_patch_paths.py",
    "bench/rungs.py",
]
# Output and selection flags the ladder passes on purpose; they are not lint configuration.
LADDER_FLAG_SETTINGS = ("output_format = ", "file_resolver.force_exclude = ")


def _settings(argv: list[str]) -> list[str]:
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [
        line
        for line in proc.stdout.splitlines()
        if not line.startswith("Resolved settings for:")
        and not line.startswith(LADDER_FLAG_SETTINGS)
    ]


@pytest.mark.parametrize("rel", REPO_FILES)
def test_ladder_lint_settings_equal_ci_settings_in_this_repo(rel: str) -> None:
    """``--show-settings`` both ways. ruff refuses it together with ``--stdin-filename``, so
    the ladder's side keeps every other flag of its command and names the path positionally;
    the stdin resolution itself is compared by findings in the next test."""
    ladder = Ruff(REPO, sys.executable, warm=False)
    argv = ladder.lint_command(rel)
    at = argv.index("--stdin-filename")
    ladder_side = _settings([*argv[:at], "--show-settings", rel])
    ci_side = _settings([ladder.exe, "check", "--show-settings", rel])
    assert f'Settings path: "{REPO / "pyproject.toml"}"' in ci_side
    assert "linter.line_length = 100" in ci_side
    assert ladder_side == ci_side


@pytest.mark.parametrize("rel", REPO_FILES)
def test_ladder_stdin_lint_finds_what_ci_finds_in_this_repo(rel: str) -> None:
    """Same file, same bytes: through stdin the ladder's way, and by path CI's way.

    ``--extend-select ALL`` on both sides makes the findings depend on everything resolved from
    the config (target version, line length, isort sections, per-file ignores, TC base
    classes) while the comparison stays fair; CI's clean files would otherwise compare [] == [].
    """
    ladder = Ruff(REPO, sys.executable, warm=False)
    argv = ladder.lint_command(rel)
    ladder_argv = [argv[0], argv[1], "--extend-select", "ALL", *argv[2:]]
    ci_argv = [ladder.exe, "check", "--extend-select", "ALL", "--no-fix", "--output-format",
               "json", rel]  # fmt: skip
    text = (REPO / rel).read_text()
    via_stdin = _ruff_json(ladder_argv, REPO, stdin=text)
    via_path = _ruff_json(ci_argv, REPO)
    assert via_path  # not a vacuous comparison
    assert via_stdin == via_path


@pytest.mark.parametrize("warm", [False, True], ids=["cli", "server"])
async def test_ci_excluded_paths_are_not_linted_by_the_ladder_in_this_repo(warm: bool) -> None:
    ladder = Ruff(REPO, sys.executable, warm=warm)
    try:
        excluded = await ladder.lint("bench/demo/repo/shop/x.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
        assert excluded == []
        assert await ladder.lint("bench/x.py", UNUSED_AND_UNDEFINED, TIMEOUT_S) != []
    finally:
        await ladder.stop()
