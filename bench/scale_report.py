"""The scale bench's Markdown: a summary row, one row per patch kind, the issue's goals evaluated
on the numbers (reported, never asserted), where the time went, and every disagreement."""

from __future__ import annotations

from typing import Any

from bench.report_values import mb

GOAL_WARM_MS = 1000.0  # warm body edit p50
GOAL_INTERFACE_MS = 5000.0  # interface change of a widely used function
SHOWN = 5  # disagreeing diagnostics shown per side (all are in the JSON)


def _ms(value: Any) -> str:
    if not isinstance(value, int | float):
        return "n/a"
    return f"{value / 1000:.1f} s" if value >= 10_000 else f"{value:.0f} ms"


def checker(results: dict[str, Any]) -> str:
    """What judged the run (results before the TypeScript shape name pyright only)."""
    return str(results.get("checker") or results.get("pyright") or "?")


def _size(results: dict[str, Any]) -> str:
    lines = results.get("lines")
    return f"{results.get('files', 'n/a')}" + (f" ({lines:,})" if lines else "")


def _by_kind(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["kind"]: p for p in results["patches"]}


def _p50(patch: dict[str, Any] | None) -> str:
    """The p50 of the answered runs, or the first unanswered run's error."""
    if patch is None:
        return "not run"
    failed = [r["error"].split(" (")[0] for r in patch["runs"] if "error" in r]
    if patch["p50_ms"] is None:
        return failed[0] if failed else "n/a"
    answered = sum(1 for r in patch["runs"] if "error" not in r)
    extra = f" ({answered} answered; then {failed[0]})" if failed else ""
    return _ms(patch["p50_ms"]) + extra


def _summary(results: dict[str, Any]) -> list[str]:
    kinds = _by_kind(results)
    first = kinds.get("first_check", {}).get("p50_ms")
    cold = results.get("cold_ms")
    ratio = f"{first / cold:.2f}x" if first and cold and not results.get("cold_error") else "n/a"
    rss, early = results.get("rss_mb", {}), results.get("rss_after_first_mb", {})
    return [
        "| workload | files (lines) | cold CLI | daemon start | first check | first / cold "
        "| leaf body p50 | hub body p50 | interface p50 | interface (red) "
        "| RSS daemon (after first check → end) | RSS checker (after first check → end) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {results['workload']} | {_size(results)} "
        f"| {results.get('cold_error') or _ms(cold)} | {_ms(results.get('daemon_start_ms'))} "
        f"| {_p50(kinds.get('first_check'))} | {ratio} | {_p50(kinds.get('leaf_body'))} "
        f"| {_p50(kinds.get('hub_body'))} | {_p50(kinds.get('interface'))} "
        f"| {_p50(kinds.get('interface_red'))} "
        f"| {mb(early.get('daemon'))} → {mb(rss.get('daemon'))} "
        f"| {mb(early.get('checker'))} → {mb(rss.get('checker'))} |",
    ]


def _verdicts(patch: dict[str, Any]) -> str:
    seen = {"ok" if r["ok"] else f"failed:{r['failed_rung']}" for r in patch["runs"] if "ok" in r}
    return ", ".join(sorted(seen)) or "none"


def _agreement(patch: dict[str, Any]) -> str:
    judged = [r["agrees"] for r in patch["runs"] if r.get("agrees") is not None]
    if not judged:
        return patch.get("cold_error") or "nothing to compare"
    agree = sum(1 for a in judged if a)
    return f"{agree}/{len(judged)} agree" + ("" if agree == len(judged) else " **DISAGREE**")


