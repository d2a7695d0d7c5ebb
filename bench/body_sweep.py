"""Body-only edits of every module: the distribution of warm check times, hubs included.

The main bench times one body-only edit per workload, and it tends to land in a small module.
This section edits each module of a workload in turn (issue 12: "a body-only edit of every
module, p50 / p95 / max and the worst modules by name") and compares the distribution with the
cold ``pyright`` CLI on the whole tree.

Per module: the first fully annotated function (a return annotation: pyright infers an
unannotated function's return type from its body, so its body is interface) whose body takes a
harmless statement (``bench.patches.GREEN``) while the daemon's own ``interface_changed`` stays
False. Test-suite modules are left out unless ``--tests``, as in the main bench's body edits.
Each patch is checked ``RUNS`` times through a private daemon, salted per run so no cache
answers; the module's time is the median. Every verdict should be ok: a non-ok verdict on a
harmless body edit is a bug, and is listed.

    python -m bench.body_sweep [--workloads httpx,pytest] [--out DIR] [--limit N] [--tests]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.measure import CHECK_TIMEOUT_S, cold_pyright, start_daemon, stop_daemon
from bench.patches import GREEN, salted
from bench.processes import summarize
from bench.workloads import CATALOGUE, prepare, stage
from prewrite.errors import PrewriteError
from prewrite.runtime import RuntimePaths
from prewrite_daemon.backends.pyright_command import checker_version
from prewrite_daemon.languages.python.names.imports import interface_changed
from tests.support.patchkit import Context, body_insert
from tests.support.sourceindex import SourceIndex

if TYPE_CHECKING:
    from bench.workloads import Staged
    from prewrite import Client
    from prewrite.protocol import CheckReply, FileChange
    from tests.support.sourceindex import Function

RESULTS = Path(__file__).parent / "results" / "body_sweep"
RUNS = 3
COLD_RUNS = 2
WORST = 5
MAX_FAILURES = 3  # consecutive failed checks: the daemon is gone, stop the workload


@dataclass(frozen=True)
class Target:
    """One module's body-only patch."""

    path: str
    function: str
    lines: int
    change: FileChange


def _is_test(path: str) -> bool:
    return any(part.startswith(("test", "conftest")) for part in path.split("/"))


def find_targets(root: Path, tests: bool) -> tuple[list[Target], list[str]]:
    """Per module, its first harmless body edit; and the modules that have none."""
    ctx = Context(root, SourceIndex(root), ())
    by_file: dict[str, list[Function]] = {}
    for fn in ctx.index.functions:
        if fn.node.returns is not None and (tests or not _is_test(fn.path)):
            by_file.setdefault(fn.path, []).append(fn)
    found = [t for path, fns in sorted(by_file.items()) if (t := _target(ctx, path, fns))]
    edited = {t.path for t in found}
    return found, [p for p in ctx.index.files if (tests or not _is_test(p)) and p not in edited]


def _target(ctx: Context, path: str, functions: list[Function]) -> Target | None:
    old = ctx.index.files[path].text
    for fn in functions:
        edit = body_insert(ctx, fn, GREEN)
        change = ctx.edited(path, [edit]) if edit else None
        if change is not None and not interface_changed(old, change.content):
            return Target(path, fn.qualname, old.count("\n") + 1, change)
    return None


def _check(client: Client, staged: Staged, changes: list[FileChange]) -> tuple[CheckReply, float]:
    t = time.perf_counter()
    reply = client.check(staged.root, changes, python=staged.python, timeout_s=CHECK_TIMEOUT_S)
    return reply, (time.perf_counter() - t) * 1000


def measure_module(client: Client, staged: Staged, target: Target) -> dict[str, Any]:
    """``RUNS`` salted checks of one module's patch; the median run's verdict and breakdown."""
    runs: list[tuple[float, CheckReply]] = []
    for run in range(1, RUNS + 1):
        reply, ms = _check(client, staged, salted((target.change,), run, (".py",), "#"))
        runs.append((ms, reply))
    ms, reply = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
    bad = [r for _, r in runs if not r.ok]
    shown = bad[0] if bad else reply
    return {
        "path": target.path,
        "function": target.function,
        "lines": target.lines,
        "ms": round(ms, 1),
        "runs_ms": [round(m, 1) for m, _ in runs],
        "verdict": "ok" if not bad else f"failed:{shown.failed_rung}",
        "checked_files": len(reply.checked_files),
        "timings_ms": dict(reply.timings_ms),
        "first_timings_ms": dict(runs[0][1].timings_ms),
        "diagnostics": [f"{d.path}:{d.line}: {d.rule}: {d.message}" for d in shown.diagnostics],
    }


def sweep(staged: Staged, targets: list[Target], work: Path) -> dict[str, Any]:
    """Every target through one private daemon, warmed by one check; always stopped."""
    paths = RuntimePaths(work / "run")
    client, start_ms = start_daemon(paths)
    pid, server_pid = client.daemon_pid, None
    modules: list[dict[str, Any]] = []
    errors: list[str] = []
    try:
        _, first_ms = _check(client, staged, salted((targets[0].change,), 0, (".py",), "#"))
        server_pid = next((w.server_pid for w in client.status().workspaces), None)
        print(f"  daemon up in {start_ms:.0f} ms, first check {first_ms:.0f} ms", flush=True)
        failures = 0
        for i, target in enumerate(targets, 1):
            try:
                row = measure_module(client, staged, target)
            except PrewriteError as exc:
                errors.append(f"{target.path}: {type(exc).__name__}: {exc}")
                print(f"  [{i}/{len(targets)}] {errors[-1]}", flush=True)
                failures += 1
                if failures >= MAX_FAILURES:
                    break
                continue
            failures = 0
            modules.append(row)
            print(f"  [{i}/{len(targets)}] {target.path} ({target.lines} lines): "
                  f"{row['ms']:.0f} ms {row['verdict']}", flush=True)  # fmt: skip
        return {"first_check_ms": round(first_ms, 1), "modules": modules, "errors": errors}
    finally:
        stop_daemon(client, paths, pid, server_pid)


