"""The overlay check of one patch on one warm workspace: base, candidate, revert, diff.

Runs under the workspace lock, so no two checks on one server ever see each other's overlays.
Modified files become in-memory documents (opened with the disk text, then changed to the
candidate: pyright only invalidates importers on a change). New and deleted modules are
materialised in the shadow and announced as file events, because pyright resolves imports from
disk. Everything is put back in ``finally``, so a failure or a cancelled request (a client that
hung up) leaves no overlay behind. Which files are compared is planned off the event loop,
within a budget (``planning.py``).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite.errors import BadRequest, ErrorDetail
from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.backends.base import Backend, FileEvent
from prewrite_daemon.diagnostics import has_error, introduced_by_patch, to_wire
from prewrite_daemon.limits import Deadline
from prewrite_daemon.planning import DEFAULT_PLANNING_BUDGET_S, Planner, plan_off_loop

# The plan lives in planning.py; its two names stay importable from here, where checks run.
from prewrite_daemon.planning import CheckPlan as CheckPlan
from prewrite_daemon.planning import plan_check as plan_check

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from prewrite_daemon.languages.base import DependencyGraph, Language, Scope
    from prewrite_daemon.patch import FileEdit, PreparedPatch
    from prewrite_daemon.shadow import ShadowTree


@dataclass
class CheckContext:
    """What a check reads and updates of its workspace (owned by the workspace, under its lock)."""

    language: Language
    shadow: ShadowTree
    graph: DependencyGraph
    backend: Backend
    base_cache: dict[str, list[Diagnostic]] = field(default_factory=lambda: {})
    scope: Scope | None = None  # None: every file counts
    narrowing: bool = True  # False: every transitive importer of a patched file (``plan_check``)
    planning_budget_s: float = DEFAULT_PLANNING_BUDGET_S
    plan: CheckPlan | None = None  # the last check's plan (what it pruned, whether it fell back)


async def _pull(
    ctx: CheckContext, rels: Iterable[str], deadline: Deadline
) -> dict[str, list[Diagnostic]]:
    rels = list(rels)
    try:
        async with asyncio.TaskGroup() as tg:
            tasks = {
                rel: tg.create_task(
                    ctx.backend.diagnostics(ctx.shadow.shadow_path(rel), deadline.left())
                )
                for rel in rels
            }
    except ExceptionGroup as group:
        raise _first_leaf(group) from None
    shadow_prefix = str(ctx.shadow.shadow_root)
    real_prefix = str(ctx.shadow.root)
    result: dict[str, list[Diagnostic]] = {}
    for rel, task in tasks.items():
        wire = [to_wire(ctx.language.normalize(raw), rel) for raw in task.result()]
        result[rel] = [relocate(d, shadow_prefix, real_prefix) for d in wire if d is not None]
    return result


def _first_leaf(group: BaseExceptionGroup[Exception]) -> Exception:
    """The first real failure of a group of concurrent pulls (the others were cancelled)."""
    first = group.exceptions[0]
    return _first_leaf(first) if isinstance(first, BaseExceptionGroup) else first


def relocate(d: Diagnostic, shadow_prefix: str, real_prefix: str) -> Diagnostic:
    """Messages that quote paths (import cycles, for one) name the workspace, not the shadow."""
    if shadow_prefix not in d.message:
        return d
    return Diagnostic(
        d.path,
        d.line,
        d.column,
        d.end_line,
        d.end_column,
        d.severity,
        d.rule,
        d.message.replace(shadow_prefix, real_prefix),
        d.source,
    )


async def run_check(ctx: CheckContext, patch: PreparedPatch, timeout_s: float) -> CheckReply:
    deadline = Deadline(timeout_s)
    t0 = time.perf_counter()
    planner = Planner(ctx.graph, ctx.language, ctx.scope, ctx.narrowing, ctx.planning_budget_s)
    ctx.plan = plan = await plan_off_loop(planner, patch, deadline)
    t_plan = time.perf_counter()
    shadow = ctx.shadow
    edits = {e.path: e for e in plan.source_edits}

    # Base diagnostics, for files that exist before the patch (cached until the tree moves).
    base_needed = [r for r in plan.checked if r in shadow.files and r not in ctx.base_cache]
    opened: list[str] = []
    try:
        for rel in base_needed:
            _open_disk(ctx, rel, opened)
        ctx.base_cache.update(await _pull(ctx, base_needed, deadline))
        t_base = time.perf_counter()

        _materialise(ctx, plan.source_edits)
        _lay_data(ctx, plan.data_edits)
        for rel in plan.checked:
            edit = edits.get(rel)
            _overlay(ctx, rel, edit, opened)
        # A modified file the checker's scope leaves out is not judged, but what it now says is
        # what its importers must see (the CLI resolves imports to it whatever `include` says).
        for rel in plan.out_of_scope:
            if rel in shadow.files and edits[rel].old_text is not None:
                _overlay(ctx, rel, edits[rel], opened)
        candidate = await _pull(ctx, plan.checked, deadline)
        t_cand = time.perf_counter()
    finally:
        _revert(ctx, plan.source_edits, opened)
        _restore_data(ctx, plan.data_edits)

    new = introduced_by_patch(ctx.base_cache, candidate, edits, plan.checked)
    verified: list[str] = []
    if plan.fallback_ms is not None:
        ms = plan.fallback_ms
        verified.append(f"typecheck: narrowing stopped after {ms:.0f} ms: every importer checked")
    return CheckReply(
        ok=not has_error(new),
        diagnostics=new,
        checked_files=list(plan.checked),
        timings_ms={
            "plan_ms": round((t_plan - t0) * 1000, 1),
            "base_ms": round((t_base - t_plan) * 1000, 1),
            "candidate_ms": round((t_cand - t_base) * 1000, 1),
        },
        verified=verified,
        not_verified=[
            f"typecheck: {rel} is outside the checker's include/exclude/ignore: not judged"
            for rel in plan.out_of_scope
        ],
    )


async def pull_under(
    ctx: CheckContext, view: Sequence[FileEdit], rels: Sequence[str], deadline: Deadline
) -> dict[str, list[Diagnostic]]:
    """The diagnostics of ``rels`` (files ``view`` leaves alone) with ``view``'s edits (from the
    shadow's texts to the view's) laid over the checker; everything is put back on the way out."""
    opened: list[str] = []
    sources = [e for e in view if ctx.language.is_source(e.path)]
    data = [e for e in view if not ctx.language.is_source(e.path)]
    try:
        _materialise(ctx, sources)
        _lay_data(ctx, data)
        for e in sources:
            if e.old_text is not None and e.new_text is not None:
                _overlay(ctx, e.path, e, opened)
        for rel in rels:
            _open_disk(ctx, rel, opened)
        return await _pull(ctx, rels, deadline)
    finally:
        _revert(ctx, sources, opened)
        _restore_data(ctx, data)


def _materialise(ctx: CheckContext, edits: Iterable[FileEdit]) -> None:
    """New and deleted modules go to the shadow and are announced: imports resolve from disk."""
    shadow, backend = ctx.shadow, ctx.backend
    events: list[FileEvent] = []
    for e in edits:
        if e.old_text is None or e.new_text is None:
            path = shadow.shadow_path(e.path)
            if e.new_text is None:
                backend.close(path)
                shadow.remove(e.path)
                events.append(FileEvent(path, "deleted"))
            else:
                shadow.write(e.path, e.new_text)
                events.append(FileEvent(path, "created"))
    backend.files_changed(events)


def _lay_data(ctx: CheckContext, edits: Iterable[FileEdit]) -> None:
    """Data files sources import (JSON modules) are read from the shadow by the checker: the
    patch's version is written there and announced."""
    shadow, events = ctx.shadow, list[FileEvent]()
    for e in edits:
        path = shadow.shadow_path(e.path)
        if e.new_text is None:
            shadow.remove(e.path)
            events.append(FileEvent(path, "deleted"))
        else:
            shadow.write(e.path, e.new_text)
            events.append(FileEvent(path, "created" if e.old_text is None else "changed"))
    ctx.backend.files_changed(events)


