"""Judging generated programs: the narrowed warm check against every file, and cold pyright.

Many programs share one tree (each under its own names, ``q<seed>``) and one warm pyright
(``planner_warm.WarmChecker``, the daemon's registry in-process). Each patch is checked twice on
the same warm workspace: **narrowed** (the planner decides which importers to compare; its
budget raised so that it never gives up) and **whole**: narrowing off and every file of the
program compared (each is added to the patch unchanged), so neither the planner nor the import
graph can hide a file. A **miss** is a diagnostic the whole check finds new in a file the
narrowed plan did not compare; a differing verdict or any other difference is a disagreement.
A miss is attributed: if the check with narrowing off (every transitive importer, the daemon's
own reference) finds it too, the planner pruned it; otherwise the import graph missed an edge.

Cold pyright judges a sample (``py_fuzzgen_cold``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tests.support.oracle import surplus
from tests.support.planner_case import TYPECHECK_ONLY
from tests.support.py_fuzzgen_render import patch_files, render

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from tests.support.planner_warm import Change, WarmAnswer, WarmChecker
    from tests.support.py_fuzzgen_model import Config, Patch, Program

RUNGS = ["typecheck"]
BUDGET_S = 120.0  # narrowing is judged, not its budget: a plan past the budget hides nothing


def pyproject(config: Config) -> str:
    return f"{TYPECHECK_ONLY}\n[tool.pyright]\n{config.toml()}"


def show(diagnostics: list[Diagnostic]) -> str:
    return (
        "\n".join(
            f"    {d.path}:{d.line}:{d.column} {d.severity} [{d.rule}] {d.message.splitlines()[0]}"
            for d in diagnostics
        )
        or "    -"
    )


@dataclass(frozen=True)
class Finding:
    """A patch on which narrowing and a reference disagree."""

    kind: str  # "miss", "disagreement", "cold" (with cold pyright), "gap" (see py_fuzzgen_cold)
    program: Program
    patch: Patch
    narrowed_ok: bool
    other_ok: bool
    only_other: list[Diagnostic]  # found by the reference (whole check, or cold), not narrowed
    only_narrowed: list[Diagnostic]
    pruned: tuple[str, ...]  # files the reference compared and the narrowed plan did not
    cause: str = ""  # "planner" or "import graph" (a miss), as the narrowing-off check says

    @property
    def wrong_green(self) -> bool:
        return self.narrowed_ok and not self.other_ok

    def headline(self) -> str:
        what = "WRONG GREEN" if self.wrong_green else self.kind
        cause = f" ({self.cause})" if self.cause else ""
        return (
            f"{what}{cause}: program {self.program.name} (seed {self.program.seed}), "
            f"patch {self.patch.label(self.program)}"
        )

    def render(self) -> str:
        """The finding with a reproduction: settings, files, patch, what was missed."""
        lines = [self.headline(), f"narrowed ok={self.narrowed_ok}, reference ok={self.other_ok}"]
        first, second = ("only the reference", "only narrowed")
        if self.kind == "gap":
            first, second = ("appeared", "vanished")
        lines += [f"{first}:", show(self.only_other)]
        lines += [f"{second}:", show(self.only_narrowed), f"pruned: {list(self.pruned)}"]
        lines += ["## pyproject.toml", pyproject(self.program.config)]
        lines += [f"## {rel}\n{text}" for rel, text in sorted(render(self.program).items())]
        for rel, text in patch_files(self.program, self.patch.ops).items():
            lines.append(f"## patch: {rel}\n{'(deleted)' if text is None else text}")
        return "\n".join(lines)


@dataclass
class FuzzReport:
    programs: int = 0
    patches: int = 0
    red: int = 0  # patches the whole check judged red
    cross_file: int = 0  # ... with a new diagnostic in a file the patch does not touch
    cold: int = 0  # patches judged cold too
    newer: int = 0  # patches also planned on Python 3.12+ (PEP 695 batches)
    plan_gaps: int = 0  # a pruned file whose cold diagnostics changed (none of them new)
    checked_narrowed: int = 0  # files compared, summed over patches
    checked_whole: int = 0
    base_errors: int = 0  # errors cold pyright finds in the bases (any is fine)
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list[Finding])
    errors: list[str] = field(default_factory=list[str])  # batches lost to a failure
    changes: Counter[str] = field(default_factory=Counter[str])  # patches per kind of change
    changes_cross: Counter[str] = field(default_factory=Counter[str])  # ... red outside the patch

    def coverage(self) -> str:
        """Per kind of change: patches, and how many had a new diagnostic outside the patch."""
        rows = sorted(self.changes.items(), key=lambda kv: (-self.changes_cross[kv[0]], kv[0]))
        return "\n".join(f"  {n:4d} {self.changes_cross[k]:4d}  {k}" for k, n in rows)

    def summary(self) -> str:
        misses = [f for f in self.findings if f.kind == "miss"]
        wrong = sum(f.wrong_green for f in self.findings if f.kind != "gap")
        return (
            f"{self.programs} programs, {self.patches} patches ({self.red} red, {self.cross_file}"
            f" with a new diagnostic outside the patch), {self.cold} also cold, {self.newer} also "
            f"planned on Python 3.12+; files compared "
            f"narrowed {self.checked_narrowed} vs whole {self.checked_whole}; "
            f"{len(misses)} misses, {len(self.findings) - len(misses) - self.plan_gaps} other "
            "disagreements, "
            f"{wrong} wrong greens, {self.plan_gaps} plan gaps; {len(self.errors)} batches "
            f"failed; {self.seconds:.0f} s"
        )


@dataclass(frozen=True)
class Judged:
    """One patch checked narrowed and whole."""

    program: Program
    patch: Patch
    narrowed: WarmAnswer
    whole: WarmAnswer
    finding: Finding | None


def edits_of(program: Program, base: dict[str, str], patch: Patch) -> list[Change]:
    return [(rel, base.get(rel), new) for rel, new in patch_files(program, patch.ops).items()]


async def judge_patch(
    checker: WarmChecker, root: Path, python: str, program: Program, patch: Patch
) -> Judged:
    """``patch`` of ``program`` (its base on disk under ``root``) checked narrowed and whole."""
    base = render(program)
    edits = edits_of(program, base, patch)
    narrowed = await checker.check(root, python, edits, True, RUNGS, BUDGET_S)
    touched = {rel for rel, _, _ in edits}
    unchanged = [(rel, text, text) for rel, text in sorted(base.items()) if rel not in touched]
    whole = await checker.check(root, python, [*edits, *unchanged], False, RUNGS, BUDGET_S)
    finding = _compare(program, patch, narrowed, whole)
    if finding is not None and finding.kind == "miss":
        wide = await checker.check(root, python, edits, False, RUNGS, BUDGET_S)
        found = not surplus(finding.only_other, wide.diagnostics)
        cause = "planner" if found else "import graph"
        finding = replace(finding, cause=cause)
    return Judged(program, patch, narrowed, whole, finding)


def _compare(
    program: Program, patch: Patch, narrowed: WarmAnswer, whole: WarmAnswer
) -> Finding | None:
    only_whole = surplus(whole.diagnostics, narrowed.diagnostics)
    only_narrowed = surplus(narrowed.diagnostics, whole.diagnostics)
    if not only_whole and not only_narrowed and narrowed.ok == whole.ok:
        return None
    pruned = tuple(sorted(set(whole.checked) - set(narrowed.checked)))
    missed = any(d.path in pruned for d in only_whole)
    kind = "miss" if missed else "disagreement"
    return Finding(kind, program, patch, narrowed.ok, whole.ok, only_whole, only_narrowed, pruned)


def record(report: FuzzReport, judged: Judged) -> None:
    report.patches += 1
    report.red += not judged.whole.ok
    touched = set(patch_files(judged.program, judged.patch.ops))
    cross = any(d.path not in touched for d in judged.whole.diagnostics)
    report.cross_file += cross
    for op in judged.patch.ops:
        kind = op.label(judged.program).split(": ", 1)[-1] if op.kind == "mutate" else op.kind
        if op.kind == "mutate":
            kind = f"{judged.program.features[op.target].kind}: {kind}"
        report.changes[kind] += 1
        report.changes_cross[kind] += cross
    report.checked_narrowed += len(judged.narrowed.checked)
    report.checked_whole += len(judged.whole.checked)
    if judged.finding is not None:
        report.findings.append(judged.finding)
