"""`make bench`: warm vs cold vs floor on the bundled example, side by side in one run.

The full harness over real PyPI workloads is still to come; this measures what exists now:
- cold: the ``pyright`` CLI on the patched tree written to a copy (what an agent does today);
- first: the daemon's first check (starts pyright);
- warm: ``prewrite check`` through the client, p50/p95;
- floor: the same overlay check in-process against a warm pyright, no socket or daemon between.
Results go to bench/results/ (JSON and Markdown), not committed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import bench.rungs
from bench.demo import EXAMPLE, cold_cli, green_patch, red_patch
from prewrite import Client, FileChange
from prewrite.protocol import CheckRequest
from prewrite.runtime import RuntimePaths
from prewrite_daemon.session import Registry

RESULTS = Path(__file__).parent / "results"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_daemon(
    root: Path, patches: dict[str, list[FileChange]], runs: int, python: str, paths: RuntimePaths
) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    with Client(paths=paths) as client:
        started = time.perf_counter()
        client.check(root, patches["green"], python=python)
        out["first"] = {"ms": (time.perf_counter() - started) * 1000}
        for name, changes in patches.items():
            times: list[float] = []
            for _ in range(runs):
                t = time.perf_counter()
                client.check(root, changes, python=python)
                times.append((time.perf_counter() - t) * 1000)
            out[name] = {"p50": statistics.median(times), "p95": percentile(times, 0.95)}
        client.stop()
    return out


async def measure_floor(
    root: Path, patches: dict[str, list[FileChange]], runs: int, python: str, state: Path
) -> dict[str, dict[str, float]]:
    registry = Registry(state)
    out: dict[str, dict[str, float]] = {}
    try:
        await registry.check(CheckRequest(str(root), patches["green"], python))
        for name, changes in patches.items():
            times: list[float] = []
            for _ in range(runs):
                t = time.perf_counter()
                await registry.check(CheckRequest(str(root), changes, python))
                times.append((time.perf_counter() - t) * 1000)
            out[name] = {"p50": statistics.median(times), "p95": percentile(times, 0.95)}
    finally:
        await registry.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--runs", type=int, default=20, help="warm runs per patch (default 20)")
    parser.add_argument("--quick", action="store_true", help="5 runs per patch")
    args = parser.parse_args()
    runs = 5 if args.quick else args.runs
    python = shutil.which("python3") or sys.executable
    with tempfile.TemporaryDirectory(prefix="pw-bench-", dir="/tmp") as tmp:
        root = Path(tmp) / "shop-repo"
        shutil.copytree(EXAMPLE, root)
        patches = {"green": green_patch(root), "red": red_patch(root)}
        paths = RuntimePaths(Path(tmp) / "run")
        os.environ["PREWRITE_RUNTIME_DIR"] = str(paths.runtime_dir)
        print("cold pyright CLI ...", flush=True)
        cold = [cold_cli(root, patches["green"], python) for _ in range(3)]
        print("daemon ...", flush=True)
        daemon = measure_daemon(root, patches, runs, python, paths)
        print("floor (in-process, no daemon) ...", flush=True)
        floor = asyncio.run(measure_floor(root, patches, runs, python, Path(tmp) / "floor"))
        print("cheap rungs (parse, format, lint) ...", flush=True)
        cheap = bench.rungs.run(runs)
    date = time.strftime("%Y-%m-%d %H:%M")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    workload = "bench/demo/repo (5 files)"
    cold_ms = statistics.median(cold)
    result = {
        "date": date,
        "machine": machine,
        "workload": workload,
        "runs": runs,
        "cold_cli_ms": cold_ms,
        "daemon": daemon,
        "floor": floor,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(result, indent=2))
    table = [
        f"Measured {date} on {machine}; {workload}, {runs} warm runs.",
        "",
        "| patch | cold CLI | daemon first check | warm p50 | warm p95 | floor p50 | cold / warm |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in patches:
        w, f = daemon[name], floor[name]
        table.append(
            f"| {name} | {cold_ms:.0f} ms | {daemon['first']['ms']:.0f} ms "
            f"| {w['p50']:.0f} ms | {w['p95']:.0f} ms | {f['p50']:.0f} ms "
            f"| {cold_ms / w['p50']:.0f}x |"
        )
    table += [
        "",
        "Cheap rungs on real files of this repository (ruff by stdin, files in parallel):",
        "",
        "| patch | parse p50 | format p50 | lint p50 | total p50 |",
        "|---|---|---|---|---|",
    ]
    for label, r in cheap.items():
        table.append(
            f"| {label} | {r['parse']:.1f} ms | {r['format']:.1f} ms | {r['lint']:.1f} ms "
            f"| {r['total']:.1f} ms |"
        )
    (RESULTS / "latest.md").write_text("\n".join(table) + "\n")
    print("\n".join(table))
    print(f"\nwritten: {RESULTS / 'latest.json'}, {RESULTS / 'latest.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
