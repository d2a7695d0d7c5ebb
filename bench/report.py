"""The bench's outputs: ``results.json`` (everything measured), ``results.md`` (the tables) and
the targets of the issue, evaluated on the measurements (reported, never asserted)."""

from __future__ import annotations

import json
import statistics
from typing import TYPE_CHECKING, Any, cast

from bench.mypy_bench import MYPY_NOTE, mypy_rows

if TYPE_CHECKING:
    from pathlib import Path

SCHEMA = 1
TARGET_WORKLOAD = "httpx"  # "the ~60-file workload" of the targets
TS_TARGET_WORKLOAD = "ts-rxjs"  # the larger TypeScript workload
RUNG_COLUMNS = ("policy+anchor", "parse", "format", "lint", "total")


def _ms(value: Any) -> str:
    if not isinstance(value, int | float):
        return "n/a"
    return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def _mb(value: Any) -> str:
    return f"{value:.0f} MB" if isinstance(value, int | float) else "n/a"


def _ratio(a: Any, b: Any) -> str:
    if isinstance(a, int | float) and isinstance(b, int | float) and b > 0:
        return f"{a / b:.0f}x" if a / b >= 10 else f"{a / b:.1f}x"
    return "n/a"


def get(data: dict[str, Any], *keys: str) -> Any:
    """``data[k1][k2]...``, or None where a part is missing (a phase failed or was skipped)."""
    node: Any = data
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]  # pyright: ignore[reportUnknownVariableType]
    return node  # pyright: ignore[reportUnknownVariableType]


def num(data: dict[str, Any], *keys: str) -> float | None:
    """A measured number, or None where it is missing."""
    value = get(data, *keys)
    return float(value) if isinstance(value, int | float) else None


def section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def cold_p50(w: dict[str, Any]) -> float | None:
    values = [v for kind in section(w, "cold") if (v := num(w, "cold", kind, "ms")) is not None]
    return statistics.median(values) if values else None


