"""``python -m bench.scale``: prewrite on big real repositories (issue 24).

``--repo django`` (the default): Django 5.2.8's ``django/`` package (883 modules, mostly
unannotated, not its tests); ``--repo sqlalchemy``: SQLAlchemy 2.0.36's ``lib/sqlalchemy`` (255
modules, 232k lines, annotated throughout) — each with its pyproject, from the pinned sdist, with
a venv of its runtime dependencies (``bench.scale_repos``; cached with the test workloads), staged
to a private copy under /tmp with the ruff rungs off (pyright judging); ``--repo effect``: the
TypeScript shape, effect 3.19.9's ``src/`` (362 modules, 235k lines) from the pinned npm tarball,
judged by the workspace's own TypeScript (``--ts 5``: 5.9 via tsserver, the default; ``--ts 7``:
``tsc --lsp``; ``bench.scale_stage``). Side by side in one run, on a private daemon (its own
``PREWRITE_RUNTIME_DIR``):

- the cold CLI (pyright, or ``tsc --noEmit``) on the tree (also the oracle's base);
- the first check of a just-started daemon: a comment-only edit of a leaf module;
- warm body edits (p50 of ``--runs``) of a leaf and of a hub used across the package
  (Django's ``utils.text.capfirst``, unannotated; SQLAlchemy's ``util.langhelpers.warn``;
  effect's ``Function.identity``);
- interface changes of the hub: a parameter with a default (green), a return annotation (red);
- the daemon's and its checker's RSS.

Every verdict (the daemon's introduced diagnostics) is compared with the cold oracle's (the CLI on
the patched tree written to a copy, diffed against the base): agreement or disagreement per run.
Every check has a deadline (``timeout_s``); a check that does not answer in time is recorded as
"no answer within N s" (with what the workspace was doing), and the rest of that kind is skipped.
Outputs: the Markdown table on stdout, ``bench/results/scale.json`` and ``scale.md`` (Django;
``scale-<repo>.*`` for the others; ``scale-effect-ts7.*`` for ``--ts 7``), the daemon's log as
``scale[-<repo>]-daemon.log``, and the chart of cost against repository size over every
``scale*.json`` there, ``scale.png`` (``bench.scale_chart``; ``--chart`` elsewhere) (``--out``
elsewhere; bench/results is not committed).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.measure import start_daemon, stop_daemon
from bench.processes import rss_mb
from bench.scale_chart import write_scale_chart
from bench.scale_patches import (
    ScalePatch,
    cold_introduced,
    disagreement,
    run_cold,
    scale_patches,
    show,
)
from bench.scale_report import render
from bench.scale_repos import REPOS, ScaleRepo
from bench.scale_stage import stage
from bench.trusting import trusting
from prewrite import Client
from prewrite.errors import CheckTimeout, DaemonUnresponsive, PrewriteError
from prewrite.runtime import RuntimePaths
from tests.support.oracle import normalize_paths

if TYPE_CHECKING:
    from bench.scale_patches import ColdRun

RESULTS = Path(__file__).parent / "results"


class Daemon:
    """The bench's private daemon: checks that never raise, and a client renewed after a failure."""

    def __init__(self, paths: RuntimePaths, root: Path, python: str | None) -> None:
        self.paths, self.root, self.python = paths, root, python
        self.client, self.start_ms = start_daemon(paths)
        self.pid = self.client.daemon_pid
        self.server_pid: int | None = None
        self.checker: str | None = None  # what the daemon says judges the workspace

    def check(self, patch: ScalePatch, run: int) -> dict[str, Any]:
        change = patch.change(self.root, run)
        started = time.perf_counter()
        try:
            reply = self.client.check(
                self.root, [change], python=self.python, timeout_s=patch.timeout_s
            )
        except (PrewriteError, OSError) as exc:
            ms = (time.perf_counter() - started) * 1000
            late = isinstance(exc, CheckTimeout | DaemonUnresponsive)
            error = f"no answer within {patch.timeout_s:.0f} s" if late else "failed"
            code = getattr(exc, "code", type(exc).__name__)
            self._renew()
            return {"run": run, "ms": round(ms), "error": f"{error} ({code}: {exc})",
                    "activity": self.activity()}  # fmt: skip
        ms = (time.perf_counter() - started) * 1000
        found = normalize_paths(reply.diagnostics, self.root)
        return {
            "run": run, "ms": round(ms), "ok": reply.ok, "new": found,
            "checked_files": len(reply.checked_files), "failed_rung": reply.failed_rung,
            "timings_ms": {k: round(v) for k, v in reply.timings_ms.items()},
        }  # fmt: skip

    def _renew(self) -> None:
        """A client whose call timed out has closed its connection: open another."""
        self.client.close()
        self.client = Client(paths=self.paths, autostart=False)

    def activity(self) -> str:
        """What the workspace's checker is doing now (after a timeout: where it stalled)."""
        try:
            for ws in self.client.status().workspaces:
                if Path(ws.root) == self.root.resolve():
                    self.server_pid = ws.server_pid or self.server_pid
                    self.checker = ws.checker or self.checker
                    return f"{ws.activity or 'idle'} for {ws.activity_s:.0f} s, busy={ws.busy}"
        except (PrewriteError, OSError) as exc:
            return f"status failed: {exc}"
        return "no workspace"

    def rss(self) -> dict[str, float | None]:
        self.activity()  # refreshes the checker's pid
        return {"daemon": rss_mb(self.pid, children=False), "checker": rss_mb(self.server_pid)}

    def stop(self) -> None:
        stop_daemon(self.client, self.paths, self.pid, self.server_pid)


