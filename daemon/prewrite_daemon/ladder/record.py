"""The local record of verdicts (SQLite in the daemon's state dir): the data for tuning a ladder.

One row per verdict (time, workspace, outcome, failed rung, total time, files) and one per rung
run (rung, outcome, time). ``stats`` answers, per rung, how often it ran, how often it caught a
failure, and its median cost. The review rung's answers are kept whole (``reviews``: the
reviewer's verdict as JSON, or why it failed open) — the autopsy of a refuted patch — and
``stats`` counts the times it failed open. A narrowing miss (a green the idle re-check found
wrong, ``recheck/pending.py``) is kept whole too — the patch's files and what was missed — and
``stats`` lists the latest ones: each is a bug in the planner to fix. Each suppression comment a
patch adds is kept (its kind, whether it hid what the patch introduced, whether it was refused), and
``stats`` counts them per kind; the step that runs rungs again without them
(``suppression_rung``) is a row of its own, after the type check: its runs and median cost.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import statistics
import time
from typing import TYPE_CHECKING

import msgspec

from prewrite.protocol import Diagnostic, LateFinding, RungStats, StatsReply, SuppressionStats
from prewrite_daemon.ladder.config import RUNGS
from prewrite_daemon.ladder.review import FAILED_OPEN
from prewrite_daemon.ladder.suppression_mode import SUPPRESSIONS

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.errors import PrewriteError
    from prewrite.protocol import CheckReply, RungReport, Suppression

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    workspace TEXT NOT NULL,
    outcome TEXT NOT NULL,
    failed_rung TEXT,
    total_ms REAL NOT NULL,
    files TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rung_runs (
    verdict INTEGER NOT NULL REFERENCES verdicts(id),
    rung TEXT NOT NULL,
    outcome TEXT NOT NULL,
    ms REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS verdicts_workspace ON verdicts(workspace);
CREATE TABLE IF NOT EXISTS reviews (
    verdict INTEGER NOT NULL REFERENCES verdicts(id),
    outcome TEXT NOT NULL,
    answer TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS narrowing_misses (
    id INTEGER PRIMARY KEY,
    workspace TEXT NOT NULL,
    language TEXT NOT NULL,
    checked_at TEXT NOT NULL,
    found_at TEXT NOT NULL,
    files TEXT NOT NULL,
    diagnostics TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS suppressions (
    verdict INTEGER NOT NULL REFERENCES verdicts(id),
    kind TEXT NOT NULL,
    hiding INTEGER NOT NULL,
    refused INTEGER NOT NULL
);
"""
# The stats' row order: the ladder's, the suppression step right after the type check.
_TYPED = RUNGS.index("typecheck") + 1
_ORDER = (*RUNGS[:_TYPED], SUPPRESSIONS, *RUNGS[_TYPED:])
MISSES_SHOWN = 20  # the latest narrowing misses ``stats`` lists