def _restore_data(ctx: CheckContext, edits: Iterable[FileEdit]) -> None:
    shadow, backend = ctx.shadow, ctx.backend
    events = list[FileEvent]()
    for e in edits:
        shadow.restore(e.path)
        kind = "deleted" if e.old_text is None else "created" if e.new_text is None else "changed"
        events.append(FileEvent(shadow.shadow_path(e.path), kind))
    if backend.pid is not None and not backend.exited:
        backend.files_changed(events)


def _overlay(ctx: CheckContext, rel: str, edit: FileEdit | None, opened: list[str]) -> None:
    """Open ``rel`` as the candidate has it: a new file with its text, a modified one with its
    disk text then changed (pyright only invalidates importers on a change), others as on disk."""
    path = ctx.shadow.shadow_path(rel)
    if edit is not None and edit.old_text is None:
        assert edit.new_text is not None
        ctx.backend.open(path, edit.new_text)
        opened.append(rel)
        return
    _open_disk(ctx, rel, opened)
    if edit is not None and edit.new_text is not None:
        ctx.backend.change(path, edit.new_text)


def _open_disk(ctx: CheckContext, rel: str, opened: list[str]) -> None:
    path = ctx.shadow.shadow_path(rel)
    if ctx.backend.is_open(path):
        return
    text = ctx.shadow.read_text(rel)
    if text is None:
        raise BadRequest(f"{rel} is not UTF-8 text", [ErrorDetail("not UTF-8", rel)])
    ctx.backend.open(path, text)
    opened.append(rel)


def _revert(ctx: CheckContext, edits: Iterable[FileEdit], opened: list[str]) -> None:
    """Close every document and put the shadow back as the workspace has it."""
    shadow, backend = ctx.shadow, ctx.backend
    alive = backend.pid is not None and not backend.exited
    if alive:
        for rel in opened:
            backend.close(shadow.shadow_path(rel))
    events: list[FileEvent] = []
    for e in edits:
        if e.old_text is None or e.new_text is None:
            shadow.restore(e.path)
            kind = "created" if e.new_text is None else "deleted"
            events.append(FileEvent(shadow.shadow_path(e.path), kind))
    if alive:
        backend.files_changed(events)
