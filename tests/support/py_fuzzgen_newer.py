"""The planner run by Python 3.12+ on the fuzzer's batches whose settings allow PEP 695.

The daemon's Python (3.11 here) reads ``type X = ...`` and ``class Box[T]`` through libcst
(``syntax.newer``); a daemon on 3.12+ parses them natively, and every rule must hold on both
paths. The plans come from ``planner_newer_python`` (the graph rebuilt by that interpreter from
the batch's sources, the libraries' Protocols given); each must keep every file in which the
whole warm check found a new diagnostic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.support.planner_newer_python import PlannerUnavailable, newer_python, plan_under
from tests.support.planner_plan import Planner
from tests.support.py_fuzzgen_judge import Finding, edits_of
from tests.support.py_fuzzgen_render import render

if TYPE_CHECKING:
    from pathlib import Path

    from tests.support.py_fuzzgen_judge import FuzzReport, Judged

CAUSE = "the planner on Python 3.12+"


def judge_newer(
    judged: list[Judged], root: Path, python: str, scratch: Path, report: FuzzReport
) -> None:
    """Plan every patch of ``judged`` (their base is the tree at ``root``) on a newer Python."""
    exe = newer_python()
    if exe is None or not judged or not judged[0].program.config.py312:
        return
    planner = Planner(root, python, scratch)
    cases = {str(n): edits_of(j.program, render(j.program), j.patch) for n, j in enumerate(judged)}
    try:
        plans = plan_under(exe, planner, cases)
    except PlannerUnavailable:
        return
    for n, j in enumerate(judged):
        plan = plans[str(n)]
        report.newer += 1
        missed = [d for d in j.whole.diagnostics if d.path not in plan]
        if not missed:
            continue
        ok = not any(d.severity == "error" and d.path in plan for d in j.whole.diagnostics)
        pruned = tuple(sorted({d.path for d in missed}))
        finding = Finding("miss", j.program, j.patch, ok, j.whole.ok, missed, [], pruned, CAUSE)
        report.findings.append(finding)
