"""The format and lint rungs' Ruff adapter against the real ruff binary: formatted text, ruff's
errors, one-based positions, the workspace config and its excludes, the cached base lint, the
commands it runs, the workspace's own ruff preferred.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.ladder import ruff as ruff_module
from prewrite_daemon.ladder.ruff import Ruff, ruff_executable
from tests.unit.ruff_rungs.ruff_helpers import TIMEOUT_S, UNUSED_AND_UNDEFINED
from tests.unit.ruff_rungs.ruff_helpers import positions as _positions

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def cli_ruff(workspace: Path) -> Ruff:
    return Ruff(workspace, sys.executable, warm=False)


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


async def test_lint_base_is_cached_by_content(
    cli_ruff: Ruff, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruff = cli_ruff
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


def test_commands_name_the_real_path_and_read_stdin(cli_ruff: Ruff) -> None:
    ruff = cli_ruff
    for argv in (ruff.lint_command("pkg/m.py"), ruff.format_command("pkg/m.py")):
        assert argv[0] == ruff.exe
        assert "--force-exclude" in argv
        assert argv[argv.index("--stdin-filename") + 1] == str(ruff.root / "pkg/m.py")
        assert argv[-1] == "-"


def test_workspace_ruff_is_preferred(tmp_path: Path) -> None:
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("")
    fake = bin_dir / "ruff"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert ruff_executable(str(bin_dir / "python")) == str(fake)