class VerdictRecord:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)
        # Statistics, not a ledger: a power cut may lose the last rows, but no verdict waits
        # for an fsync (the default journal cost ~9 ms per check, more than a warm check).
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def add(
        self,
        workspace: str,
        outcome: str,
        failed_rung: str | None,
        total_ms: float,
        files: list[str],
        rungs: list[RungReport],
        suppressions: Sequence[Suppression] = (),
    ) -> None:
        """Append one verdict; ``outcome`` is "ok", "failed:<rung>" or an error code;
        ``suppressions``: the ones the patch adds (refused when it failed at that step)."""
        with self._db:
            cur = self._db.execute(
                "INSERT INTO verdicts (at, workspace, outcome, failed_rung, total_ms, files) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (time.strftime("%Y-%m-%dT%H:%M:%S"), workspace, outcome, failed_rung, total_ms,
                 json.dumps(files)),
            )  # fmt: skip
            self._db.executemany(
                "INSERT INTO rung_runs (verdict, rung, outcome, ms) VALUES (?, ?, ?, ?)",
                [(cur.lastrowid, r.rung, r.outcome, r.ms) for r in rungs],
            )
            self._db.executemany(
                "INSERT INTO reviews (verdict, outcome, answer) VALUES (?, ?, ?)",
                [(cur.lastrowid, r.outcome, r.detail) for r in rungs if _reviewed(r)],
            )
            refused = int(failed_rung == SUPPRESSIONS)
            self._db.executemany(
                "INSERT INTO suppressions (verdict, kind, hiding, refused) VALUES (?, ?, ?, ?)",
                [(cur.lastrowid, s.kind, int(bool(s.hidden)), refused) for s in suppressions],
            )

    def add_miss(self, miss: LateFinding) -> None:
        """Keep a narrowing miss: the patch's files and what its narrowed green missed."""
        with self._db:
            self._db.execute(
                "INSERT INTO narrowing_misses (workspace, language, checked_at, found_at, files, "
                "diagnostics) VALUES (?, ?, ?, ?, ?, ?)",
                (miss.root, miss.language, miss.checked_at, miss.found_at, json.dumps(miss.files),
                 msgspec.json.encode(miss.diagnostics).decode()),
            )  # fmt: skip

    def misses(self, workspace: str | None = None) -> list[LateFinding]:
        """The latest ``MISSES_SHOWN`` narrowing misses, oldest first."""
        where, args = ("WHERE workspace = ?", (workspace,)) if workspace else ("", ())
        rows = self._db.execute(
            "SELECT workspace, language, checked_at, found_at, files, diagnostics FROM "
            f"narrowing_misses {where} ORDER BY id DESC LIMIT {MISSES_SHOWN}",
            args,
        ).fetchall()
        return [
            LateFinding(root, json.loads(files), _diagnostics(diags), checked, found, language)
            for root, language, checked, found, files, diags in reversed(rows)
        ]

    def reviews(self, workspace: str | None = None) -> list[tuple[str, str]]:
        """Every reviewer answer kept, oldest first: (rung outcome, verdict JSON or reason)."""
        where, args = ("WHERE v.workspace = ?", (workspace,)) if workspace else ("", ())
        return self._db.execute(
            f"SELECT r.outcome, r.answer FROM reviews r JOIN verdicts v ON r.verdict = v.id "
            f"{where} ORDER BY v.id",
            args,
        ).fetchall()

    def stats(self, workspace: str | None) -> StatsReply:
        where, args = ("WHERE v.workspace = ?", (workspace,)) if workspace else ("", ())
        rows = self._db.execute(
            f"SELECT r.rung, r.outcome, r.ms FROM rung_runs r JOIN verdicts v ON r.verdict = v.id "
            f"{where}",
            args,
        ).fetchall()
        outcomes = dict(
            self._db.execute(
                f"SELECT outcome, COUNT(*) FROM verdicts v {where} GROUP BY outcome", args
            ).fetchall()
        )
        per_rung: dict[str, list[tuple[str, float]]] = {}
        for rung, outcome, ms in rows:
            if outcome in ("pass", "fail"):
                per_rung.setdefault(rung, []).append((outcome, ms))
        failed_open = sum(outcome == "skipped" for outcome, _ in self.reviews(workspace))
        if failed_open:
            per_rung.setdefault("review", [])
        order = [*_ORDER]
        stats = [
            RungStats(
                rung=rung,
                runs=len(runs),
                caught=sum(1 for outcome, _ in runs if outcome == "fail"),
                median_ms=round(statistics.median(ms for _, ms in runs), 1) if runs else 0.0,
                failed_open=failed_open if rung == "review" else 0,
            )
            for rung, runs in sorted(
                per_rung.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99
            )
        ]
        return StatsReply(
            verdicts=sum(outcomes.values()), rungs=stats, outcomes=outcomes,
            narrowing_misses=self.misses(workspace), suppressions=self._suppressions(workspace),
        )  # fmt: skip

    def _suppressions(self, workspace: str | None) -> list[SuppressionStats]:
        where, args = ("WHERE v.workspace = ?", (workspace,)) if workspace else ("", ())
        rows = self._db.execute(
            "SELECT s.kind, COUNT(*), SUM(s.hiding), SUM(s.refused) FROM suppressions s JOIN "
            f"verdicts v ON s.verdict = v.id {where} GROUP BY s.kind ORDER BY s.kind",
            args,
        ).fetchall()
        return [SuppressionStats(k, added, hiding, refused) for k, added, hiding, refused in rows]

    def close(self) -> None:
        self._db.close()


def _diagnostics(stored: str) -> list[Diagnostic]:
    return msgspec.json.decode(stored, type=list[Diagnostic])


def _reviewed(report: RungReport) -> bool:
    """A review rung that ran: a verdict, or a reviewer that failed open."""
    return report.rung == "review" and (
        report.outcome in ("pass", "fail") or report.detail.startswith(FAILED_OPEN)
    )


def record_verdict(
    record: VerdictRecord, root: Path, reply: CheckReply | None, error: PrewriteError | None,
    reports: list[RungReport], files: list[str], total_ms: float,
) -> None:  # fmt: skip
    """Append a verdict (or a refusal) to the record and log which rung caught it."""
    if reply is not None:
        outcome = "ok" if reply.ok else f"failed:{reply.failed_rung}"
        failed = reply.failed_rung
    else:
        assert error is not None
        outcome = error.code
        failed = next((r.rung for r in reports if r.outcome == "fail"), None)
    if outcome != "ok":
        log.info("%s: %s caught by %s", root, outcome, failed or "-")
    kept = reply.suppressions if reply is not None else []
    record.add(str(root), outcome, failed, total_ms, files, reports, kept)