def run_workload(name: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    workload = CATALOGUE[name]
    staged = stage(workload, prepare(workload), tmp / name / "ws")
    targets, without = find_targets(staged.root, args.tests)
    targets = targets[: args.limit] if args.limit else targets
    if not targets:
        raise RuntimeError(f"{name}: no module has a harmless body-only edit")
    print(f"[{name}] {staged.label}: {len(targets)} modules to edit "
          f"({len(without)} without a harmless body edit)", flush=True)  # fmt: skip
    colds = [cold_pyright(staged, []).ms for _ in range(args.cold_runs)]
    cold = statistics.median(colds)
    print(f"  cold pyright CLI: {', '.join(f'{c:.0f}' for c in colds)} ms", flush=True)
    result = sweep(staged, targets, tmp / name)
    modules: list[dict[str, Any]] = result["modules"]
    warm = summarize([m["ms"] for m in modules]) if modules else {}
    # The first check of a module also pulls its base diagnostics (pyright's cache was dropped
    # by the previous module's checks): what an agent's first edit of a file pays.
    first = summarize([m["runs_ms"][0] for m in modules]) if modules else {}
    ratios = {f"cold/{k}": round(cold / warm[k], 1) for k in ("p50", "p95", "max") if warm}
    return {
        "name": name,
        "label": staged.label,
        "files": staged.files,
        "skipped_modules": without,
        "cold": {"ms": round(cold, 1), "runs_ms": colds},
        **result,
        "warm": warm,
        "first_run": first,
        "ratios": ratios,
        "worst": sorted(modules, key=lambda m: -m["ms"])[:WORST],
        "non_ok": [m for m in modules if m["verdict"] != "ok"],
    }


def _breakdown(timings: dict[str, float], prefix: str = "") -> str:
    return ", ".join(f"{k} {v:.0f}" for k, v in timings.items() if k.startswith(prefix))


def render(results: dict[str, Any]) -> str:
    lines = [
        "# Body-only edit of every module",
        "",
        f"{results['date']}, {results['machine']}, {results['pyright']}, "
        f"{RUNS} salted runs per module (median), cold = median of {results['cold_runs']}.",
        "",
        "| workload | modules | cold ms | p50 ms | p95 ms | max ms | cold/p50 | cold/p95 "
        "| cold/max | first run p50 / p95 ms | non-ok |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for w in results["workloads"]:
        m, r, f = w["warm"], w["ratios"], w["first_run"]
        lines.append(
            f"| {w['label']} | {len(w['modules'])} | {w['cold']['ms']:.0f} | {m.get('p50')} "
            f"| {m.get('p95')} | {m.get('max')} | {r.get('cold/p50')}x | {r.get('cold/p95')}x "
            f"| {r.get('cold/max')}x | {f.get('p50')} / {f.get('p95')} | {len(w['non_ok'])} |"
        )
    for w in results["workloads"]:
        lines += ["", f"## {w['label']}: the {WORST} worst modules", ""]
        lines += ["| module | lines | ms | runs | timings_ms (median run) | first run |"]
        lines += ["|---|---|---|---|---|---|"]
        for m in w["worst"]:
            runs = " / ".join(f"{x:.0f}" for x in m["runs_ms"])
            first = _breakdown(m["first_timings_ms"], "typecheck.")
            lines.append(f"| `{m['path']}` | {m['lines']} | {m['ms']:.0f} | {runs} "
                         f"| {_breakdown(m['timings_ms'])} | {first} |")  # fmt: skip
        for m in w["non_ok"]:
            lines.append(f"\n**non-ok** `{m['path']}` ({m['function']}): {m['verdict']}: "
                         + "; ".join(m["diagnostics"][:3]))  # fmt: skip
        lines += [f"\n**error** {e}" for e in w["errors"]]
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.body_sweep", description=__doc__)
    parser.add_argument("--workloads", default="httpx,pytest", help="comma-separated")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"output dir ({RESULTS})")
    parser.add_argument("--limit", type=int, default=0, help="at most N modules per workload")
    parser.add_argument("--tests", action="store_true", help="edit test-suite modules too")
    parser.add_argument("--cold-runs", type=int, default=COLD_RUNS, help="cold CLI runs")
    args = parser.parse_args(argv)
    args.names = [n.strip() for n in args.workloads.split(",") if n.strip()]
    unknown = [n for n in args.names if n not in CATALOGUE or n == "demo"]
    if unknown:
        parser.error(f"unknown workload(s): {', '.join(unknown)}")
    if args.limit < 0 or args.cold_runs < 1:
        parser.error("--limit must be >= 0 and --cold-runs >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
        "pyright": checker_version(),
        "runs": RUNS,
        "cold_runs": args.cold_runs,
        "tests": args.tests,
        "workloads": [],
    }
    # A short private dir: the daemon's socket path must fit in sun_path (108 bytes).
    tmp = Path(tempfile.mkdtemp(prefix="pwbs-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(tmp / "run")  # nothing reaches the user's daemon
    try:
        for name in args.names:
            results["workloads"].append(run_workload(name, args, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "results.md").write_text(render(results))
    print()
    print(render(results))
    print(f"written: {args.out / 'results.json'}, {args.out / 'results.md'}")
    failed = [w["name"] for w in results["workloads"] if w["non_ok"] or w["errors"]]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
