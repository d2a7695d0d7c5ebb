"""The cheap rungs' cost: parse + format + lint on a 1-file and a 5-file patch.

Measured in-process on real files of this repository (ruff-configured, 100-300 lines each),
with the daemon's own rung code: ``ast``/``tomllib`` parsing and ``ruff`` by stdin, files in
parallel, base-text lint results cached as in the daemon.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite_daemon.checker import Deadline
from prewrite_daemon.ladder.config import LadderConfig, load_config
from prewrite_daemon.ladder.parse import parse_patch
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder
from prewrite_daemon.patch import FileEdit, PreparedPatch

if TYPE_CHECKING:
    from prewrite.protocol import CheckReply

REPO = Path(__file__).resolve().parent.parent
FILES = [
    "daemon/prewrite_daemon/checker.py",
    "daemon/prewrite_daemon/workspace.py",
    "daemon/prewrite_daemon/ladder/runner.py",
    "client/prewrite/cli.py",
    "client/prewrite/client.py",
]


def _patch(paths: list[str], salt: int) -> PreparedPatch:
    edits: list[FileEdit] = []
    for rel in paths:
        old = (REPO / rel).read_text()
        edits.append(FileEdit(rel, old, old + f"\n\nBENCH_{salt} = {salt}\n"))
    return PreparedPatch(REPO, tuple(edits))


async def _no_typecheck(patch: PreparedPatch, timeout_s: float) -> CheckReply:
    raise AssertionError("the cheap-rung bench never type-checks")


async def _once(ruff: Ruff, config: LadderConfig, patch: PreparedPatch) -> dict[str, float]:
    ladder = Ladder(REPO, config, ruff, _no_typecheck, ())
    t0 = time.perf_counter()
    errors, _ = parse_patch(patch)
    assert not errors
    t1 = time.perf_counter()
    patch, failures = await ladder._format(patch, Deadline(60.0))  # pyright: ignore[reportPrivateUsage]
    assert not failures
    t2 = time.perf_counter()
    await ladder._lint(patch, Deadline(60.0))  # pyright: ignore[reportPrivateUsage]
    t3 = time.perf_counter()
    return {"parse": (t1 - t0) * 1000, "format": (t2 - t1) * 1000, "lint": (t3 - t2) * 1000}


async def measure(runs: int) -> dict[str, dict[str, float]]:
    ruff = Ruff(REPO, sys.executable)
    config = load_config(REPO)
    results: dict[str, dict[str, float]] = {}
    for label, paths in (("1 file", FILES[:1]), ("5 files", FILES)):
        await _once(ruff, config, _patch(paths, 0))  # warm the base-lint cache, as in the daemon
        samples = [await _once(ruff, config, _patch(paths, i + 1)) for i in range(runs)]
        result = {rung: statistics.median(s[rung] for s in samples) for rung in samples[0]}
        result["total"] = statistics.median(sum(s.values()) for s in samples)
        results[label] = result
    return results


def run(runs: int) -> dict[str, dict[str, float]]:
    return asyncio.run(measure(runs))
