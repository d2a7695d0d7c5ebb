"""The first check of a fresh daemon beside the cold ``pyright`` CLI, run after run (issue 19).

``python -m bench.first_check [--workloads demo,httpx] [--runs 5] [--patch KIND]``: per run, the
cold CLI on the patched tree written to a copy (``measure.cold_pyright``) and a daemon started
from nothing (its own runtime and state directories: no checker, no cache) checking the same
patch through ``Client.check``, in turn, the order swapped every other run, so that a shared
machine's load falls on both alike; the load average is noted at each run. The demo is checked
as ``make demo`` checks it (its ruff rungs on) with its first patch (``bench.demo.green_patch``:
an interface change reaching every file); the other workloads are staged as the bench stages
them (type checking only) with the bench's first kind (``body_1``) unless ``--patch`` says.

``--warm-caches``: every daemon keeps its state directory from an earlier one (a user's second
session: the Protocol scan's disk cache filled by a first daemon, not counted), instead of none.

``--running``: the first check of a workspace in a daemon already running — it has checked a
copy of the demo first and been quiet for ``QUIET_S`` (a new repository, a worktree or a
checker restart: its ready checker started and warmed up meanwhile, ``backends.ready``).

Printed: per run and as medians, the cold CLI, the daemon's start, its first check (the client's
wall time) and the ratio; the first check's own timings (``timings_ms``) show where it went.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import demo, measure
from bench.patches import generate
from bench.workloads import CATALOGUE, Staged, prepare, stage
from prewrite.runtime import RuntimePaths

if TYPE_CHECKING:
    from prewrite.protocol import FileChange


def _changes(name: str, root: Path, kind: str) -> list[FileChange]:
    if name == "demo":
        return demo.green_patch(root)
    found = [p for p in generate(root) if p.kind == kind]
    if not found:
        raise SystemExit(f"{name} has no {kind} patch")
    return list(found[0].changes)


QUIET_S = 5.0


def _first_check(
    staged: Staged, changes: list[FileChange], work: Path, running: bool = False
) -> dict[str, Any]:
    """A daemon started from nothing; its first check of ``changes``; always stopped.
    ``running``: another workspace checked first, then ``QUIET_S`` of nothing."""
    paths = RuntimePaths(work)
    client, start_ms = measure.start_daemon(paths)
    pid = client.daemon_pid
    try:
        if running:
            other = work.parent / f"other-{work.name}" / "shop-repo"  # outside the state
            shutil.copytree(demo.EXAMPLE, other, dirs_exist_ok=True)
            client.check(other, demo.green_patch(other), timeout_s=measure.CHECK_TIMEOUT_S)
            time.sleep(QUIET_S)
        t = time.perf_counter()
        reply = client.check(
            staged.root, changes, python=staged.python, timeout_s=measure.CHECK_TIMEOUT_S
        )
        first_ms = (time.perf_counter() - t) * 1000
    finally:
        measure.stop_daemon(client, paths, pid, None)
    return {"start_ms": round(start_ms), "first_ms": round(first_ms), "ok": reply.ok,
            "timings_ms": reply.timings_ms}  # fmt: skip


def _stage(name: str, tmp: Path) -> Staged:
    if name != "demo":
        workload = CATALOGUE[name]
        return stage(workload, prepare(workload), tmp / name / "ws")
    root = tmp / "demo" / "shop-repo"
    shutil.copytree(demo.EXAMPLE, root)
    python = shutil.which("python3") or "python3"  # as ``make demo`` runs it
    return Staged("demo", "demo repo", root, python, len(list(root.rglob("*.py"))), ("shop",))


def measure_workload(
    name: str, runs: int, kind: str, tmp: Path, warm_caches: bool = False, running: bool = False
) -> dict[str, Any]:
    staged = _stage(name, tmp)
    changes = _changes(name, staged.root, kind)
    print(f"[{name}] {staged.label}, {len(changes)} file(s) patched", flush=True)
    kept = Path(tempfile.mkdtemp(prefix="k", dir=tmp))  # short: the socket path is bounded
    if warm_caches:
        _first_check(staged, changes, kept)  # fills the state's caches; not counted
    rows: list[dict[str, Any]] = []
    for run in range(runs):
        row: dict[str, Any] = {"load": round(os.getloadavg()[0], 1)}
        work = kept if warm_caches else Path(tempfile.mkdtemp(prefix="r", dir=tmp))
        for step in ("cold", "daemon") if run % 2 == 0 else ("daemon", "cold"):
            if step == "cold":
                row["cold_ms"] = round(measure.cold_pyright(staged, changes).ms)
            else:
                row.update(_first_check(staged, changes, work, running))
        row["ratio"] = round(row["first_ms"] / row["cold_ms"], 2)
        print(f"  run {run + 1}: cold {row['cold_ms']} ms, daemon start {row['start_ms']} ms, "
              f"first check {row['first_ms']} ms ({row['ratio']}x), load {row['load']}, "
              f"{json.dumps(row['timings_ms'])}", flush=True)  # fmt: skip
        rows.append(row)
    summary = {k: statistics.median(r[k] for r in rows) for k in
               ("cold_ms", "start_ms", "first_ms", "ratio")}  # fmt: skip
    loads = [r["load"] for r in rows]
    print(f"[{name}] medians over {runs} runs: cold {summary['cold_ms']:.0f} ms, first check "
          f"{summary['first_ms']:.0f} ms ({summary['ratio']:.2f}x cold), daemon start "
          f"{summary['start_ms']:.0f} ms; load average {min(loads)}-{max(loads)}",
          flush=True)  # fmt: skip
    return {"name": name, "label": staged.label, "runs": rows, "medians": summary}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.first_check", description=__doc__)
    parser.add_argument("--workloads", default="demo,httpx")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--patch", default="body_1", help="the patch kind (not for the demo)")
    parser.add_argument("--warm-caches", action="store_true", help="keep the state's caches")
    parser.add_argument(
        "--running", action="store_true", help="a new workspace in a daemon already running"
    )
    parser.add_argument("--out", type=Path, help="write the results here as JSON")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pwf-", dir="/tmp"))
    try:
        results = [
            measure_workload(n, args.runs, args.patch, tmp, args.warm_caches, args.running)
            for n in args.workloads.split(",")
        ]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
