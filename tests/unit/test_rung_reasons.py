"""Why a rung did not judge, as the ladder reports it (in-process: real ruff, a stand-in type
check): a format or lint rung with no tool for any of the patch's files is ``off`` and says so,
never a ``pass`` that judged nothing; a reason never repeats the outcome."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.protocol import CheckReply, CheckRequest, FileChange
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch

pytestmark = pytest.mark.timeout(60)


async def _typecheck_ok(patch: PreparedPatch, timeout_s: float) -> CheckReply:
    return CheckReply(True, [], [], {})


async def check(root: Path, changes: list[FileChange]) -> CheckReply:
    ruff = Ruff(root, sys.executable)
    ladder = Ladder(root, load_config(root), ruff, _typecheck_ok, (), trusted=lambda _r: False)
    return await ladder.run(CheckRequest(str(root), changes, timeout_s=60))


@pytest.fixture
def ruff_ws(tmp_path: Path) -> Path:
    """A workspace that configures ruff (so the format and lint rungs are on)."""
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    return tmp_path.resolve()


@pytest.fixture
def bare_ws(tmp_path: Path) -> Path:
    return tmp_path.resolve()


def outcomes(reply: CheckReply) -> dict[str, tuple[str, str]]:
    return {r.rung: (r.outcome, r.detail) for r in reply.rungs}


async def test_no_python_file_for_a_configured_ruff_is_no_formatter_not_a_pass(
    ruff_ws: Path,
) -> None:
    reply = await check(ruff_ws, [FileChange("notes.md", content="# notes\n")])
    assert reply.ok
    got = outcomes(reply)
    assert got["format"] == ("off", "no formatter configured for the patch's files")
    assert got["lint"] == ("off", "no linter configured for the patch's files")
    assert "format: no formatter configured for the patch's files" in reply.not_verified


async def test_a_python_file_is_formatted_and_linted(ruff_ws: Path) -> None:
    reply = await check(ruff_ws, [FileChange("a.py", content="x = 1\n")])
    assert [outcomes(reply)[r][0] for r in ("format", "lint")] == ["pass", "pass"]


async def test_no_ruff_configuration_says_no_formatter_once(bare_ws: Path) -> None:
    reply = await check(bare_ws, [FileChange("a.py", content="x = 1\n")])
    got = outcomes(reply)
    assert got["format"] == (
        "off",
        "no formatter configured (the workspace has no ruff configuration)",
    )
    assert got["review"] == ("off", "no [tool.prewrite] reviewer")
    assert not [r for r in reply.rungs if r.detail.startswith(f"{r.outcome} (")]
