"""The TypeScript section of ``make bench``: cold ``tsc`` vs the daemon's warm check, per engine.

Workloads are the differential test's (``tests.support.ts_workloads``: pinned npm packages with
their sources; rxjs 7.8.2 is the larger, mobx 7.1.3 the smaller), each measured with every
TypeScript toolchain installed (5.9.3: ``tsserver``; 7.0.2: ``tsc --lsp``), on the patches of
``bench.ts_patches`` (a 1-file body edit and an interface change):

- cold: the workspace's own ``tsc --noEmit -p tsconfig.json --pretty false`` on the patched tree
  written to a temporary copy (``node_modules`` linked), wall time, ``COLD_RUNS`` runs;
- daemon: a private daemon's first check (starts the checker: the cold start), then warm
  ``Client.check`` per patch, with the files it re-checked (``reply.checked_files``), its own
  timings (``reply.timings_ms``) and whether the checker restarted between checks.
"""

from __future__ import annotations

import statistics
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.measure import CHECK_TIMEOUT_S, CLI_TIMEOUT_S, Budget, start_daemon, stop_daemon
from bench.processes import rss_mb, run_sampled, summarize
from bench.trusting import trusting
from bench.ts_patches import generate
from prewrite.runtime import RuntimePaths
from prewrite_daemon.backends.tsc_output import parse_tsc_output
from prewrite_daemon.backends.typescript import TypeScript, find_typescript
from tests.support.ts_oracle import write_patched_copy
from tests.support.ts_workloads import (
    TS_MAJORS,
    TS_PACKAGES,
    copy_ts_workload,
    prepare_ts_workload,
    toolchain_dir,
)
from tests.support.workloads import WorkloadUnavailable

if TYPE_CHECKING:
    from bench.ts_patches import TsBenchPatch
    from prewrite import Client
    from prewrite.protocol import CheckReply, FileChange, WorkspaceStatus

TS_CATALOGUE = {f"ts-{name}": name for name in TS_PACKAGES}  # ts-mobx, ts-rxjs
TS_DEFAULT = ("ts-rxjs", "ts-mobx")
COLD_RUNS = 3


@dataclass(frozen=True)
class TsStaged:
    """A private copy of a TypeScript workload, checked by one TypeScript."""

    root: Path
    ts: TypeScript
    files: int

    @property
    def engine(self) -> str:
        return "tsc --lsp" if self.ts.native else "tsserver"


def stage(package: str, major: int, dest: Path) -> TsStaged:
    copy = copy_ts_workload(prepare_ts_workload(package, major), dest)
    return TsStaged(copy.root, find_typescript(copy.root), copy.files)


def cold_tsc(staged: TsStaged, changes: list[FileChange], runs: int) -> dict[str, Any]:
    """The workspace's tsc on the patched tree (one copy, ``runs`` runs): median wall time."""
    with tempfile.TemporaryDirectory(prefix="pwb-tsc-", dir="/tmp") as tmp:
        tree = write_patched_copy(staged.root, changes, Path(tmp) / "tree")
        out = Path(tmp) / "tsc.out"
        times: list[float] = []
        peak = 0.0
        for _ in range(runs):
            run = run_sampled(staged.ts.cold_argv("tsconfig.json"), tree, out, CLI_TIMEOUT_S)
            times.append(run.ms)
            peak = max(peak, run.peak_rss_mb or 0.0)
        found = parse_tsc_output(out.read_text(), tree)
    return {
        "ms": round(statistics.median(times), 1),
        "runs_ms": [round(t, 1) for t in times],
        "errors": sum(len(v) for v in found.values()),
        "peak_rss_mb": peak or None,
    }


@dataclass
class WarmTimes:
    """Warm runs of one patch: wall times, and what the daemon says it did."""

    warm: list[float] = field(default_factory=lambda: [])
    checked: list[int] = field(default_factory=lambda: [])
    timings: dict[str, list[float]] = field(default_factory=lambda: {})
    reply: CheckReply | None = None

    def note(self, reply: CheckReply, ms: float) -> None:
        self.warm.append(ms)
        self.checked.append(len(reply.checked_files))
        for key, value in reply.timings_ms.items():
            self.timings.setdefault(key, []).append(value)
        self.reply = reply

    def result(self) -> dict[str, Any]:
        reply = self.reply
        verdict = "n/a" if reply is None else "ok" if reply.ok else f"failed:{reply.failed_rung}"
        return {
            **summarize(self.warm),
            "verdict": verdict,
            "new_diagnostics": 0 if reply is None else len(reply.diagnostics),
            "checked_files": max(self.checked, default=0),
            "timings_ms_p50": {k: round(statistics.median(v), 1) for k, v in self.timings.items()},
        }


