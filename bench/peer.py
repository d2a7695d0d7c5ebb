"""The peer: a warm ``dmypy`` (mypy's daemon) re-checking the same patched trees.

Where the workload configures mypy, dmypy is the mypy that judges it, with CI's flags and targets,
as the daemon finds them (``bench.mypy_bench.judge``: pytest's own 1.11.2 in its venv, the bundled
mypy on httpx), so the floor is the judge's own; otherwise it runs from the bench's venv (mypy is
in the ``dev`` extra) with its defaults. Either way against the workload's interpreter
(``--python-executable``), with its cache outside the workspace. After ``dmypy start`` and a
first full ``dmypy check``, each run writes the patched files into the staged tree, times
``dmypy check`` (the warm re-check), then puts the original files back and re-checks untimed, so
every timed run starts from the same base. The server is always stopped afterwards.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

from bench.measure import Budget, write_changes
from bench.mypy_bench import Judge, configures_mypy, judge
from bench.processes import rss_mb, stop_pid, summarize
from prewrite_daemon.backends.mypy_command import mypy_flags
from prewrite_daemon.backends.mypy_output import parse_report

if TYPE_CHECKING:
    from pathlib import Path

    from bench.patches import BenchPatch
    from bench.workloads import Staged
    from prewrite.protocol import FileChange

TIMEOUT_S = 600.0
_FOUND = re.compile(r"Found (\d+) errors?")


def _errors(output: str) -> int | None:
    """mypy's error count from its summary line (0 on success, None when it printed none)."""
    found = _FOUND.search(output)
    if found:
        return int(found.group(1))
    return 0 if "Success" in output else None


class Dmypy:
    def __init__(self, staged: Staged, work: Path, found: Judge | None = None) -> None:
        self.staged = staged
        self.found = found  # None: the bench's own mypy, its defaults, the staged source dirs
        self.python = found.tool.python if found else sys.executable
        self.targets = found.targets if found else list(staged.mypy_targets)
        self.status = work / "dmypy.json"
        self.cache = work / "mypy-cache"
        work.mkdir(parents=True, exist_ok=True)

    def _run(self, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
        argv = [self.python, "-m", "mypy.dmypy", "--status-file", str(self.status), *args]
        t = time.perf_counter()
        proc = subprocess.run(
            argv, cwd=self.staged.root, capture_output=True, text=True, timeout=TIMEOUT_S
        )
        return proc, (time.perf_counter() - t) * 1000

    def start(self) -> float:
        if self.found:
            flags = mypy_flags(self.found.tool, self.staged.python, self.found.flags)
        else:
            flags = ["--python-executable", self.staged.python, "--python-version", "3.11"]
        proc, ms = self._run("start", "--", *flags, "--cache-dir", str(self.cache))
        if proc.returncode != 0:
            raise RuntimeError(f"dmypy start failed: {proc.stdout}{proc.stderr}")
        return ms

    def check(self) -> tuple[int | None, float]:
        proc, ms = self._run("check", *self.targets)
        if proc.returncode not in (0, 1):  # 1: errors found; anything else: it failed
            raise RuntimeError(f"dmypy check failed: {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        if self.found:  # the daemon's report flags: no summary line, each diagnostic read
            found = parse_report(proc.stdout, self.staged.root).values()
            return sum(d.severity == "error" for ds in found for d in ds), ms
        return _errors(proc.stdout), ms

    def pid(self) -> int | None:
        try:
            return int(json.loads(self.status.read_text())["pid"])
        except (OSError, ValueError, KeyError):
            return None

    def stop(self) -> None:
        pid = self.pid()
        try:
            self._run("stop")
        finally:
            if pid is not None and rss_mb(pid) is not None:
                stop_pid(pid)


def _originals(staged: Staged, changes: list[FileChange]) -> dict[str, str | None]:
    files = {c.path: staged.root / c.path for c in changes}
    return {rel: (p.read_text() if p.is_file() else None) for rel, p in files.items()}


def _restore(staged: Staged, originals: dict[str, str | None]) -> None:
    for rel, text in originals.items():
        target = staged.root / rel
        if text is None:
            target.unlink(missing_ok=True)
        else:
            target.write_text(text)


def measure_dmypy(
    staged: Staged, patches: list[BenchPatch], runs: int, work: Path
) -> dict[str, Any]:
    found = judge(staged.root, staged.python) if configures_mypy(staged.root) else None
    dmypy = Dmypy(staged, work, found)
    start_ms = dmypy.start()
    try:
        base_errors, first_ms = dmypy.check()
        results: dict[str, Any] = {}
        for p in patches:
            times: list[float] = []
            new: int | None = None
            for run in Budget(runs, seconds=10.0):
                changes = p.salted(run)
                originals = _originals(staged, changes)
                write_changes(staged.root, changes)
                try:
                    errors, ms = dmypy.check()
                    times.append(ms)
                finally:
                    _restore(staged, originals)
                # Back to the base, untimed; its count is the baseline: an incremental re-check
                # reports less than the first full check (e.g. no unused "type: ignore").
                base, _ = dmypy.check()
                new = None if errors is None or base is None else errors - base
            results[p.kind] = {**summarize(times), "new_errors": new}
            print(f"    {p.kind}: dmypy p50 {results[p.kind]['p50']:.0f} ms "
                  f"({len(times)} runs)", flush=True)  # fmt: skip
        return {
            "start_ms": round(start_ms, 1),
            "first_check_ms": round(first_ms, 1),
            "base_errors": base_errors,
            "rss_mb": rss_mb(dmypy.pid()),
            "mypy": found.tool.label if found else "the bench's own mypy, its defaults",
            "patches": results,
        }
    finally:
        dmypy.stop()
