"""The ladder in-process, real ruff, a stand-in type check: who judges a patch, and the receipt.

A patch that changes ruff's configuration is formatted and linted under the configuration before
it and under its new one; these tests pin what each judgment says and what the receipt records.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, new_file
from prewrite.protocol import CheckReply, CheckRequest, FileChange
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch

PYPROJECT = """[tool.ruff]
line-length = 100

[tool.ruff.lint]
select = ["E", "F"]

[tool.prewrite]
format = true
"""
CORE = "def total(xs: list[int]) -> int:\n    return sum(xs)\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    (path / "pkg").mkdir(parents=True)
    (path / "pyproject.toml").write_text(PYPROJECT)
    (path / "pkg" / "core.py").write_text(CORE)
    return path


class StandIn:
    """The type check rung's stand-in: answers ok with the receipt lines it is given."""

    def __init__(self, verified: list[str], not_verified: list[str]) -> None:
        self.verified, self.not_verified = verified, not_verified
        self.seen: list[PreparedPatch] = []

    async def __call__(self, patch: PreparedPatch, timeout_s: float) -> CheckReply:
        self.seen.append(patch)
        return CheckReply(
            ok=True, diagnostics=[], checked_files=["pkg/core.py"], timings_ms={},
            verified=self.verified, not_verified=self.not_verified,
        )  # fmt: skip


async def run(root: Path, *changes: FileChange, typecheck: StandIn | None = None) -> CheckReply:
    ladder = Ladder(
        root, load_config(root), Ruff(root, sys.executable), typecheck or StandIn([], []), ()
    )
    return await ladder.run(CheckRequest(str(root), list(changes), timeout_s=60))


def detail(reply: CheckReply, rung: str) -> str:
    return next(r.detail for r in reply.rungs if r.rung == rung)


async def test_the_type_checks_receipt_is_merged_once_in_order(root: Path) -> None:
    stand_in = StandIn(
        ["typecheck: judged under the config before and after", "parse: 1 file(s)"],
        ["typecheck: pkg/x.py outside include", "typecheck: pkg/x.py outside include"],
    )
    body = change_file(root, "pkg/core.py", CORE + "\n\nX = 1\n")
    reply = await run(root, body, typecheck=stand_in)
    assert reply.ok, reply.diagnostics
    assert reply.verified[-2:] == [
        "typecheck: 1 file(s) compared",
        "typecheck: judged under the config before and after",
    ]
    assert reply.verified.count("parse: 1 file(s)") == 1
    assert reply.not_verified == ["typecheck: pkg/x.py outside include"]


async def test_without_a_config_change_nothing_is_labelled(root: Path) -> None:
    reply = await run(root, change_file(root, "pkg/core.py", "import os\n\n\n" + CORE))
    assert reply.failed_rung == "lint"
    assert [d.message for d in reply.diagnostics] == ["`os` imported but unused"]
    assert detail(reply, "lint") == ""


async def test_the_files_are_formatted_under_the_new_config(root: Path) -> None:
    """What gets written lives under the new configuration: CI's format check after the patch
    must pass. The receipt notes that the old configuration would format it differently."""
    call = "result = total([" + ", ".join(str(n) for n in range(20)) + "])\n"  # 78 columns
    stand_in = StandIn([], [])
    reply = await run(
        root,
        change_file(root, "pyproject.toml", PYPROJECT.replace("100", "60")),
        change_file(root, "pkg/core.py", CORE + "\n\n" + call),
        typecheck=stand_in,
    )
    assert reply.ok, reply.diagnostics
    written = next(f.content for f in reply.files if f.path == "pkg/core.py") or ""
    assert max(len(line) for line in written.splitlines()) <= 60
    assert stand_in.seen[0].edits[1].new_text == written  # the type check saw the same text
    assert any("1 formatted differently before the patch's config change" in v
               for v in reply.verified)  # fmt: skip