def _patch_rows(results: dict[str, Any]) -> list[str]:
    rows = [
        "| patch | file | deadline | p50 | max | verdict | files checked | new (daemon) "
        "| cold CLI on patched tree | new (cold) | daemon vs cold |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in results["patches"]:
        answered = [r for r in p["runs"] if "error" not in r]
        new = sorted({len(r["new"]) for r in answered})
        oracle = p.get("oracle_new")
        rows.append(
            f"| {p['kind']}: {p['what']} | `{p['path']}` | {p['timeout_s']:.0f} s | {_p50(p)} "
            f"| {_ms(max((r['ms'] for r in answered), default=None))} | {_verdicts(p)} "
            f"| {', '.join(sorted({str(r['checked_files']) for r in answered})) or 'n/a'} "
            f"| {', '.join(map(str, new)) or 'n/a'} "
            f"| {p.get('cold_error') or _ms(p.get('cold_ms'))} "
            f"| {'n/a' if oracle is None else len(oracle)} | {_agreement(p)} |"
        )
    return rows


def _goals(results: dict[str, Any]) -> list[str]:
    kinds = _by_kind(results)

    def at_most(kind: str, bound: float | None) -> str:
        p50 = kinds.get(kind, {}).get("p50_ms")
        if p50 is None or bound is None:
            return "**not met** (no answer)" if kind in kinds else "not measured"
        return f"{'met' if p50 <= bound else '**not met**'} ({_ms(p50)} vs {_ms(bound)})"

    cold = None if results.get("cold_error") else results.get("cold_ms")
    judged = [r.get("agrees") for p in results["patches"] for r in p["runs"]]
    agree = sum(1 for a in judged if a)
    unjudged = sum(1 for a in judged if a is None)
    return [
        f"- first check ≤ the cold CLI: {at_most('first_check', cold)}",
        f"- warm body edit p50 ≤ 1 s, leaf: {at_most('leaf_body', GOAL_WARM_MS)}; "
        f"hub: {at_most('hub_body', GOAL_WARM_MS)}",
        f"- interface change ≤ 5 s: {at_most('interface', GOAL_INTERFACE_MS)}; "
        f"red: {at_most('interface_red', GOAL_INTERFACE_MS)}",
        f"- verdicts agreeing with the cold checker: {agree} of {len(judged)} checks"
        + (f" ({unjudged} not compared: no answer or no oracle)" if unjudged else ""),
    ]


def _where(results: dict[str, Any]) -> list[str]:
    """Per kind: the slowest answered run's largest timings, and every unanswered run."""
    lines: list[str] = []
    for p in results["patches"]:
        answered = [r for r in p["runs"] if "error" not in r]
        if answered:
            slow = max(answered, key=lambda r: r["ms"])
            top = sorted(slow["timings_ms"].items(), key=lambda kv: -kv[1])[:5]
            shown = ", ".join(f"{k} {_ms(v)}" for k, v in top)
            lines.append(f"- {p['kind']} (slowest run, {_ms(slow['ms'])}): {shown}")
        for r in p["runs"]:
            if "error" in r:
                lines.append(f"- {p['kind']} run {r['run']}: {r['error']}; at the deadline the "
                             f"workspace was: {r['activity']}")  # fmt: skip
    return lines


def _disagreements(results: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for p in results["patches"]:
        for r in p["runs"]:
            if r.get("agrees") is False:
                diff = r["disagreement"]
                lines.append(f"- {p['kind']} run {r['run']} (daemon ok={r['ok']}):")
                for side in ("only_daemon", "only_oracle"):
                    found = diff[side]
                    lines += [f"  - {side}: {d}" for d in found[:SHOWN]]
                    if len(found) > SHOWN:
                        lines.append(f"  - {side}: … {len(found) - SHOWN} more (scale.json)")
    return lines or ["- none"]


def render(results: dict[str, Any]) -> str:
    head = (
        f"Scale bench, {results['date']}, {results['machine']}, {checker(results)}; load "
        f"average {results['load_start']} at start, {results.get('load_end', '?')} at the end; "
        f"{results.get('runtime_s', '?')} s in all."
    )
    parts = [
        head, "", *_summary(results), "", *_patch_rows(results), "",
        "Goals (issue 24):", *_goals(results), "",
        "Where the time went (the reply's `timings_ms`):", *_where(results), "",
        "Disagreements with the cold checker:", *_disagreements(results),
    ]  # fmt: skip
    return "\n".join(parts) + "\n"
