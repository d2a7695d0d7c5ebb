"""Disk rungs: what needs real files runs after the write — the affected tests, then the
slower rungs the workspace marks "once at the end" (run by ``prewrite finish`` or ``--finish``).

Each runs bounded: its own process group, a timeout, an output cap, and the whole group killed
when it ends, whatever happened. The tests are the test modules that import, transitively, what
the patch changed (from the daemon's import graph), run by the workspace's own interpreter.
They run in the workspace (as CI runs them) and only in a trusted one; their output is kept to a
64 KiB tail, and no rlimits are set: an address-space limit fails test suites CI passes (numpy,
JVMs and node reserve far more than they use), and these are what CI itself would run.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from typing import TYPE_CHECKING

from prewrite.protocol import DiskOutcome, DiskResult
from prewrite_daemon.backends.child import signal_group

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from prewrite_daemon.languages.base import DependencyGraph

OUTPUT_CAP = 64 * 1024
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


def is_test_file(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def affected_tests(graph: DependencyGraph, changed: Iterable[str], existing: set[str]) -> list[str]:
    """Test modules that are changed, or import a changed module (transitively), and exist."""
    changed = set(changed)
    candidates = {c for c in changed if is_test_file(c)} | {
        f for f in graph.importers(changed) if is_test_file(f)
    }
    return sorted(c for c in candidates if c in existing)


async def run_bounded(
    name: str, argv: list[str], cwd: Path, timeout_s: float
) -> tuple[DiskOutcome, float, str, int | None]:
    """(outcome, ms, trimmed output, exit code) of one command in its own process group."""
    started = time.perf_counter()
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=cwd, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    except OSError as exc:
        return "fail", 0.0, f"{name}: cannot run {argv[0]}: {exc}", None
    assert proc.stdout is not None
    tail = bytearray()

    async def drain() -> None:
        assert proc.stdout is not None
        while chunk := await proc.stdout.read(65536):
            tail.extend(chunk)
            del tail[: max(0, len(tail) - OUTPUT_CAP)]
        await proc.wait()

    outcome: DiskOutcome = "pass"
    try:
        await asyncio.wait_for(drain(), timeout_s)
    except TimeoutError:
        outcome = "timeout"
    finally:
        signal_group(proc.pid, signal.SIGKILL)  # the whole group, even children left behind
        await proc.wait()
    ms = round((time.perf_counter() - started) * 1000, 1)
    text = tail.decode(errors="replace")
    if outcome == "timeout":
        text += f"\n[prewrite] {name} killed after {timeout_s:.0f}s"
    elif proc.returncode != 0:
        outcome = "fail"
    return outcome, ms, text, proc.returncode


def tests_argv(python: str, tests: list[str]) -> list[str]:
    """The tests rung's command line (``prewrite doctor`` shows it beside CI's)."""
    return [python, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *tests]


async def run_tests(python: str, root: Path, tests: list[str], timeout_s: float) -> DiskResult:
    argv = tests_argv(python, tests)
    if not tests:
        return DiskResult("tests", "skipped", 0.0, argv, [], "no test module imports what changed")
    outcome, ms, output, code = await run_bounded("tests", argv, root, timeout_s)
    if code == 5:
        outcome = "skipped"  # pytest collected nothing
    failed = _FAILED.findall(output) if outcome == "fail" else []
    return DiskResult("tests", outcome, ms, argv, failed, output)


async def run_finish(name: str, argv: list[str], root: Path, timeout_s: float) -> DiskResult:
    outcome, ms, output, _code = await run_bounded(name, argv, root, timeout_s)
    return DiskResult(name, outcome, ms, argv, [], output)
