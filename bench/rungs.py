"""The cheap rungs' cost on a workload's 1-file and 5-file patches: policy + anchor, parse,
ruff format, ruff lint.

Measured in-process with the daemon's own rung code: the policy checks and the anchoring
(``prepare_patch``: base hashes, base texts), ``ast`` parsing, and ruff — its warm server as
the daemon runs it, or (``warm=False``) a process per file and rung by stdin — files in parallel,
base-text lint results cached as in the daemon (an untimed first pass warms them and the server).
The workload's own ruff configuration applies; format and lint run here even though the staged
copy turns them off for the type-check comparison.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import TYPE_CHECKING

from prewrite_daemon.check.patch import normalize_path, prepare_patch
from prewrite_daemon.ladder.config import LadderConfig, load_config
from prewrite_daemon.ladder.parse import parse_patch
from prewrite_daemon.ladder.policy import check_content, check_path
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.ruff_rungs import format_files, lint_files
from prewrite_daemon.ladder.runner import Ladder
from prewrite_daemon.limits import Deadline

if TYPE_CHECKING:
    from pathlib import Path

    from bench.patches import BenchPatch
    from prewrite.protocol import CheckReply, FileChange
    from prewrite_daemon.check.patch import PreparedPatch

RUNGS = ("policy+anchor", "parse", "format", "lint")


async def _no_typecheck(patch: PreparedPatch, timeout_s: float) -> CheckReply:
    raise AssertionError("the cheap-rung bench never type-checks")


async def _once(ladder: Ladder, changes: list[FileChange]) -> dict[str, float]:
    root, config = ladder.root, ladder.config
    t0 = time.perf_counter()
    for change in changes:
        check_path(normalize_path(root, change.path), root, config, ())
    patch = prepare_patch(root, changes)
    check_content(patch, config)
    t1 = time.perf_counter()
    errors, _ = parse_patch(patch)
    if errors:
        raise RuntimeError(f"a bench patch does not parse: {errors[0].message}")
    t2 = time.perf_counter()
    patch, failures, _ = await format_files(ladder.ruff, patch, Deadline(60.0))
    if failures:
        raise RuntimeError(f"ruff format failed on a bench patch: {failures[0].message}")
    t3 = time.perf_counter()
    await lint_files(ladder.ruff, patch, Deadline(60.0))
    t4 = time.perf_counter()
    spans = (t1 - t0, t2 - t1, t3 - t2, t4 - t3)
    return {rung: s * 1000 for rung, s in zip(RUNGS, spans, strict=True)}


async def _measure(
    root: Path, python: str, patches: list[BenchPatch], runs: int, warm: bool
) -> dict[str, dict[str, float]]:
    config: LadderConfig = load_config(root)
    ruff = Ruff(root, python, warm=warm)
    ladder = Ladder(root, config, ruff, _no_typecheck, ())
    try:
        return await _measure_patches(ladder, patches, runs)
    finally:
        await ruff.stop()


async def _measure_patches(
    ladder: Ladder, patches: list[BenchPatch], runs: int
) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    for patch in patches:
        await _once(ladder, patch.salted(0))  # warm the base-lint cache, as in the daemon
        samples = [await _once(ladder, patch.salted(i + 1)) for i in range(runs)]
        result = {r: round(statistics.median(s[r] for s in samples), 1) for r in RUNGS}
        result["total"] = round(statistics.median(sum(s.values()) for s in samples), 1)
        result["files"] = patch.files
        results[patch.kind] = result
    return results


def measure(
    root: Path, python: str, patches: list[BenchPatch], runs: int, warm: bool = True
) -> dict[str, dict[str, float]]:
    """Median ms per rung (and in total) for each of ``patches``, keyed by patch kind.

    ``warm``: ruff through its warm server, as the daemon runs it (started and warmed by the
    untimed first pass); False: one ``ruff`` process per file and rung, the CLI path.
    """
    return asyncio.run(_measure(root, python, patches, runs, warm))
