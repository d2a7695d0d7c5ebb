"""Judge fuzz patches three ways on a real warm workspace: narrowed, every file, and cold tsc.

For each program (``ts_fuzzgen.py``) a temporary workspace is written with the TypeScript of the
major under test linked as its own, and each patch (``ts_fuzzpatches.py``) is checked in-process
through the ``Registry``, as the daemon checks it:

1. **narrowed**: the workspace as it runs, its planner deciding which importers to compare;
2. **every file**: the same warm checker with narrowing off and a graph that makes every file an
   importer of every change (``WholeProject``), so no planning decision (neither the import
   graph nor ``reaches_everything``/``interface_changed``) can hide a file;
3. **cold**: ``tsc --noEmit`` on a patched copy (``ts_oracle.py``), for a sample of patches.

A disagreement is any difference between the multisets of new diagnostics (path, rule, severity,
message) of (1) and (2) or (1) and (3), or an ``ok`` that says otherwise than (3) or (2).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec

from prewrite.changes import change_file, delete_file, new_file
from prewrite.protocol import CheckRequest
from tests.support.oracle import normalize_paths, surplus
from tests.support.ts_fuzzrender import render
from tests.support.ts_oracle import TsColdOracle, write_patched_copy

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from prewrite.protocol import CheckReply, Diagnostic, FileChange
    from prewrite_daemon.languages.base import DependencyGraph
    from prewrite_daemon.session import Registry
    from tests.support.ts_fuzzgen import Program
    from tests.support.ts_fuzzpatches import FuzzPatch


class WholeProject:
    """The workspace's graph, except that every file depends on every change."""

    def __init__(self, real: DependencyGraph) -> None:
        self.real = real

    def update(self, rel: str, source: str | None) -> None:
        self.real.update(rel, source)

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        return self.real.files() - set(rels)

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        del deadline
        return self.importers(rel for rel, _, _ in changes)

    def files(self) -> set[str]:
        return self.real.files()

    def order_sensitive(self) -> bool:
        return self.real.order_sensitive()


@dataclass(frozen=True)
class Disagreement:
    seed: int
    patch: str
    between: str  # "narrowed/every file" or "narrowed/cold"
    only_narrowed: list[Diagnostic]
    only_other: list[Diagnostic]
    narrowed_ok: bool
    other_ok: bool

    @property
    def wrong_green(self) -> bool:
        return self.narrowed_ok and not self.other_ok

    def render(self) -> str:
        def show(ds: list[Diagnostic]) -> str:
            return "; ".join(f"{d.path}:{d.line} {d.rule} {d.message}" for d in ds) or "-"

        kind = "WRONG GREEN" if self.wrong_green else "disagreement"
        return (
            f"{kind} seed={self.seed} {self.patch} ({self.between}): narrowed ok={self.narrowed_ok}"
            f" other ok={self.other_ok}\n  only narrowed: {show(self.only_narrowed)}\n"
            f"  only {self.between.split('/')[1]}: {show(self.only_other)}"
        )


@dataclass
class FuzzReport:
    programs: int = 0
    patches: int = 0
    red: int = 0  # patches every-file judged red
    cross_file: int = 0  # ... with a new error in a file the patch does not touch
    cold: int = 0  # patches also judged by cold tsc
    checked_narrowed: int = 0  # files compared, summed over patches
    checked_every: int = 0
    disagreements: list[Disagreement] = field(default_factory=list[Disagreement])

    def summary(self) -> str:
        wrong = sum(d.wrong_green for d in self.disagreements)
        return (
            f"{self.programs} programs, {self.patches} patches ({self.red} red, "
            f"{self.cross_file} with a new error outside the patch), {self.cold} also cold; "
            f"files compared narrowed {self.checked_narrowed} vs every file "
            f"{self.checked_every}; {len(self.disagreements)} disagreements, {wrong} wrong greens"
        )


def write_program(program: Program, root: Path, ts_dir: Path) -> None:
    for rel, text in render(program).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(ts_dir, target_is_directory=True)


def changes_of(root: Path, patch: FuzzPatch) -> list[FileChange]:
    out: list[FileChange] = []
    for rel, text in patch.edits.items():
        exists = (root / rel).is_file()
        if text is None:
            out.append(delete_file(root, rel))
        else:
            out.append(change_file(root, rel, text) if exists else new_file(rel, text))
    return out


def _red(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)


def _compare(
    seed: int, patch: FuzzPatch, between: str, ours: CheckReply, theirs: list[Diagnostic], ok: bool
) -> Disagreement | None:
    mine = ours.diagnostics
    only_ours, only_theirs = surplus(mine, theirs), surplus(theirs, mine)
    if only_ours or only_theirs or ours.ok != ok:
        return Disagreement(seed, patch.name, between, only_ours, only_theirs, ours.ok, ok)
    return None


async def judge_program(
    registry: Registry,
    program: Program,
    patches: list[FuzzPatch],
    root: Path,
    ts_dir: Path,
    cold_every: int,
    report: FuzzReport,
) -> None:
    """Judge every patch of ``program`` (cold tsc on every ``cold_every``-th) into ``report``."""
    write_program(program, root, ts_dir)
    oracle = TsColdOracle(root, ts_dir)
    assert oracle.base == [], f"seed {program.seed}: the generated base is not clean"
    ws = registry.workspace(str(root), None, "typescript")
    report.programs += 1
    for n, patch in enumerate(patches):
        changes = changes_of(root, patch)
        request = CheckRequest(str(root), changes, timeout_s=120)
        narrowed = _normalized(await registry.check(request), root)
        real = ws.graph
        ws.graph, ws.narrowing = WholeProject(real), False
        try:
            every = _normalized(await registry.check(request), root)
        finally:
            ws.graph, ws.narrowing = real, True
        report.patches += 1
        report.red += not every.ok
        report.cross_file += any(d.path not in patch.edits for d in every.diagnostics)
        report.checked_narrowed += len(narrowed.checked_files)
        report.checked_every += len(every.checked_files)
        found = _compare(program.seed, patch, "narrowed/every file", narrowed, every.diagnostics,
                         every.ok)  # fmt: skip
        if found is not None:
            report.disagreements.append(found)
        if n % cold_every == 0 or patch.touches_json_module:
            cold = _cold(oracle, root, changes)
            report.cold += 1
            found = _compare(program.seed, patch, "narrowed/cold", narrowed, cold, not _red(cold))
            if found is not None:
                report.disagreements.append(found)


def _normalized(reply: CheckReply, root: Path) -> CheckReply:
    return msgspec.structs.replace(reply, diagnostics=normalize_paths(reply.diagnostics, root))


def _cold(oracle: TsColdOracle, root: Path, changes: list[FileChange]) -> list[Diagnostic]:
    tree = write_patched_copy(root, changes, root.parent / f"{root.name}-patched")
    try:
        return oracle.introduced(tree)
    finally:
        shutil.rmtree(tree)
