"""The targets of the issue, evaluated on the measurements (reported, never asserted): warm vs
cold, the daemon's overhead over its floor, the cheap rungs, TypeScript and the editor."""

from __future__ import annotations

from typing import Any

from bench.report_values import ms, num, ratio, section

TARGET_WORKLOAD = "httpx"  # "the ~60-file workload" of the targets
TS_TARGET_WORKLOAD = "ts-rxjs"  # the larger TypeScript workload


def _editor_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    e = section(results, "editors")
    overheads = [num(e, "idle", m, "overhead_p50") for m in ("hover", "definition", "completion")]
    found = [o for o in overheads if o is not None]
    if not found:
        return []
    worst = max(found)
    return [_target("editor through prewrite lsp: overhead <= 15 ms (p50, idle; worst of hover, "
                    "definition, completion)", str(e.get("name")), ms(worst),
                    worst <= 15)]  # fmt: skip


def _ts_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for w in results.get("typescript", []):
        if w["name"] != TS_TARGET_WORKLOAD:
            continue
        for e in w["engines"]:
            cold = num(e, "cold", "body_1", "ms")
            warm = num(e, "daemon", "patches", "body_1", "p50")
            met = None if cold is None or not warm else cold / warm >= 20
            out.append(_target(f"TS {e['typescript']} ({e['engine']}): warm 1-file body edit "
                               ">= 20x faster than cold tsc", w["name"], ratio(cold, warm),
                               met))  # fmt: skip
    return out


def _target(name: str, workload: str, measured: str, met: bool | None) -> dict[str, Any]:
    return {"target": name, "workload": workload, "measured": measured, "met": met}


def evaluate_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's targets on what was measured; ``met`` is None where a figure is missing."""
    workloads: list[dict[str, Any]] = results["workloads"]
    out: list[dict[str, Any]] = []
    main = next((w for w in workloads if w["name"] == TARGET_WORKLOAD), None)
    main = main or (workloads[0] if workloads else None)
    if main is not None:
        cold = num(main, "cold", "body_1", "ms")
        warm = num(main, "daemon", "patches", "body_1", "p50")
        fast = None if cold is None or not warm else cold / warm >= 25
        out.append(_target("warm 1-file body edit >= 25x faster than cold", main["name"],
                           ratio(cold, warm), fast))  # fmt: skip
        out.append(_target("warm 1-file body edit p50 <= 200 ms", main["name"], ms(warm),
                           None if warm is None else warm <= 200))  # fmt: skip
    for w in workloads:
        warm = num(w, "daemon", "patches", "body_1", "p50")
        floor = num(w, "floor", "patches", "body_1", "p50")
        over = met = None
        if warm is not None and floor is not None:
            over = warm - floor
            met = over <= 15 or over <= 0.10 * floor
        out.append(_target("daemon overhead over floor <= 10% or <= 15 ms (p50, 1-file body)",
                           w["name"], ms(over), met))  # fmt: skip
        changing = [p["kind"] for p in w["patches"] if p["interface"] == "changing"]
        pairs = [(num(w, "daemon", "patches", k, "p50"), num(w, "cold", k, "ms")) for k in changing]
        faster = [a < b for a, b in pairs if a is not None and b is not None]
        slowest = max((a / b for a, b in pairs if a is not None and b), default=None)
        out.append(_target("interface-changing patches faster than cold", w["name"],
                           "n/a" if slowest is None else f"slowest at {slowest:.0%} of cold",
                           all(faster) if faster else None))  # fmt: skip
        rung5 = num(w, "rungs", "body_5", "total")
        out.append(_target("cheap rungs on the 5-file patch <= 50 ms", w["name"], ms(rung5),
                           None if rung5 is None else rung5 <= 50))  # fmt: skip
    return out + _ts_targets(results) + _editor_targets(results)
