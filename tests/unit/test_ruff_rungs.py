"""The format and lint rungs against the real ruff binary, and their config resolution.

The ladder feeds ruff the candidate text on stdin with ``--stdin-filename``; these tests check
that this resolves the same configuration as CI's ``ruff check <path>`` on the tree.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from prewrite_daemon.ladder import ruff as ruff_module
from prewrite_daemon.ladder.ruff import Ruff, ruff_executable

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_S = 30.0
PYPROJECT = """\
[tool.ruff]
line-length = 100
extend-exclude = ["generated"]

[tool.ruff.lint]
select = ["E", "F", "I"]
"""
UNUSED_AND_UNDEFINED = "import os\n\nprint(undefined_name)\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "generated").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    return root


@pytest.fixture
def ruff(workspace: Path) -> Ruff:
    return Ruff(workspace, sys.executable)


def _positions(found: list[Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    return [(d.rule, d.line, d.column, d.end_line, d.end_column) for d in found]


# --- the Ruff adapter -----------------------------------------------------------------------


async def test_format_returns_the_formatted_text(ruff: Ruff) -> None:
    long_call = "result = compute(" + ", ".join(f"arg_value_{n}" for n in range(6)) + ")\n"
    assert 88 < len(long_call) - 1 <= 100  # wrapped at ruff's default width, not at this one
    text, err = await ruff.format("pkg/m.py", "x=( 1,2 )\n" + long_call, TIMEOUT_S)
    assert err == ""
    assert text == "x = (1, 2)\n" + long_call


async def test_format_of_unparseable_text_reports_ruffs_error(ruff: Ruff) -> None:
    text, err = await ruff.format("pkg/m.py", "def f(:\n", TIMEOUT_S)
    assert text is None
    assert err


async def test_lint_findings_have_one_based_positions(ruff: Ruff) -> None:
    found = await ruff.lint("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    assert _positions(found) == [("F401", 1, 8, 1, 10), ("F821", 3, 7, 3, 21)]
    assert {(d.path, d.source, d.severity) for d in found} == {("pkg/m.py", "ruff", "error")}
    assert "os" in found[0].message
    assert "undefined_name" in found[1].message


async def test_lint_of_clean_text(ruff: Ruff) -> None:
    assert await ruff.lint("pkg/m.py", "import os\n\nprint(os.sep)\n", TIMEOUT_S) == []


async def test_lint_uses_the_workspace_config(ruff: Ruff) -> None:
    line = "x = '" + "a" * 90 + "'\n"  # 96 columns: fine at 100, E501 at ruff's default 88
    assert await ruff.lint("pkg/m.py", line, TIMEOUT_S) == []
    found = await ruff.lint("pkg/m.py", "x = '" + "a" * 100 + "'\n", TIMEOUT_S)
    assert [d.rule for d in found] == ["E501"]


async def test_excluded_paths_are_not_linted_or_formatted(ruff: Ruff) -> None:
    assert await ruff.lint("generated/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S) == []
    assert await ruff.format("generated/m.py", "x=( 1,2 )\n", TIMEOUT_S) == ("x=( 1,2 )\n", "")


async def test_lint_base_is_cached_by_content(ruff: Ruff, monkeypatch: pytest.MonkeyPatch) -> None:
    real_run = ruff_module._run  # pyright: ignore[reportPrivateUsage]
    calls: list[list[str]] = []

    async def counting_run(
        argv: list[str], text: str, cwd: Path, timeout_s: float
    ) -> tuple[int, str, str]:
        calls.append(argv)
        return await real_run(argv, text, cwd, timeout_s)

    monkeypatch.setattr(ruff_module, "_run", counting_run)
    first = await ruff.lint_base("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    again = await ruff.lint_base("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    assert len(calls) == 1
    assert again == first
    assert [d.rule for d in first] == ["F401", "F821"]
    await ruff.lint_base("pkg/m.py", UNUSED_AND_UNDEFINED + "\n", TIMEOUT_S)  # new content
    await ruff.lint_base("pkg/other.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)  # new path
    assert len(calls) == 3
    await ruff.lint("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)  # candidates are never cached
    await ruff.lint("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    assert len(calls) == 5


def test_commands_name_the_real_path_and_read_stdin(ruff: Ruff) -> None:
    for argv in (ruff.lint_command("pkg/m.py"), ruff.format_command("pkg/m.py")):
        assert argv[0] == ruff.exe
        assert "--force-exclude" in argv
        assert argv[argv.index("--stdin-filename") + 1] == "pkg/m.py"
        assert argv[-1] == "-"


def test_workspace_ruff_is_preferred(tmp_path: Path) -> None:
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("")
    fake = bin_dir / "ruff"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert ruff_executable(str(bin_dir / "python")) == str(fake)


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
    "client/prewrite/protocol.py",
    "daemon/prewrite_daemon/ladder/runner.py",
    "tests/unit/test_patch.py",
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
    ladder = Ruff(REPO, sys.executable)
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
    ladder = Ruff(REPO, sys.executable)
    argv = ladder.lint_command(rel)
    ladder_argv = [argv[0], argv[1], "--extend-select", "ALL", *argv[2:]]
    ci_argv = [ladder.exe, "check", "--extend-select", "ALL", "--no-fix", "--output-format",
               "json", rel]  # fmt: skip
    text = (REPO / rel).read_text()
    via_stdin = _ruff_json(ladder_argv, REPO, stdin=text)
    via_path = _ruff_json(ci_argv, REPO)
    assert via_path  # not a vacuous comparison
    assert via_stdin == via_path


async def test_ci_excluded_paths_are_not_linted_by_the_ladder_in_this_repo() -> None:
    ladder = Ruff(REPO, sys.executable)
    assert await ladder.lint("bench/demo/repo/shop/x.py", UNUSED_AND_UNDEFINED, TIMEOUT_S) == []
    assert await ladder.lint("bench/x.py", UNUSED_AND_UNDEFINED, TIMEOUT_S) != []
