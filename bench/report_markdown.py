"""``results.md``: the tables of what was measured, per workload, patch, rung, TypeScript engine
and editor, and the page that puts them together with the targets (``markdown``)."""

from __future__ import annotations

from typing import Any

from bench.mypy_bench import MYPY_NOTE, mypy_rows
from bench.report_values import cold_p50, get, mb, ms, num, ratio, section

RUNG_COLUMNS = ("policy+anchor", "parse", "format", "lint", "total")


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
            f"| {w['label']} | {w['files']} | {ms(cold_p50(w))} "
            f"| {ms(get(w, 'daemon', 'start_ms'))} | {ms(get(w, 'daemon', 'first_check_ms'))} "
            f"| {ms(warm)} | {ms(get(w, 'floor', 'patches', 'body_1', 'p50'))} "
            f"| {ms(get(w, 'dmypy', 'patches', 'body_1', 'p50'))} | {ratio(cold, warm)} "
            f"| {ms(get(w, 'daemon', 'restart_after_config_ms'))} "
            f"| {mb(get(w, 'daemon', 'rss_mb', 'daemon'))} "
            f"| {mb(get(w, 'daemon', 'rss_mb', 'pyright'))} | {mb(get(w, 'dmypy', 'rss_mb'))} "
            f"| {mb(max(peaks) if peaks else None)} |"
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
                f"| {get(w, 'daemon', 'patches', k, 'verdict') or 'n/a'} | {ms(cold)} "
                f"| {ms(warm)} | {ms(get(w, 'daemon', 'patches', k, 'p95'))} | {ms(floor)} "
                f"| {ms(overhead)} | {ms(get(w, 'dmypy', 'patches', k, 'p50'))} "
                f"| {get(w, 'dmypy', 'patches', k, 'new_errors')} | {ratio(cold, warm)} |"
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
                cells = [ms(num(w, key, kind, r)) for r in RUNG_COLUMNS]
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
                    f"| {ms(cold)} | {ms(get(e, 'daemon', 'first_check_ms'))} | {ms(warm)} "
                    f"| {ms(get(e, 'daemon', 'patches', k, 'p95'))} | {ratio(cold, warm)} "
                    f"| {get(e, 'daemon', 'patches', k, 'checked_files')} "
                    f"| {ms(get(e, 'daemon', 'patches', k, 'timings_ms_p50', 'typecheck_ms'))} "
                    f"| {get(e, 'daemon', 'patches', k, 'verdict') or 'n/a'} |"
                )
    return rows


def _latency(side: dict[str, Any]) -> str:
    return f"{ms(get(side, 'p50'))} / {ms(get(side, 'p95'))}"


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
            f"| {_latency(section(m, 'direct'))} | {ms(get(m, 'overhead_p50'))} |"
        )
    idle = num(e, "fairness", "hover_idle", "p50")
    for key, how in (("fairness", "spare checker on"), ("fairness_no_spare", "no spare")):
        fair = section(e, key)
        load = section(fair, "hover_proxy")
        over = num(load, "p50")
        spare = f"; spare RSS {mb(fair.get('spare_rss_mb'))}" if key == "fairness" else ""
        rows.append(
            f"| hover while an agent checks `{e.get('signature_patch')}` back to back ({how}): "
            f"p50 / p95 (worst) | {_latency(load)} ({ms(get(load, 'max'))}) "
            f"| {_latency(section(fair, 'hover_direct'))} (control: its own process) "
            f"| {ms(None if over is None or idle is None else over - idle)} over idle{spare} |"
        )
    rss = section(e, "rss_mb")
    shared, apart = num(e, "rss_mb", "daemon_pyright_shared"), num(e, "rss_mb", "separate_total")
    rows.append(
        f"| RSS of pyright serving editor and agent | {mb(rss.get('daemon_pyright_shared'))} "
        f"(one, shared) | {mb(rss.get('separate_total'))} (editor's "
        f"{mb(rss.get('direct_editor_pyright'))} + agent's "
        f"{mb(rss.get('daemon_pyright_agent_only'))}) "
        f"| {mb(None if shared is None or apart is None else shared - apart)} |"
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