def _summary(results: dict[str, Any]) -> list[str]:
    rows = [
        "| workload | .py files | cold CLI (median) | daemon start | first check | "
        "warm p50, 1-file body | floor p50 | dmypy warm p50 | cold / warm | "
        "restart after config change | RSS daemon | RSS pyright | RSS dmypy | cold CLI peak RSS |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for w in results["workloads"]:
        cold = num(w, "cold", "body_1", "ms")
        warm = num(w, "daemon", "patches", "body_1", "p50")
        peaks = [num(w, "cold", kind, "peak_rss_mb") or 0.0 for kind in section(w, "cold")]
        rows.append(
            f"| {w['label']} | {w['files']} | {_ms(cold_p50(w))} "
            f"| {_ms(get(w, 'daemon', 'start_ms'))} | {_ms(get(w, 'daemon', 'first_check_ms'))} "
            f"| {_ms(warm)} | {_ms(get(w, 'floor', 'patches', 'body_1', 'p50'))} "
            f"| {_ms(get(w, 'dmypy', 'patches', 'body_1', 'p50'))} | {_ratio(cold, warm)} "
            f"| {_ms(get(w, 'daemon', 'restart_after_config_ms'))} "
            f"| {_mb(get(w, 'daemon', 'rss_mb', 'daemon'))} "
            f"| {_mb(get(w, 'daemon', 'rss_mb', 'pyright'))} | {_mb(get(w, 'dmypy', 'rss_mb'))} "
            f"| {_mb(max(peaks) if peaks else None)} |"
        )
    return rows


def _per_patch(results: dict[str, Any]) -> list[str]:
    rows = [
        "| workload | patch | files | interface | re-checked: module-level → name-level "
        "| verdict (daemon) | cold CLI | warm p50 "
        "| warm p95 | floor p50 | daemon overhead | dmypy warm p50 | dmypy new errors "
        "| cold / warm |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for w in results["workloads"]:
        for p in w["patches"]:
            k = p["kind"]
            warm = num(w, "daemon", "patches", k, "p50")
            floor = num(w, "floor", "patches", k, "p50")
            overhead = warm - floor if warm is not None and floor is not None else None
            cold = num(w, "cold", k, "ms")
            rows.append(
                f"| {w['name']} | {k} | {p['files']} | {p['interface']} "
                f"| {p.get('module_level_checked', 'n/a')} → "
                f"{get(w, 'daemon', 'patches', k, 'checked_files') or 'n/a'} "
                f"| {get(w, 'daemon', 'patches', k, 'verdict') or 'n/a'} | {_ms(cold)} "
                f"| {_ms(warm)} | {_ms(get(w, 'daemon', 'patches', k, 'p95'))} | {_ms(floor)} "
                f"| {_ms(overhead)} | {_ms(get(w, 'dmypy', 'patches', k, 'p50'))} "
                f"| {get(w, 'dmypy', 'patches', k, 'new_errors')} | {_ratio(cold, warm)} |"
            )
    return rows


def _rungs(results: dict[str, Any]) -> list[str]:
    """Per workload and patch: ruff warm (the daemon's path) and, when measured, as processes."""
    rows = [
        "| workload | patch | files | ruff | policy+anchor | parse | format | lint | total |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for w in results["workloads"]:
        for kind in section(w, "rungs"):
            files = num(w, "rungs", kind, "files") or 0
            for key, how in (("rungs", "warm server"), ("rungs_cli", "process per file")):
                if num(w, key, kind, "total") is None:
                    continue
                cells = [_ms(num(w, key, kind, r)) for r in RUNG_COLUMNS]
                rows.append(f"| {w['name']} | {kind} | {files:.0f} | {how} | {' | '.join(cells)} |")
    return rows


def _typescript(results: dict[str, Any]) -> list[str]:
    """One row per TypeScript workload, engine and patch (``bench.ts_bench``)."""
    rows = [
        "| workload | engine | files | patch | cold tsc | first check | warm p50 | warm p95 "
        "| cold / warm | files checked | daemon typecheck p50 | verdict (daemon) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for w in results.get("typescript", []):
        for e in w["engines"]:
            engine = f"TS {e['typescript']} ({e['engine']})"
            for p in e["patches"]:
                k = p["kind"]
                cold, warm = num(e, "cold", k, "ms"), num(e, "daemon", "patches", k, "p50")
                rows.append(
                    f"| {w['label']} | {engine} | {e['files']} | {k}: `{p['name']}` "
                    f"| {_ms(cold)} | {_ms(get(e, 'daemon', 'first_check_ms'))} | {_ms(warm)} "
                    f"| {_ms(get(e, 'daemon', 'patches', k, 'p95'))} | {_ratio(cold, warm)} "
                    f"| {get(e, 'daemon', 'patches', k, 'checked_files')} "
                    f"| {_ms(get(e, 'daemon', 'patches', k, 'timings_ms_p50', 'typecheck_ms'))} "
                    f"| {get(e, 'daemon', 'patches', k, 'verdict') or 'n/a'} |"
                )
    return rows


def _latency(side: dict[str, Any]) -> str:
    return f"{_ms(get(side, 'p50'))} / {_ms(get(side, 'p95'))}"


def _editors(e: dict[str, Any]) -> list[str]:
    """Editor through ``prewrite lsp`` vs a direct pyright (``bench.editor_bench``)."""
    rows = [
        "| measure | through `prewrite lsp` | direct pyright | overhead (p50) |",
        "|---|---|---|---|",
    ]
    for method in ("hover", "definition", "completion"):
        m = section(section(e, "idle"), method)
        rows.append(
            f"| {method}, idle: p50 / p95 | {_latency(section(m, 'proxy'))} "
            f"| {_latency(section(m, 'direct'))} | {_ms(get(m, 'overhead_p50'))} |"
        )
    idle = num(e, "fairness", "hover_idle", "p50")
    for key, how in (("fairness", "spare checker on"), ("fairness_no_spare", "no spare")):
        fair = section(e, key)
        load = section(fair, "hover_proxy")
        over = num(load, "p50")
        spare = f"; spare RSS {_mb(fair.get('spare_rss_mb'))}" if key == "fairness" else ""
        rows.append(
            f"| hover while an agent checks `{e.get('signature_patch')}` back to back ({how}): "
            f"p50 / p95 (worst) | {_latency(load)} ({_ms(get(load, 'max'))}) "
            f"| {_latency(section(fair, 'hover_direct'))} (control: its own process) "
            f"| {_ms(None if over is None or idle is None else over - idle)} over idle{spare} |"
        )
    rss = section(e, "rss_mb")
    shared, apart = num(e, "rss_mb", "daemon_pyright_shared"), num(e, "rss_mb", "separate_total")
    rows.append(
        f"| RSS of pyright serving editor and agent | {_mb(rss.get('daemon_pyright_shared'))} "
        f"(one, shared) | {_mb(rss.get('separate_total'))} (editor's "
        f"{_mb(rss.get('direct_editor_pyright'))} + agent's "
        f"{_mb(rss.get('daemon_pyright_agent_only'))}) "
        f"| {_mb(None if shared is None or apart is None else shared - apart)} |"
    )
    return rows


EDITORS_NOTE = (
    "An editor (a pygls `LanguageClient`) on `prewrite lsp`, served by the daemon's warm pyright "
    "that also checks an agent's patches, vs the same client on a direct `pyright-langserver "
    "--stdio` with the daemon's settings, the same document open; requests at a call site in "
    "{file}:{line}, proxy and direct interleaved. Under load, the agent (`Client.check` in a "
    "thread) checks the signature patch back to back; with the spare on (the default), an "
    "editor that finds the warm checker held by an agent for 200 ms is served by a second "
    "checker over the real root; without it, the editor waits for the check under way."
)


def _editor_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    e = section(results, "editors")
    overheads = [num(e, "idle", m, "overhead_p50") for m in ("hover", "definition", "completion")]
    found = [o for o in overheads if o is not None]
    if not found:
        return []
    worst = max(found)
    return [_target("editor through prewrite lsp: overhead <= 15 ms (p50, idle; worst of hover, "
                    "definition, completion)", str(e.get("name")), _ms(worst),
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
                               ">= 20x faster than cold tsc", w["name"], _ratio(cold, warm),
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
                           _ratio(cold, warm), fast))  # fmt: skip
        out.append(_target("warm 1-file body edit p50 <= 200 ms", main["name"], _ms(warm),
                           None if warm is None else warm <= 200))  # fmt: skip
    for w in workloads:
        warm = num(w, "daemon", "patches", "body_1", "p50")
        floor = num(w, "floor", "patches", "body_1", "p50")
        over = met = None
        if warm is not None and floor is not None:
            over = warm - floor
            met = over <= 15 or over <= 0.10 * floor
        out.append(_target("daemon overhead over floor <= 10% or <= 15 ms (p50, 1-file body)",
                           w["name"], _ms(over), met))  # fmt: skip
        changing = [p["kind"] for p in w["patches"] if p["interface"] == "changing"]
        pairs = [(num(w, "daemon", "patches", k, "p50"), num(w, "cold", k, "ms")) for k in changing]
        faster = [a < b for a, b in pairs if a is not None and b is not None]
        slowest = max((a / b for a, b in pairs if a is not None and b), default=None)
        out.append(_target("interface-changing patches faster than cold", w["name"],
                           "n/a" if slowest is None else f"slowest at {slowest:.0%} of cold",
                           all(faster) if faster else None))  # fmt: skip
        rung5 = num(w, "rungs", "body_5", "total")
        out.append(_target("cheap rungs on the 5-file patch <= 50 ms", w["name"], _ms(rung5),
                           None if rung5 is None else rung5 <= 50))  # fmt: skip
    return out + _ts_targets(results) + _editor_targets(results)


TS_NOTE = (
    "cold = the workspace's own `tsc --noEmit -p tsconfig.json --pretty false` on the patched "
    "tree written to a copy (median of its runs); first check = the daemon's first check "
    "(starts the checker); warm = `Client.check` after it; files checked = "
    "`reply.checked_files` (the patched file and every file the daemon's import graph says "
    "may see it); daemon typecheck = the type-check rung's own time (`reply.timings_ms`)."
)


def markdown(results: dict[str, Any]) -> str:
    head = [
        "# prewrite bench",
        "",
        f"Measured {results['date']} on {results['machine']}; mode {results['mode']}, "
        f"{results['runs']} warm runs per patch, seed {results['seed']}; "
        f"{results['versions']['pyright']}, mypy {results['versions']['mypy']}; "
        f"`python -m bench` took {results['runtime_s']:.0f} s. "
        f"Load average at start / end: {results['load_start']} / {results['load_end']} "
        "(other work on the machine makes the figures noisy).",
        "",
        "cold = `pyright --outputjson` on the patched tree written to a copy; first check = the "
        "daemon's first check after start (starts pyright); warm = `Client.check`; floor = the "
        "same check in-process (`Registry`, no socket or daemon); dmypy = mypy's daemon "
        "re-checking the patched tree in place. Ruff rungs are off for these (type checking "
        "only) and measured on their own below.",
        "",
        "## Per workload",
        "",
    ]
    python = [*_summary(results), "", "## Per patch", "", *_per_patch(results)]
    python += ["", "## Cheap rungs (1- and 5-file patches)", "", *_rungs(results)]
    if any(w.get("mypy") for w in results["workloads"]):
        rows = mypy_rows(results["workloads"])
        python += ["", "## mypy as the judge", "", MYPY_NOTE, "", *rows]
    body = [*head, *python] if results["workloads"] else head[:-3]  # TypeScript only
    if results.get("typescript"):
        body += ["", "## TypeScript", "", TS_NOTE, "", *_typescript(results)]
    if results.get("editors"):
        e = section(results, "editors")
        note = EDITORS_NOTE.format(file=e.get("file"), line=e.get("line"))
        body += ["", f"## Editors ({e.get('label')})", "", note, "", *_editors(e)]
    body += ["", "## Targets (measured, not asserted)", ""]
    body += ["| target | workload | measured | met |", "|---|---|---|---|"]
    for t in results["targets"]:
        met = {True: "yes", False: "**no**", None: "n/a"}[t["met"]]
        body.append(f"| {t['target']} | {t['workload']} | {t['measured']} | {met} |")
    everything = [*results["workloads"], *results.get("typescript", [])]
    everything += [results["editors"]] if results.get("editors") else []
    errors = [f"- {w['name']}: {e}" for w in everything for e in w.get("errors", [])]
    if errors:
        body += ["", "## Phases that failed", "", *errors]
    return "\n".join(body) + "\n"


def write(results: dict[str, Any], out: Path) -> tuple[Path, Path]:
    results["schema"] = SCHEMA
    results["targets"] = evaluate_targets(results)
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "results.json", out / "results.md"
    json_path.write_text(json.dumps(results, indent=2) + "\n")
    md_path.write_text(markdown(results))
    return json_path, md_path