def _timed_check(client: Client, staged: TsStaged, changes: list[FileChange]) -> tuple[Any, float]:
    t = time.perf_counter()
    reply = client.check(staged.root, changes, timeout_s=CHECK_TIMEOUT_S)
    return reply, (time.perf_counter() - t) * 1000


def _workspace(client: Client, staged: TsStaged) -> WorkspaceStatus | None:
    for ws in client.status().workspaces:
        if Path(ws.root) == staged.root.resolve() and ws.language == "typescript":
            return ws
    return None


def measure_daemon(
    staged: TsStaged, patches: list[TsBenchPatch], runs: int, work: Path
) -> dict[str, Any]:
    """A private daemon: start, a first (warm-up) check, then warm runs per patch; stopped."""
    paths = RuntimePaths(work / "run")
    # Untrusted, the workspace would be judged by prewrite's pinned TypeScript 5.9.3, whatever
    # engine is under test (``languages/typescript/pinned.py``): the bench staged it, and trusts it.
    with trusting([staged.root], work / "trusted"):
        client, start_ms = start_daemon(paths)
    pid, server_pid = client.daemon_pid, None
    try:
        first, first_ms = _timed_check(client, staged, patches[0].salted(0))
        before = _workspace(client, staged)
        server_pid = before.server_pid if before else None
        out: dict[str, Any] = {}
        for p in patches:
            times = WarmTimes()
            for run in Budget(runs):
                times.note(*_timed_check(client, staged, p.salted(run)))
            out[p.kind] = r = times.result()
            print(f"      {p.kind}: warm p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms "
                  f"({r['n']} runs), {r['checked_files']} files checked, {r['verdict']}, "
                  f"daemon timings p50 {r['timings_ms_p50']}", flush=True)  # fmt: skip
        after = _workspace(client, staged)
        return {
            "start_ms": round(start_ms, 1),
            "first_check_ms": round(first_ms, 1),
            "first_check_ok": first.ok,
            "first_checked_files": len(first.checked_files),
            "first_timings_ms": dict(first.timings_ms),
            "patches": out,
            "checker": after.checker if after else None,
            "restarts_during_warm_runs": (
                after.restarts - before.restarts if after and before else None
            ),
            "same_checker_pid": bool(after and after.server_pid == server_pid),
            "rss_mb": {"daemon": rss_mb(pid, children=False), "checker": rss_mb(server_pid)},
        }
    finally:
        stop_daemon(client, paths, pid, server_pid)


def _engine(package: str, major: int, runs: int, cold_runs: int, work: Path) -> dict[str, Any]:
    staged = stage(package, major, work / "ws")
    patches = generate(staged.root)
    print(f"    {staged.ts.label}: {staged.files} .ts files; patches: "
          f"{', '.join(f'{p.kind} {p.name} ({p.importers} direct importers)' for p in patches)}",
          flush=True)  # fmt: skip
    result: dict[str, Any] = {
        "engine": staged.engine,
        "typescript": staged.ts.version,
        "files": staged.files,
        "patches": [
            {"kind": p.kind, "name": p.name, "files": p.files, "importers": p.importers}
            for p in patches
        ],
    }
    cold: dict[str, Any] = {}
    for p in patches:
        cold[p.kind] = c = cold_tsc(staged, list(p.changes), cold_runs)
        print(f"      cold {p.kind}: {c['ms']:.0f} ms (runs {c['runs_ms']})", flush=True)
    result["cold"] = cold
    result["daemon"] = measure_daemon(staged, patches, runs, work)
    return result


def run_ts_workload(name: str, runs: int, quick: bool, tmp: Path) -> dict[str, Any]:
    """One TypeScript workload, every engine installed; a failed engine is recorded, not fatal."""
    package = TS_CATALOGUE[name]
    spec = TS_PACKAGES[package]
    result: dict[str, Any] = {"name": name, "label": f"{spec.name} {spec.version}", "engines": []}
    for major in TS_MAJORS:
        print(f"[{name}] TypeScript {major} ...", flush=True)
        try:
            toolchain_dir(major)
        except WorkloadUnavailable as exc:  # that engine is not installed: skipped, not failed
            print(f"    skipped: {exc}", flush=True)
            result.setdefault("skipped", []).append(str(exc))
            continue
        t = time.perf_counter()
        try:
            work = tmp / name / f"ts{major}"
            engine = _engine(package, major, runs, 1 if quick else COLD_RUNS, work)
        except Exception as exc:
            traceback.print_exc()
            result.setdefault("errors", []).append(
                f"TypeScript {major}: {type(exc).__name__}: {exc}"
            )
            continue
        engine["phase_s"] = round(time.perf_counter() - t, 1)
        result["engines"].append(engine)
    return result
