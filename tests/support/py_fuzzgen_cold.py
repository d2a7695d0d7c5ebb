"""Cold pyright on a sample of the fuzzer's patches, many programs per run.

One tree per group of patches (each of a different program: programs never import each other)
with all of them applied, one cold run each, plus one of the batch's base: the whole warm
check's answer must equal what cold pyright says the patch introduced, and a file the narrowed
plan pruned must keep its cold diagnostics exactly (a **gap** otherwise: harmless here, but the
patch undoing this one would miss what vanished). The cold runs are ``planner_truth.cold_run``.
"""

from __future__ import annotations

import shutil
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from tests.support.oracle import introduced_between, surplus
from tests.support.planner_case import write_tree
from tests.support.planner_truth import cold_run
from tests.support.py_fuzzgen_judge import Finding, FuzzReport, Judged, pyproject
from tests.support.py_fuzzgen_render import patch_files, render

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import Diagnostic


def cold_judge(groups: list[list[Judged]], where: Path, python: str, report: FuzzReport) -> None:
    """Cold pyright on the base of the batch and, per group (patches of different programs),
    on the tree with all of the group's patches applied: one run per group and one more."""
    groups = [g for g in groups if g]
    if not groups:
        return
    config = groups[0][0].program.config
    programs = {j.program.name: j.program for g in groups for j in g}
    trees = [where / "cold-base", *(where / f"cold-{n}" for n in range(len(groups)))]
    for tree in trees:
        shutil.rmtree(tree, ignore_errors=True)
        write_tree(tree, {"pyproject.toml": pyproject(config)})
        for program in programs.values():
            write_tree(tree, render(program))
    for tree, group in zip(trees[1:], groups, strict=True):
        for j in group:
            write_tree(tree, patch_files(j.program, j.patch.ops))
    with ThreadPoolExecutor(2) as pool:
        before, *afters = pool.map(cold_run, trees, [python] * len(trees))
    report.base_errors += sum(d.severity == "error" for d in before)
    for tree, group, after in zip(trees[1:], groups, afters, strict=True):
        for j in group:
            _cold_compare(j, before, after, trees[0], tree, report)
    for tree in trees:
        shutil.rmtree(tree, ignore_errors=True)


def _cold_compare(
    j: Judged,
    before: list[Diagnostic],
    after: list[Diagnostic],
    base_root: Path,
    patched_root: Path,
    report: FuzzReport,
) -> None:
    mine = j.program.owns
    base = [d for d in before if mine(d.path)]
    patched = [d for d in after if mine(d.path)]
    new = introduced_between(base_root, base, patched_root, patched)
    report.cold += 1
    only_cold, only_warm = surplus(new, j.whole.diagnostics), surplus(j.whole.diagnostics, new)
    red = any(d.severity == "error" for d in new)
    if only_cold or only_warm or red == j.whole.ok:
        report.findings.append(
            Finding("cold", j.program, j.patch, j.narrowed.ok, not red, only_cold, only_warm, ())
        )

    # A pruned file whose diagnostics change at all: the plan claims a superset of those, and
    # the patch undoing this one would miss what vanished here.
    exists = {d.path for d in patched} | {d.path for d in base}
    gaps = sorted(
        p for p in exists
        if p not in j.narrowed.checked and (patched_root / p).exists()
        and _keys(base, p) != _keys(patched, p)
    )  # fmt: skip
    if gaps:
        report.plan_gaps += 1
        appeared = [d for d in patched if d.path in gaps and d not in base]
        vanished = [d for d in base if d.path in gaps and d not in patched]
        report.findings.append(
            Finding(
                "gap",
                j.program,
                j.patch,
                j.narrowed.ok,
                j.whole.ok,
                appeared,
                vanished,
                tuple(gaps),
            )
        )


def _keys(ds: list[Diagnostic], path: str) -> Counter[tuple[object, ...]]:
    return Counter((d.line, d.column, d.severity, d.rule, d.message) for d in ds if d.path == path)
