"""The planner fuzz loop: batches of generated programs, one tree and one warm pyright each.

A batch shares its ``[tool.pyright]`` settings (``choose_config`` of its first seed: Python
3.11-3.13, standard/strict/basic, rules that report where errors vanish). Every patch is judged
narrowed and whole (``py_fuzzgen_judge``); the patches of about one index in ``cold_every`` are
judged by cold pyright too; a finding is shrunk on the same warm workspace before the batch's
checker stops (``py_fuzzgen_shrink``).
"""

from __future__ import annotations

import shutil
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import PrewriteError
from tests.support.planner_case import write_tree
from tests.support.planner_newer_python import PlannerUnavailable
from tests.support.planner_warm import WarmChecker
from tests.support.py_fuzzgen import generate_patches, generate_program
from tests.support.py_fuzzgen_cold import cold_judge
from tests.support.py_fuzzgen_judge import FuzzReport, Judged, judge_patch, pyproject, record
from tests.support.py_fuzzgen_model import choose_config
from tests.support.py_fuzzgen_newer import judge_newer
from tests.support.py_fuzzgen_render import render
from tests.support.py_fuzzgen_shrink import shrink

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from tests.support.py_fuzzgen_model import Program


@dataclass(frozen=True)
class FuzzPlan:
    seeds: Sequence[int]
    batch: int = 12  # programs per tree (and per warm pyright)
    patches: int = 5  # per program
    cold_every: int = 10  # about one patch in this many is judged cold too
    shrink: bool = True


async def fuzz(
    plan: FuzzPlan, where: Path, python: str, log: Callable[[str], None] = print
) -> FuzzReport:
    """Run ``plan`` in directories under ``where``; findings are logged as they come."""
    report = FuzzReport()
    started = time.monotonic()
    seeds = list(plan.seeds)
    for b, start in enumerate(range(0, len(seeds), plan.batch)):
        chunk = seeds[start : start + plan.batch]
        config = choose_config(chunk[0])
        programs = [generate_program(seed, config) for seed in chunk]
        try:
            await _batch(plan, b, programs, where / f"batch{b}", python, report, log)
        except (PrewriteError, PlannerUnavailable, OSError, RuntimeError) as exc:
            # The checker or a planner subprocess failed (a loaded machine, daemon code edited
            # under a long run): the batch is lost, not the run; the report says so.
            trace = "".join(traceback.format_exception(exc))
            report.errors.append(f"batch {b} (seeds {chunk[0]}..{chunk[-1]}): {exc!r}")
            log(f"batch {b} failed:\n{trace}")
            shutil.rmtree(where / f"batch{b}", ignore_errors=True)
        report.seconds = time.monotonic() - started
        log(f"batch {b} ({config.toml().strip()!r}): {report.summary()}")
    return report


async def _batch(
    plan: FuzzPlan,
    b: int,
    programs: list[Program],
    where: Path,
    python: str,
    report: FuzzReport,
    log: Callable[[str], None],
) -> None:
    root = where / "tree"
    write_tree(root, {"pyproject.toml": pyproject(programs[0].config)})
    for program in programs:
        write_tree(root, render(program))
    by_index: dict[int, list[Judged]] = defaultdict(list)
    checker = WarmChecker(where / "state")
    try:
        for program in programs:
            report.programs += 1
            for i, patch in enumerate(generate_patches(program, plan.patches)):
                judged = await judge_patch(checker, root, python, program, patch)
                by_index[i].append(judged)
                if judged.finding is None:
                    record(report, judged)
                    continue
                log(judged.finding.headline())
                found = judged.finding
                if plan.shrink and found.kind != "cold":
                    found = await shrink(checker, root, python, found)
                    log(found.render())
                record(report, Judged(program, patch, judged.narrowed, judged.whole, found))
    finally:
        await checker.close()
    before = len(report.findings)
    judge_newer([j for g in by_index.values() for j in g], root, python, where / "shadow", report)
    for found in report.findings[before:]:
        log(found.render())
    offset = b * plan.patches
    groups = [g for i, g in sorted(by_index.items()) if (offset + i) % plan.cold_every == 0]
    before = len(report.findings)
    cold_judge(groups, where, python, report)
    for found in report.findings[before:]:
        log(found.render())
    shutil.rmtree(where, ignore_errors=True)
