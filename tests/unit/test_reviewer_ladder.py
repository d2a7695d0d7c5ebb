"""The review rung in the ladder, in-process (real ruff, a stand-in type check), its
configuration, and what the record keeps of it."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.errors import BadRequest
from prewrite.protocol import CheckReply, CheckRequest, Diagnostic, RungReport
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.config_values import ReviewerCommand
from prewrite_daemon.ladder.record import VerdictRecord, record_verdict
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch

CORE = "def total(xs: list[int]) -> int:\n    return sum(xs)\n"
REFUTE = {"verdict": "refute", "ground": "intent_mismatch", "evidence": "pkg/core.py:2 returns 0"}
# Answers per the patch's text: refutes a patch that makes total return 0, approves others.
SCRIPT = f"""\
import json, pathlib, sys
data = sys.stdin.read()
pathlib.Path(__file__).with_name("asked.txt").write_text(data)
print(json.dumps({REFUTE!r} if "+    return 0" in data else {{"verdict": "approve"}}))
"""


def workspace(tmp_path: Path, reviewer: str | None) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text(CORE)
    (root / "review.py").write_text(SCRIPT)
    table = f"[tool.prewrite]\nreviewer = {reviewer}\n" if reviewer else ""
    (root / "pyproject.toml").write_text(table)
    return root


REVIEWER = f'{{command = ["{sys.executable}", "review.py"], timeout = 20}}'


class TypeCheck:
    """The type check's stand-in: ok, or one error."""

    def __init__(self, ok: bool = True) -> None:
        self.ok = ok

    async def __call__(self, patch: PreparedPatch, timeout_s: float) -> CheckReply:
        error = Diagnostic("pkg/core.py", 1, 1, 1, 2, "error", "reportX", "bad", "pyright")
        return CheckReply(self.ok, [] if self.ok else [error], ["pkg/core.py"], {})


async def run(
    root: Path, body: str, *, trusted: bool = True, ok: bool = True, rungs: list[str] | None = None
) -> CheckReply:
    ladder = Ladder(
        root, load_config(root), Ruff(root, sys.executable), TypeCheck(ok), (),
        trusted=lambda _root: trusted,
    )  # fmt: skip
    request = CheckRequest(
        str(root), [change_file(root, "pkg/core.py", body)], timeout_s=60, rungs=rungs,
        intent="total sums its input",
    )  # fmt: skip
    return await ladder.run(request)


def review(reply: CheckReply) -> RungReport:
    return next(r for r in reply.rungs if r.rung == "review")


def gaps(reply: CheckReply) -> list[str]:
    """The receipt's not_verified lines about the review rung."""
    return [line for line in reply.not_verified if line.startswith("review")]


async def test_a_refutation_ends_the_check_at_review(tmp_path: Path) -> None:
    root = workspace(tmp_path, REVIEWER)
    reply = await run(root, CORE.replace("sum(xs)", "0"))
    assert not reply.ok
    assert reply.failed_rung == "review"
    assert json.loads(review(reply).detail) == REFUTE
    [found] = reply.diagnostics
    assert (found.path, found.line, found.rule) == ("pkg/core.py", 2, "intent_mismatch")
    asked = (root / "asked.txt").read_text()
    assert "total sums its input" in asked
    assert "+    return 0\n" in asked


async def test_an_approval_passes_with_a_receipt_line(tmp_path: Path) -> None:
    root = workspace(tmp_path, REVIEWER)
    reply = await run(root, CORE + "\n\nX = 1\n")
    assert reply.ok
    assert review(reply).outcome == "pass"
    assert f"review: approved by {sys.executable} review.py" in reply.verified


async def test_an_untrusted_workspace_never_runs_its_reviewer(tmp_path: Path) -> None:
    root = workspace(tmp_path, REVIEWER)
    reply = await run(root, CORE.replace("sum(xs)", "0"), trusted=False)
    assert reply.ok
    assert review(reply).outcome == "skipped"
    [gap] = gaps(reply)
    assert gap.startswith("review: not run: the workspace is not trusted")
    assert not (root / "asked.txt").exists()


async def test_a_failed_open_reviewer_is_in_the_receipt(tmp_path: Path) -> None:
    root = workspace(tmp_path, '{command = ["/no/such/reviewer"]}')
    reply = await run(root, CORE.replace("sum(xs)", "0"))
    assert reply.ok
    assert review(reply).outcome == "skipped"
    [gap] = gaps(reply)
    assert gap.startswith("review: reviewer failed open: cannot run /no/such/reviewer")


async def test_a_type_error_ends_the_check_before_the_reviewer(tmp_path: Path) -> None:
    root = workspace(tmp_path, REVIEWER)
    reply = await run(root, CORE.replace("sum(xs)", "0"), ok=False)
    assert reply.failed_rung == "typecheck"
    assert review(reply).outcome == "skipped"
    assert not (root / "asked.txt").exists()


async def test_rungs_can_leave_the_reviewer_out(tmp_path: Path) -> None:
    root = workspace(tmp_path, REVIEWER)
    reply = await run(root, CORE.replace("sum(xs)", "0"), rungs=["parse", "typecheck"])
    assert reply.ok
    assert (review(reply).outcome, review(reply).detail) == ("skipped", "not requested")


async def test_without_a_reviewer_the_rung_is_off_and_not_a_receipt_gap(tmp_path: Path) -> None:
    root = workspace(tmp_path, None)
    reply = await run(root, CORE.replace("sum(xs)", "0"), rungs=["parse", "typecheck"])
    assert reply.ok
    assert review(reply).outcome == "off"
    assert not gaps(reply)


def test_the_reviewer_table_is_validated(tmp_path: Path) -> None:
    root = workspace(tmp_path, '{command = ["python", "r.py"]}')
    assert load_config(root).reviewer == ReviewerCommand(("python", "r.py"), 30.0)
    assert load_config(workspace(tmp_path / "b", None)).reviewer is None
    bad = ("{command = []}", '{command = "r.py"}', '{command = ["r"], timeout = 0}',
           '{command = ["r"], model = "x"}', '"r.py"')  # fmt: skip
    for n, table in enumerate(bad):
        with pytest.raises(BadRequest, match="reviewer"):
            load_config(workspace(tmp_path / str(n), table))


def test_the_record_keeps_the_full_verdict_and_counts_failing_open(tmp_path: Path) -> None:
    record = VerdictRecord(tmp_path / "verdicts.sqlite3")
    try:
        refuted = RungReport("review", "fail", 900.0, json.dumps(REFUTE))
        opened = RungReport("review", "skipped", 30.0, "reviewer failed open: exited with code 1")
        untrusted = RungReport("review", "skipped", 0.0, "not run: the workspace is not trusted")
        for report in (refuted, opened, untrusted, RungReport("review", "pass", 800.0)):
            failed = "review" if report.outcome == "fail" else None
            reply = CheckReply(failed is None, [], [], {}, rungs=[report], failed_rung=failed)
            record_verdict(record, tmp_path, reply, None, [report], ["pkg/core.py"], 1000.0)
        assert [json.loads(a) if o == "fail" else a for o, a in record.reviews()] == [
            REFUTE, "reviewer failed open: exited with code 1", ""
        ]  # fmt: skip
        [stats] = record.stats(str(tmp_path)).rungs
        assert (stats.rung, stats.runs, stats.caught, stats.failed_open) == ("review", 2, 1, 1)
        assert record.stats(None).outcomes == {"failed:review": 1, "ok": 3}
    finally:
        record.close()
