"""`make bench`: prewrite's warm check vs the cold pyright CLI vs the in-process floor vs dmypy,
side by side in one run, on real workloads.

Workloads (``bench.workloads``): pinned PyPI sdists of three sizes (click, httpx, pytest), each
with a venv of its pinned dependencies, cached between runs; ``--quick`` measures the bundled demo
repo instead, with 3 runs (the smoke test's mode). Per workload, a fixed seeded set of patches
(``bench.patches``) is measured:
- cold: ``pyright --outputjson`` on the patched tree written to a temporary copy;
- daemon: a private daemon's start, first check, warm ``Client.check`` p50/p95, RSS, and the
  restart after a configuration change;
- floor: the same check in-process (``Registry``), no socket or daemon between;
- dmypy: mypy's daemon re-checking the patched tree, warm;
- the cheap rungs (policy, anchor, parse, ruff format, ruff lint) on the 1- and 5-file patches,
  ruff through its warm server (as the daemon runs it) and as a process per file (the CLI path).
Warm runs stop early (after 3) once a patch kind has taken 15 s, so that interface changes on
the large workload fit the time budget. Outputs: results.json, results.md and results.png under
bench/results/ (or --out).

TypeScript (``bench.ts_bench``): rxjs and mobx (``ts-rxjs``, ``ts-mobx``), each with every
TypeScript installed (5.9.3 via tsserver, 7.0.2 via tsc --lsp): cold ``tsc --noEmit`` vs the
daemon's warm check on a 1-file body edit and an interface change. Part of the full run unless
``--no-typescript``; ``--quick`` measures it only when named in ``--workloads``.

Editors (``bench.editor_bench``): on httpx, an editor through ``prewrite lsp`` vs a direct
``pyright-langserver``: idle hover/definition/completion latency, the shared pyright's RSS, and
editor hovers while an agent checks interface changes. Part of the full run unless
``--no-editors``; ``--only-editors`` runs it alone (not part of ``--quick``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import os
import platform
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import measure, mypy_bench, peer, rungs
from bench.chart import write_chart
from bench.editor_bench import run_editors
from bench.patches import SEED, generate, module_level_checked
from bench.report import write
from bench.ts_bench import TS_CATALOGUE, TS_DEFAULT, run_ts_workload
from bench.workloads import CATALOGUE, FULL, QUICK, prepare, stage
from prewrite_daemon.backends.pyright_command import checker_version

if TYPE_CHECKING:
    from collections.abc import Callable

    from bench.patches import BenchPatch
    from bench.workloads import Staged

RESULTS = Path(__file__).parent / "results"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="demo repo only, 3 warm runs")
    parser.add_argument("--runs", type=int, help="warm runs per patch (default 10, quick 3)")
    parser.add_argument(
        "--workloads",
        help=f"comma-separated, from {', '.join([*CATALOGUE, *TS_CATALOGUE])} "
        f"(default: {','.join([*FULL, *TS_DEFAULT])})",
    )
    parser.add_argument("--seed", type=int, default=SEED, help=f"patch seed (default {SEED})")
    parser.add_argument("--out", type=Path, default=RESULTS, help="output dir (bench/results)")
    parser.add_argument("--no-dmypy", action="store_true", help="skip the dmypy peer")
    parser.add_argument("--no-typescript", action="store_true", help="skip the TypeScript section")
    parser.add_argument(
        "--no-mypy", action="store_true",
        help="skip mypy as the judge (warm vs cold mypy, on the workloads that configure it)",
    )  # fmt: skip
    parser.add_argument("--no-editors", action="store_true", help="skip the Editors section")
    parser.add_argument(
        "--only-editors", action="store_true", help="run the Editors section alone (on httpx)"
    )
    args = parser.parse_args(argv)
    if args.workloads:
        names = tuple(n.strip() for n in args.workloads.split(",") if n.strip())
    else:
        names = QUICK if args.quick else (*FULL, *TS_DEFAULT)
    unknown = [n for n in names if n not in CATALOGUE and n not in TS_CATALOGUE]
    if unknown:
        parser.error(f"unknown workload(s): {', '.join(unknown)}")
    args.names = tuple(n for n in names if n in CATALOGUE)
    args.ts_names = () if args.no_typescript else tuple(n for n in names if n in TS_CATALOGUE)
    args.editors = args.only_editors or not (args.no_editors or args.quick)
    if args.only_editors:
        args.names, args.ts_names = (), ()
    args.runs = args.runs or (3 if args.quick else 10)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def _phase(result: dict[str, Any], name: str, step: Callable[[], Any]) -> None:
    """Run one measurement phase; a failure is recorded in the results and the bench goes on."""
    print(f"  {name} ...", flush=True)
    t = time.perf_counter()
    try:
        result[name] = step()
    except Exception as exc:
        traceback.print_exc()
        result.setdefault("errors", []).append(f"{name}: {type(exc).__name__}: {exc}")
    result.setdefault("phase_s", {})[name] = round(time.perf_counter() - t, 1)


def _cold(staged: Staged, patches: list[BenchPatch]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in patches:
        cold = measure.cold_pyright(staged, list(p.changes))
        print(f"    {p.kind}: {cold.ms:.0f} ms", flush=True)
        out[p.kind] = {"ms": cold.ms, "errors": cold.errors, "peak_rss_mb": cold.peak_rss_mb}
    return out


def run_workload(name: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    workload = CATALOGUE[name]
    print(f"[{name}] preparing (downloaded and provisioned once, then cached) ...", flush=True)
    staged = stage(workload, prepare(workload), tmp / name / "ws")
    patches = generate(staged.root, args.seed)
    print(f"[{name}] {staged.label}: {staged.files} .py files; patches: "
          f"{', '.join(f'{p.kind} ({p.files} files)' for p in patches)}", flush=True)  # fmt: skip
    result: dict[str, Any] = {
        "name": name,
        "label": staged.label,
        "files": staged.files,
        "python": staged.python,
        "patches": [
            {
                "kind": p.kind,
                "name": p.name,
                "files": p.files,
                "interface": p.interface,
                "module_level_checked": module_level_checked(staged.root, p),
            }
            for p in patches
        ],
    }
    runs = args.runs
    _phase(result, "cold", lambda: _cold(staged, patches))
    warm: dict[str, Any] = {}
    both = "daemon and floor"
    _phase(warm, both, lambda: asyncio.run(measure.measure_warm(staged, patches, runs, tmp / name)))
    result.update(warm.pop(both, {}))
    result.setdefault("errors", []).extend(warm.get("errors", []))
    result.setdefault("phase_s", {}).update(warm["phase_s"])
    if not args.no_dmypy:
        _phase(result, "dmypy",
               lambda: peer.measure_dmypy(staged, patches, runs, tmp / name / "dmypy"))  # fmt: skip
    if not args.no_mypy and staged.mypy_targets and mypy_bench.configures_mypy(staged.root):
        work = tmp / name / "mypy"
        _phase(result, "mypy", lambda: mypy_bench.measure_mypy(staged, patches, runs, work))
    small = [p for p in patches if p.kind in ("body_1", "body_5")]
    _phase(result, "rungs",
           lambda: rungs.measure(staged.root, staged.python, small, max(runs, 5)))  # fmt: skip
    # The same with ruff as a process per file and rung: the path before the warm server.
    _phase(result, "rungs_cli", lambda: rungs.measure(
        staged.root, staged.python, small, max(runs, 5), warm=False))  # fmt: skip
    return result


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "mode": "quick" if args.quick else "full",
        "runs": args.runs,
        "seed": args.seed,
        "versions": {
            "pyright": checker_version(),
            "mypy": importlib.metadata.version("mypy"),
            "prewrite": importlib.metadata.version("prewrite"),
        },
        "load_start": _load(),
        "workloads": [],
    }
    ts_results: list[dict[str, Any]] = []
    if args.ts_names:
        results["typescript"] = ts_results
    # A short private dir: the daemon's socket path must fit in sun_path (108 bytes).
    tmp = Path(tempfile.mkdtemp(prefix="pwb-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(tmp / "run")  # nothing reaches the user's daemon
    try:
        for name in args.names:
            try:
                results["workloads"].append(run_workload(name, args, tmp))
            except Exception as exc:  # e.g. PyPI unreachable: report it, measure the others
                traceback.print_exc()
                error = f"preparing: {type(exc).__name__}: {exc}"
                results["workloads"].append(
                    {"name": name, "label": name, "files": 0, "patches": [], "errors": [error]}
                )
        for name in args.ts_names:
            ts_results.append(run_ts_workload(name, args.runs, args.quick, tmp))
        if args.editors:
            results["editors"] = run_editors(tmp, args.seed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results["load_end"] = _load()
    results["runtime_s"] = round(time.perf_counter() - started, 1)
    json_path, md_path = write(results, args.out)
    png_path = write_chart(results, args.out / "results.png")
    print()
    print(md_path.read_text())
    print(f"written: {json_path}, {md_path}, {png_path} ({results['runtime_s']:.0f} s)")
    sections = [*results["workloads"], *results.get("typescript", [])]
    sections += [results["editors"]] if "editors" in results else []
    failed = [w["name"] for w in sections if w.get("errors")]
    if failed:
        print(f"phases failed in: {', '.join(failed)} (see results.md)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
