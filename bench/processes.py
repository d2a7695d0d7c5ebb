"""Processes the bench starts: timing them, their memory (psutil), and stopping them by pid.

Only processes this bench started are ever signalled, each by its own pid.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import psutil

if TYPE_CHECKING:
    from pathlib import Path

MB = 1024 * 1024
SAMPLE_S = 0.05  # RSS sampling interval while a one-shot checker runs


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summarize(values: list[float]) -> dict[str, float]:
    """p50 / p95 / min / max in ms, rounded for the report."""
    return {
        "p50": round(statistics.median(values), 1),
        "p95": round(percentile(values, 0.95), 1),
        "min": round(min(values), 1),
        "max": round(max(values), 1),
        "n": len(values),
    }


def rss_mb(pid: int | None, children: bool = True) -> float | None:
    """Resident memory of ``pid`` (with its children: node's helpers count), None if gone."""
    if pid is None:
        return None
    try:
        proc = psutil.Process(pid)
        total = proc.memory_info().rss
        for child in proc.children(recursive=True) if children else []:
            try:
                total += child.memory_info().rss
            except psutil.NoSuchProcess:
                continue
    except psutil.NoSuchProcess:
        return None
    return round(total / MB, 1)


@dataclass(frozen=True)
class Run:
    ms: float
    peak_rss_mb: float | None
    returncode: int


def run_sampled(argv: list[str], cwd: Path, stdout: Path, timeout_s: float) -> Run:
    """Run ``argv`` to completion, output to a file, sampling its peak RSS along the way."""
    started = time.perf_counter()
    with stdout.open("wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL)
    peak: float | None = None
    try:
        for _ in range(int(timeout_s / SAMPLE_S) + 1):
            try:
                proc.wait(timeout=SAMPLE_S)
                break
            except subprocess.TimeoutExpired:
                sample = rss_mb(proc.pid)
                peak = max(peak or 0.0, sample or 0.0)
        else:
            raise TimeoutError(f"{argv[0]} did not finish within {timeout_s:.0f}s")
    finally:
        stop_pid(proc.pid, proc)
    ms = (time.perf_counter() - started) * 1000
    return Run(ms, peak, proc.returncode)


def stop_pid(pid: int, popen: subprocess.Popen[bytes] | None = None, grace_s: float = 5.0) -> None:
    """terminate -> wait -> kill one process we started; a no-op once it has exited."""
    if popen is not None and popen.poll() is not None:
        return
    try:
        proc = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return
    try:
        proc.terminate()
        proc.wait(grace_s)
    except psutil.NoSuchProcess:
        return
    except psutil.TimeoutExpired:
        proc.kill()
    if popen is not None:
        popen.wait(grace_s)


def wait_exit(pid: int, timeout_s: float) -> bool:
    """Wait for a process to exit (not ours to reap: the daemon is detached); True once gone."""
    try:
        psutil.Process(pid).wait(timeout_s)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        return False
    return True


def cpu_s(pid: int | None, children: bool = True) -> float:
    """CPU seconds (user + system) ``pid`` has used so far, with its live children's; 0 if gone."""
    if pid is None:
        return 0.0
    try:
        procs = [psutil.Process(pid)]
        procs += procs[0].children(recursive=True) if children else []
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for proc in procs:
        try:
            times = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total
