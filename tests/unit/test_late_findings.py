"""A late finding, shown: the CLI (human and ``--json``), the MCP answer, ``stats`` and the
verdict record all carry the earlier patch's files and what its green missed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec
import pytest
from mcp.types import TextContent

from prewrite.cli_output import print_check, print_stats
from prewrite.protocol import CheckReply, Diagnostic, LateFinding, StatsReply
from prewrite_daemon.agents.answers import check_result
from prewrite_daemon.ladder.record import MISSES_SHOWN, VerdictRecord

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.timeout(30)

MISSED = Diagnostic(
    "app/main.py", 3, 14, 3, 21, "error", "reportArgumentType",
    'Argument of type "Literal[1]" cannot be assigned to parameter "a" of type "str"', "pyright",
)  # fmt: skip
LATE = LateFinding("/ws", ["app/core.py"], [MISSED], "2026-12-02T06:00:00", "2026-12-02T06:00:09")
REPLY = CheckReply(True, [], ["app/other.py"], {}, late_findings=[LATE])


def test_the_cli_prints_the_late_finding_apart_from_the_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_check(REPLY, 12.0)
    out = capsys.readouterr().out.splitlines()
    late = next(i for i, line in enumerate(out) if "LATE FINDING" in line)
    assert out[late].startswith("prewrite: LATE FINDING: the check of app/core.py at 2026-12-02T")
    assert out[late + 1] == f"  app/main.py:3:14: error: {MISSED.message} [reportArgumentType]"
    assert out[-1].startswith("prewrite: ok: 0 new error(s)")


def test_json_carries_it() -> None:
    wire = msgspec.json.decode(msgspec.json.encode(REPLY))
    assert wire["late_findings"][0]["files"] == ["app/core.py"]
    assert wire["late_findings"][0]["diagnostics"][0]["path"] == "app/main.py"
    assert msgspec.json.decode(msgspec.json.encode(REPLY), type=CheckReply) == REPLY


def test_the_mcp_answer_carries_it_in_text_and_structure() -> None:
    result = check_result(REPLY, {})
    (block,) = result.content
    assert isinstance(block, TextContent)
    text = block.text
    assert "LATE FINDING: the check of app/core.py" in text
    assert "app/main.py:3:14: error:" in text
    assert result.structured_content is not None
    assert result.structured_content["late_findings"][0]["root"] == "/ws"


def test_stats_lists_the_misses(capsys: pytest.CaptureFixture[str]) -> None:
    print_stats(StatsReply(1, [], {"ok": 1}, narrowing_misses=[LATE]), None)
    out = capsys.readouterr().out
    assert "narrowing misses: 1" in out
    assert "the green of app/core.py (2026-12-02T06:00:00) missed 1" in out
    assert "app/main.py:3:14: error:" in out


def test_the_record_keeps_the_latest_misses(tmp_path: Path) -> None:
    record = VerdictRecord(tmp_path / "verdicts.sqlite3")
    try:
        for n in range(MISSES_SHOWN + 2):
            record.add_miss(msgspec.structs.replace(LATE, files=[f"app/m{n}.py"]))
        other = msgspec.structs.replace(LATE, root="/other")
        record.add_miss(other)
        mine = record.stats("/ws").narrowing_misses
        assert len(mine) == MISSES_SHOWN
        assert mine[-1].files == [f"app/m{MISSES_SHOWN + 1}.py"]  # latest last
        assert mine[0].diagnostics == [MISSED]
        assert record.stats("/other").narrowing_misses == [other]
    finally:
        record.close()
