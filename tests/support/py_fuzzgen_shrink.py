"""Shrinking a finding: the smallest program and patch on which narrowing still misses.

Greedy, one step at a time, each step judged again on the same warm workspace (the candidate is
written beside the others under a name of its own, then removed): drop a feature the patch does
not change, drop one of the patch's changes, empty one block in every version, drop a slot's
``__all__`` or stub, drop a slot nothing is placed in. A step is kept when the candidate shows the
same kind of finding (a wrong green stays a wrong green).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tests.support.planner_case import write_tree
from tests.support.py_fuzzgen_judge import judge_patch
from tests.support.py_fuzzgen_model import Block, Patch, Program, Slot
from tests.support.py_fuzzgen_render import patch_files, render

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.support.planner_warm import WarmChecker
    from tests.support.py_fuzzgen_judge import Finding

FEATURE_OPS = ("mutate", "rename")


async def shrink(
    checker: WarmChecker, root: Path, python: str, finding: Finding, attempts: int = 80
) -> Finding:
    best, tried = finding, 0
    progress = True
    while progress and tried < attempts:
        progress = False
        for program, patch in _candidates(best.program, best.patch):
            tried += 1
            candidate = replace(program, ident=f"{finding.program.name}s{tried}")
            if not patch_files(candidate, patch.ops):
                continue
            files = render(candidate)
            write_tree(root, files)
            try:
                judged = await judge_patch(checker, root, python, candidate, patch)
            finally:
                write_tree(root, dict.fromkeys(files))
            found = judged.finding
            if (
                found is not None
                and found.kind == best.kind
                and found.wrong_green >= best.wrong_green
            ):
                best, progress = found, True
                break
            if tried >= attempts:
                break
    return best


def _candidates(program: Program, patch: Patch) -> Iterator[tuple[Program, Patch]]:
    used = {op.target for op in patch.ops if op.kind in FEATURE_OPS}
    for f in range(len(program.features)):
        if f not in used:
            yield _without_feature(program, patch, f)
    for k in range(len(patch.ops)) if len(patch.ops) > 1 else ():
        yield program, Patch(patch.ops[:k] + patch.ops[k + 1 :])
    for f, feature in enumerate(program.features):
        for key, b in feature.blocks.items():
            if b.code.strip() or any(m[key].code.strip() for _, m in feature.mutations):
                yield _without_block(program, f, key), patch
    slot_ops = {op.target for op in patch.ops if op.kind not in FEATURE_OPS}
    occupied = {
        program.placement[(f, key)]
        for f, feature in enumerate(program.features)
        for version in feature.versions()
        for key, b in version.items()
        if b.code.strip()
    }
    for i, slot in enumerate(program.slots):
        if slot.all_:
            yield _with_slot(program, i, replace(slot, all_=False)), patch
        if slot.stub and i not in slot_ops:
            yield _with_slot(program, i, replace(slot, stub="")), patch
        if i not in slot_ops and i not in occupied:
            yield _without_slot(program, patch, i)


def _without_feature(program: Program, patch: Patch, f: int) -> tuple[Program, Patch]:
    features = program.features[:f] + program.features[f + 1 :]
    placement = {(g - (g > f), k): s for (g, k), s in program.placement.items() if g != f}
    ops = tuple(
        replace(op, target=op.target - (op.target > f)) if op.kind in FEATURE_OPS else op
        for op in patch.ops
    )
    return replace(program, features=features, placement=placement), Patch(ops)


def _without_block(program: Program, f: int, key: str) -> Program:
    feature = program.features[f]
    blocks = {**feature.blocks, key: Block()}
    mutations = tuple((label, {**m, key: Block()}) for label, m in feature.mutations)
    shrunk = replace(feature, blocks=blocks, mutations=mutations)
    return replace(program, features=(*program.features[:f], shrunk, *program.features[f + 1 :]))


def _with_slot(program: Program, i: int, slot: Slot) -> Program:
    return replace(program, slots=(*program.slots[:i], slot, *program.slots[i + 1 :]))


def _without_slot(program: Program, patch: Patch, i: int) -> tuple[Program, Patch]:
    slots = program.slots[:i] + program.slots[i + 1 :]
    placement = {k: s - (s > i) for k, s in program.placement.items()}
    ops = tuple(
        op
        if op.kind in FEATURE_OPS
        else replace(
            op,
            target=op.target - (op.target > i),
            index=op.index - (op.index > i) if op.kind == "cycle" else op.index,
        )
        for op in patch.ops
    )
    return replace(program, slots=slots, placement=placement), Patch(ops)