async def test_a_configuration_ruff_rejects_is_red_and_says_so(root: Path) -> None:
    reply = await run(
        root,
        new_file("ruff.toml", "line-lenght = 5\n"),
        change_file(root, "pkg/core.py", CORE + "\n\nX = 1\n"),
    )
    assert reply.failed_rung == "format"
    [finding] = reply.diagnostics
    assert "line-lenght" in finding.message
    assert finding.message.endswith("[ruff config: under the patch's new config]")
    assert "prewrite-view-" not in finding.message


async def test_a_rejected_configuration_is_red_at_lint_when_format_is_off(root: Path) -> None:
    (root / "pyproject.toml").write_text(PYPROJECT.replace("format = true", "format = false"))
    reply = await run(
        root,
        new_file("ruff.toml", "line-lenght = 5\n"),
        change_file(root, "pkg/core.py", CORE + "\n\nX = 1\n"),
    )
    assert reply.failed_rung == "lint"
    [finding] = reply.diagnostics
    assert finding.rule == "config"
    assert "ruff rejects the configuration after the patch" in finding.message


async def test_a_config_change_alone_is_green_with_its_receipt(root: Path) -> None:
    reply = await run(root, new_file("pkg/ruff.toml", 'line-length = 20\n[lint]\nselect = ["E"]\n'))
    assert reply.ok, reply.diagnostics
    assert "judged before the patch's config change and under the patch's new config" in detail(
        reply, "lint"
    )
    assert "ruff configuration changed by the patch: judged under both" in reply.verified
    assert (
        "lint: files the patch does not touch were not re-linted under its new ruff "
        "configuration (pkg/ruff.toml)"
    ) in reply.not_verified


async def test_findings_before_the_patch_are_not_held_against_it_under_either(
    root: Path,
) -> None:
    """The patch's own code is judged; code it does not change keeps its old findings."""
    (root / "pkg" / "core.py").write_text("import os\n\n\n" + CORE)
    stricter = PYPROJECT.replace('["E", "F"]', '["E", "F", "W"]')
    body = change_file(root, "pkg/core.py", "import os\n\n\n" + CORE + "\n\nX = 1\n")
    reply = await run(root, change_file(root, "pyproject.toml", stricter), body)
    assert reply.ok, reply.diagnostics


async def test_relaxing_per_file_ignores_to_hide_a_finding_is_caught(root: Path) -> None:
    relaxed = PYPROJECT + '\n[tool.ruff.lint.per-file-ignores]\n"pkg/*" = ["F401"]\n'
    body = change_file(root, "pkg/core.py", "import os\n\n\n" + CORE)
    reply = await run(root, change_file(root, "pyproject.toml", relaxed), body)
    assert reply.failed_rung == "lint"
    [finding] = reply.diagnostics
    assert finding.message == (
        "`os` imported but unused [ruff config: before the patch's config change]"
    )
    assert "1 finding(s) only before the patch's config change" in detail(reply, "lint")
    (root / "pyproject.toml").write_text(PYPROJECT + "allow_relaxation = true\n")
    relaxed_on_disk = relaxed.replace("format = true", "format = true\nallow_relaxation = true")
    reply = await run(root, change_file(root, "pyproject.toml", relaxed_on_disk), body)
    assert reply.ok, reply.diagnostics
    assert detail(reply, "lint").endswith("judged under the patch's new config")


async def test_relaxing_an_extended_base_config_is_caught(root: Path) -> None:
    (root / "ruff.toml").write_text('extend = "configs/base.toml"\n')
    (root / "configs").mkdir()
    (root / "configs" / "base.toml").write_text('[lint]\nselect = ["F"]\n')
    relaxed = '[lint]\nselect = ["F"]\nignore = ["F401"]\n'
    body = change_file(root, "pkg/core.py", "import os\n\n\n" + CORE)
    reply = await run(root, change_file(root, "configs/base.toml", relaxed), body)
    assert reply.failed_rung == "lint"
    assert "configs/base.toml" in detail(reply, "lint")
    assert reply.diagnostics[0].message.endswith("[ruff config: before the patch's config change]")