def measure_patch(daemon: Daemon, patch: ScalePatch) -> dict[str, Any]:
    """``patch.runs`` salted checks; the first that gets no answer ends the kind."""
    runs: list[dict[str, Any]] = []
    for run in range(1, patch.runs + 1):
        result = daemon.check(patch, run)
        runs.append(result)
        shown = f"{result['ms']} ms, " + (result.get("error") or _verdict(result))
        print(f"  {patch.kind} run {run}: {shown}", flush=True)
        if "error" in result:
            break
    answered = [r["ms"] for r in runs if "error" not in r]
    return {
        "kind": patch.kind, "what": patch.what, "path": patch.path,
        "timeout_s": patch.timeout_s, "runs": runs,
        "p50_ms": statistics.median(answered) if answered else None,
    }  # fmt: skip


def _verdict(run: dict[str, Any]) -> str:
    if run["ok"]:
        return f"ok, {run['checked_files']} files checked"
    return f"failed:{run['failed_rung']}, {len(run['new'])} new, {run['checked_files']} checked"


def judge(result: dict[str, Any], patch: ScalePatch, root: Path, cold_run: ColdRun, base: Any,
          timeout_s: float) -> None:  # fmt: skip
    """Add the oracle's verdict (run 1's patch, cold) and each answered run's agreement with it."""
    cold = cold_introduced(root, cold_run, base, patch.change(root, 1), timeout_s)
    print(f"  cold CLI on {patch.kind}'s tree: {cold.ms:.0f} ms "
          f"({cold.error or f'{len(cold.diagnostics or [])} new'})", flush=True)  # fmt: skip
    result["cold_ms"], result["cold_error"] = round(cold.ms), cold.error
    oracle = cold.diagnostics
    result["oracle_new"] = None if oracle is None else [show(d) for d in oracle]
    for run in result["runs"]:
        if "error" in run or oracle is None:
            run["agrees"] = None  # nothing to compare: no answer, or no oracle
            continue
        diff = disagreement(run["new"], oracle)
        red = any(d.severity == "error" for d in oracle)
        run["agrees"] = not diff["only_daemon"] and not diff["only_oracle"] and run["ok"] != red
        run["disagreement"] = diff
        run["new"] = [show(d) for d in run["new"]]


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.scale",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repo", choices=sorted(REPOS), default="django", help="(django)")
    parser.add_argument("--runs", type=int, default=5, help="warm body edits per kind (5)")
    parser.add_argument("--first-timeout", type=float, default=300, help="first check, s (300)")
    parser.add_argument("--warm-timeout", type=float, default=120, help="body edits, s (120)")
    parser.add_argument("--interface-timeout", type=float, default=300, help="s (300)")
    parser.add_argument("--cold-timeout", type=float, default=300, help="each cold CLI, s (300)")
    parser.add_argument("--ts", type=int, choices=(5, 7), default=5,
                        help="TypeScript major for a TypeScript repo (5)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=RESULTS, help="output dir (bench/results)")
    parser.add_argument("--chart", type=Path, default=None,
                        help="the chart's path (<out>/scale.png)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def _stem(repo: ScaleRepo, ts_major: int) -> str:
    if repo.name == "django":
        return "scale"
    return f"scale-{repo.name}" + ("-ts7" if repo.typescript and ts_major == 7 else "")


def run(args: argparse.Namespace, tmp: Path, results: dict[str, Any]) -> None:
    repo = REPOS[args.repo]
    staged = stage(repo, tmp / repo.name, args.ts)
    root, python = staged.root, staged.python
    results["checker"] = staged.checker
    results["files"], results["lines"] = staged.files, staged.lines
    print(f"{repo.name} {repo.spec.version}: {staged.files} {repo.suffix} files "
          f"({staged.lines} lines) in {repo.package}/, {staged.checker}; cold CLI ...")  # fmt: skip
    base = run_cold(root, staged.cold, args.cold_timeout)
    results["cold_ms"], results["cold_error"] = round(base.ms), base.error
    results["base_diagnostics"] = None if base.diagnostics is None else len(base.diagnostics)
    print(f"  cold CLI on the tree: {base.ms:.0f} ms ({base.error or 'ok'})", flush=True)
    patches = scale_patches(repo, args.first_timeout, args.warm_timeout, args.interface_timeout,
                            args.runs)  # fmt: skip
    paths = RuntimePaths(tmp / "run")
    # An untrusted TypeScript workspace is judged by prewrite's pinned TypeScript, not its own
    # (``languages/typescript/pinned.py``): the bench staged this one, so it trusts it, privately.
    with trusting([root], tmp / "trusted") if repo.typescript else contextlib.nullcontext():
        daemon = Daemon(paths, root, python)
    results["daemon_start_ms"] = round(daemon.start_ms)
    try:
        for patch in patches:
            results["patches"].append(measure_patch(daemon, patch))
            if patch.kind == "first_check":
                results["rss_after_first_mb"] = daemon.rss()
        results["rss_mb"] = daemon.rss()
        results["daemon_checker"] = daemon.checker
    finally:
        daemon.stop()
        if paths.log_file.is_file():
            shutil.copy(paths.log_file, args.out / f"{_stem(repo, args.ts)}-daemon.log")
    for result, patch in zip(results["patches"], patches, strict=False):
        if base.diagnostics is None:
            result["cold_error"] = f"no oracle: the base's cold run failed ({base.error})"
            continue
        judge(result, patch, root, staged.cold, base.diagnostics, args.cold_timeout)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    repo = REPOS[args.repo]
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "language": "typescript" if repo.typescript else "python",
        "workload": f"{repo.name} {repo.spec.version} ({repo.package}/ + "
        + ("tsconfig.json)" if repo.typescript else "pyproject.toml)"),
        "load_start": _load(),
        "patches": [],
    }
    print(f"load average at start: {results['load_start']}", flush=True)
    # A short private dir: the daemon's socket path must fit in sun_path (108 bytes).
    tmp = Path(tempfile.mkdtemp(prefix="pwb-scale-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(tmp / "run")  # nothing reaches the user's daemon
    try:
        run(args, tmp, results)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        results["load_end"] = _load()
        results["runtime_s"] = round(time.perf_counter() - started)
        (args.out / f"{_stem(repo, args.ts)}.json").write_text(
            json.dumps(results, indent=2, default=str) + "\n"
        )
    table = render(results)
    (args.out / f"{_stem(repo, args.ts)}.md").write_text(table)
    chart = write_scale_chart(
        sorted(args.out.glob("scale*.json")), args.chart or args.out / "scale.png"
    )
    print()
    print(table)
    print(f"written: {args.out / _stem(repo, args.ts)}.json and .md, {chart} "
          f"({results['runtime_s']} s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
