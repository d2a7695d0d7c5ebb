"""The replica's report: one line per case, the totals, and each disagreement's diagnostics."""

from __future__ import annotations

from typing import Any


def _verdict(side: dict[str, Any]) -> str:
    return str(side.get("verdict", "error"))


def _kind(row: dict[str, Any], side: str) -> str:
    """Prewrite's ``side`` against cold: agree, wrong green, wrong red or error."""
    cold, ours = _verdict(row.get("cold", {})), _verdict(row.get(side, {}))
    if "error" in (cold, ours):
        return "error"
    if cold == ours:
        return "agree"
    return "wrong green" if ours == "green" else "wrong red"


def report(rows: list[dict[str, Any]], started: str, load: float) -> str:
    lines = [f"started {started}, load {load:.1f}", "",
             "| project | case | checkers | cold (introduced) | untrusted | trusted | agree? |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    totals = {side: {"agree": 0, "wrong green": 0, "wrong red": 0, "error": 0}
              for side in ("untrusted", "trusted")}  # fmt: skip
    details: list[str] = []
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['project']} | {row['case']} | | error | | | error |")
            details.append(f"- {row['project']} {row['case']}: {row['error']}")
            for side in totals:
                totals[side]["error"] += 1
            continue
        kinds = {side: _kind(row, side) for side in totals}
        for side, kind in kinds.items():
            totals[side][kind] += 1
        cold = row["cold"]
        n = len(cold.get("introduced", []))
        agree = "yes" if set(kinds.values()) == {"agree"} else (
            f"u: {kinds['untrusted']}, t: {kinds['trusted']}")  # fmt: skip
        lines.append(f"| {row['project']} | {row['case']} | {', '.join(row['checkers'])} "
                     f"| {_verdict(cold)} ({n}) | {_verdict(row['untrusted'])} "
                     f"| {_verdict(row['trusted'])} | {agree} |")  # fmt: skip
        if agree != "yes":
            details.append(_detail(row))
    lines.append("")
    for side, t in totals.items():
        lines.append(f"{side}: {sum(t.values())} cases, {t['agree']} agree, {t['wrong green']} "
                     f"wrong greens, {t['wrong red']} wrong reds, {t['error']} errors")  # fmt: skip
    return "\n".join([*lines, "", *details])


def _detail(row: dict[str, Any]) -> str:
    out = [f"### {row['project']}: {row['case']}", f"cold ({row['oracle_mypy']}):"]
    cold = row["cold"]
    out += [f"    {d}" for d in cold.get("introduced", [])] or ["    (nothing)"]
    if "error" in cold:
        out.append(f"    error: {cold['error']}")
    for side in ("untrusted", "trusted"):
        s = row[side]
        out.append(f"{side}: {s.get('verdict')} {s.get('verified', '')}")
        out += [f"    {d}" for d in s.get("diagnostics", [])]
        if "error" in s:
            out.append(f"    error: {s['error']}")
    return "\n".join(out)
