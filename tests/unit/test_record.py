"""The verdict record: scripted verdicts in, per-rung runs / catches / medians out."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import FindMismatch
from prewrite.protocol import CheckReply, Outcome, RungReport, RungStats
from prewrite_daemon.ladder.record import VerdictRecord, record_verdict

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

RUNGS = ("policy", "anchor", "parse", "format", "lint", "typecheck")


def _reports(*rows: tuple[Outcome, float]) -> list[RungReport]:
    return [RungReport(rung, outcome, ms) for rung, (outcome, ms) in zip(RUNGS, rows, strict=True)]


OK = _reports(("pass", 1), ("pass", 2), ("pass", 3), ("pass", 10), ("pass", 20), ("pass", 100))
LINT_FAIL = _reports(
    ("pass", 1), ("pass", 2), ("pass", 1), ("pass", 30), ("fail", 40), ("skipped", 0)
)
TYPE_FAIL = _reports(("pass", 3), ("pass", 4), ("pass", 5), ("off", 0), ("pass", 60), ("fail", 300))
MISMATCH = _reports(
    ("pass", 1), ("fail", 2), ("skipped", 0), ("skipped", 0), ("skipped", 0), ("skipped", 0)
)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "nested" / "verdicts.sqlite3"


@pytest.fixture
def record(db_path: Path) -> Iterator[VerdictRecord]:
    rec = VerdictRecord(db_path)
    try:
        rec.add("/ws/a", "ok", None, 136.0, ["m.py"], OK)
        rec.add("/ws/a", "failed:lint", "lint", 74.0, ["m.py", "n.py"], LINT_FAIL)
        rec.add("/ws/b", "failed:typecheck", "typecheck", 372.0, ["x.py"], TYPE_FAIL)
        rec.add("/ws/a", "find_mismatch", "anchor", 3.0, ["m.py"], MISMATCH)
        yield rec
    finally:
        rec.close()


def test_stats_over_all_workspaces(record: VerdictRecord) -> None:
    stats = record.stats(None)
    assert stats.verdicts == 4
    assert stats.outcomes == {
        "ok": 1,
        "failed:lint": 1,
        "failed:typecheck": 1,
        "find_mismatch": 1,
    }
    assert stats.rungs == [
        RungStats("policy", runs=4, caught=0, median_ms=1.0),
        RungStats("anchor", runs=4, caught=1, median_ms=2.0),
        RungStats("parse", runs=3, caught=0, median_ms=3.0),
        RungStats("format", runs=2, caught=0, median_ms=20.0),
        RungStats("lint", runs=3, caught=1, median_ms=40.0),
        RungStats("typecheck", runs=2, caught=1, median_ms=200.0),
    ]


def test_stats_filtered_by_workspace(record: VerdictRecord) -> None:
    a = record.stats("/ws/a")
    assert a.verdicts == 3
    assert a.outcomes == {"ok": 1, "failed:lint": 1, "find_mismatch": 1}
    by_rung = {r.rung: r for r in a.rungs}
    assert by_rung["typecheck"] == RungStats("typecheck", runs=1, caught=0, median_ms=100.0)
    assert by_rung["lint"] == RungStats("lint", runs=2, caught=1, median_ms=30.0)
    assert by_rung["parse"] == RungStats("parse", runs=2, caught=0, median_ms=2.0)

    b = record.stats("/ws/b")
    assert b.verdicts == 1
    assert [r.rung for r in b.rungs] == ["policy", "anchor", "parse", "lint", "typecheck"]
    assert record.stats("/ws/none").verdicts == 0


def test_empty_record(db_path: Path) -> None:
    rec = VerdictRecord(db_path)
    try:
        stats = rec.stats(None)
    finally:
        rec.close()
    assert (stats.verdicts, stats.rungs, stats.outcomes) == (0, [], {})


def test_record_survives_a_reopen(record: VerdictRecord, db_path: Path) -> None:
    again = VerdictRecord(db_path)
    try:
        assert again.stats(None).verdicts == 4
    finally:
        again.close()


def test_record_verdict_names_the_outcome_and_the_failed_rung(
    tmp_path: Path, db_path: Path
) -> None:
    rec = VerdictRecord(db_path)
    try:
        reply = CheckReply(
            ok=False, diagnostics=[], checked_files=[], timings_ms={}, failed_rung="lint"
        )
        record_verdict(rec, tmp_path, reply, None, LINT_FAIL, ["m.py"], 74.0)
        refusal = FindMismatch("m.py: edit 1: 'find' matches nothing in the file")
        record_verdict(rec, tmp_path, None, refusal, MISMATCH, ["m.py"], 3.0)
        ok = CheckReply(ok=True, diagnostics=[], checked_files=["m.py"], timings_ms={})
        record_verdict(rec, tmp_path, ok, None, OK, ["m.py"], 136.0)
        assert rec.stats(str(tmp_path)).outcomes == {
            "failed:lint": 1,
            "find_mismatch": 1,
            "ok": 1,
        }
    finally:
        rec.close()
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute("SELECT outcome, failed_rung, files FROM verdicts ORDER BY id").fetchall()
    finally:
        db.close()
    assert rows == [
        ("failed:lint", "lint", '["m.py"]'),
        ("find_mismatch", "anchor", '["m.py"]'),
        ("ok", None, '["m.py"]'),
    ]
