"""The ground truth of planner cases: cold pyright on the base tree and on the patched tree.

Cases laid out side by side (``planner_case.Layout``) are judged by two cold runs, run at the
same time: the base, and the tree with every case's patch applied (cases never import each
other, so one case's files see only its own patch). Per case, the truth is which files'
diagnostics differ at all (what the planner must keep: its claim is a superset of the files
whose diagnostics may differ) and which diagnostics the patch introduces, diffed exactly as the
daemon diffs (what the warm daemon must answer).
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.oracle import cold_pyright, introduced_between

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from tests.support.planner_case import Case, Layout

Key = tuple[int, int, int, int, str, str, str]


def _key(d: Diagnostic) -> Key:
    return (d.line, d.column, d.end_line, d.end_column, d.severity, d.rule, d.message)


@dataclass(frozen=True)
class CaseTruth:
    """What cold pyright says of one case."""

    base: dict[str, list[Diagnostic]]  # per path of the case, before the patch
    patched: dict[str, list[Diagnostic]]  # after
    introduced: list[Diagnostic]  # new in the patched tree, as the daemon diffs

    def differing(self, exists: set[str]) -> set[str]:
        """Files (of ``exists``: those in the patched tree) whose diagnostics differ at all."""
        return {
            rel
            for rel in exists
            if Counter(map(_key, self.base.get(rel, [])))
            != Counter(map(_key, self.patched.get(rel, [])))
        }


@dataclass(frozen=True)
class GroupTruth:
    """One tree of cases judged cold: where the trees are, and each case's truth."""

    base_root: Path
    patched_root: Path
    cases: dict[str, CaseTruth]


def judge_layout(layout: Layout, where: Path, python: str) -> GroupTruth:
    """Write ``layout`` as ``where/base`` and ``where/patched``; two cold runs judge every case."""
    base_root, patched_root = where / "base", where / "patched"
    layout.write_base(base_root)
    layout.write_patched(patched_root)
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(cold_pyright, [base_root, patched_root], [python, python]))
    before, after = (_by_path(run) for run in runs)
    truths: dict[str, CaseTruth] = {}
    for case in layout.cases:
        paths = case.paths()
        base = {p: before.get(p, []) for p in paths}
        patched = {p: after.get(p, []) for p in paths}
        new = introduced_between(
            base_root, [d for ds in base.values() for d in ds],
            patched_root, [d for ds in patched.values() for d in ds],
        )  # fmt: skip
        truths[case.name] = CaseTruth(base, patched, new)
    return GroupTruth(base_root, patched_root, truths)


def _by_path(diagnostics: list[Diagnostic]) -> dict[str, list[Diagnostic]]:
    out: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        out.setdefault(d.path, []).append(d)
    return out


def existing_after(case: Case) -> set[str]:
    """The case's source files that exist once its patch is applied."""
    after = {**case.base_files(), **case.patched_files()}
    return {rel for rel, text in after.items() if text is not None}
