"""The overlay check of one patch on one warm workspace: candidate, revert, base, diff.

Runs under the workspace lock, so no two checks on one server ever see each other's overlays.
The patch is laid over the checker as ``overlays.py`` does it (modified files as documents; new
and deleted modules materialised in the shadow), and everything is put back in ``finally``, so a
failure or a cancelled request (a client that hung up) leaves no overlay behind. Which files are
compared is planned off the event loop, within a budget (``planning.py``), while the patched
files' candidate is pulled. The base is pulled last, and only for files whose candidate has
diagnostics (none means nothing was introduced there, whatever the base held): a green first
check costs the checker one pass.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.check.activity import Activity
from prewrite_daemon.check.diagnostics import has_error, introduced_by_patch, to_wire
from prewrite_daemon.check.overlays import (
    lay_data,
    materialise,
    open_disk,
    overlay,
    restore_data,
    revert,
)
from prewrite_daemon.check.planning import (
    DEFAULT_PLANNING_BUDGET_S,
    Planner,
    patched_files,
    plan_before_graph,
    plan_off_loop,
)

# The plan lives in planning.py; its two names stay importable from here, where checks run.
from prewrite_daemon.check.planning import CheckPlan as CheckPlan
from prewrite_daemon.check.planning import plan_check as plan_check
from prewrite_daemon.limits import Deadline

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable, Sequence

    from prewrite_daemon.backends.base import Backend, RawDiagnostic
    from prewrite_daemon.check.patch import FileEdit, PreparedPatch
    from prewrite_daemon.languages.base import DependencyGraph, Environment, Language, Scope
    from prewrite_daemon.shadow.tree import ShadowTree


@dataclass
class CheckContext:
    """What a check reads and updates of its workspace (owned by the workspace, under its lock)."""

    language: Language
    shadow: ShadowTree
    graph: DependencyGraph | None  # None: not built yet (``graph_ready`` waits for it)
    backend: Backend
    base_cache: dict[str, list[Diagnostic]] = field(default_factory=lambda: {})
    scope: Scope | None = None  # None: every file counts
    narrowing: bool = True  # False: every transitive importer of a patched file (``plan_check``)
    planning_budget_s: float = DEFAULT_PLANNING_BUDGET_S
    plan: CheckPlan | None = None  # the last check's plan (what it pruned, whether it fell back)
    # The graph once complete (a workspace's may still be building when its checker started).
    graph_ready: Callable[[], Awaitable[DependencyGraph]] | None = None
    activity: Activity = field(default_factory=Activity)  # what the check is doing, for status
    env: Environment | None = None  # the checker's: some planning rules depend on which one


async def _pull(
    ctx: CheckContext, rels: Iterable[str], deadline: Deadline
) -> dict[str, list[Diagnostic]]:
    rels = list(rels)

    async def pull(rel: str) -> list[RawDiagnostic]:
        found = await ctx.backend.diagnostics(ctx.shadow.shadow_path(rel), deadline.left())
        ctx.activity.advance()
        return found

    try:
        async with asyncio.TaskGroup() as tg:
            tasks = {rel: tg.create_task(pull(rel)) for rel in rels}
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
    """The candidate first, then the base only where the candidate has something to compare.

    The patched files are laid over the checker and pulled while the plan is made (they are in
    every plan); the importers the plan adds are pulled next. A file whose candidate has no
    diagnostic cannot hold one the patch introduced, so its base is never needed; the others'
    come from the cache or are pulled once the overlays are reverted (the disk's view).
    """
    deadline = Deadline(timeout_s)
    t0 = time.perf_counter()
    sure = patched_files(patch, ctx.language, ctx.scope)
    edits = {e.path: e for e in sure.source_edits}
    opened: list[str] = []
    laid: tuple[FileEdit, ...] = ()
    try:
        materialise(ctx, sure.source_edits)
        for rel in sure.checked:
            overlay(ctx, rel, edits[rel], opened)
        # A modified file the checker's scope leaves out is not judged, but what it now says is
        # what its importers must see (the CLI resolves imports to it whatever `include` says).
        for rel in sure.out_of_scope:
            if rel in ctx.shadow.files and edits[rel].old_text is not None:
                overlay(ctx, rel, edits[rel], opened)
        # Data a source may import must be laid first, and only the plan knows which it is.
        early = () if sure.maybe_data else sure.checked
        ctx.activity.begin("checking the patched files; planning which importers to check")
        try:
            async with asyncio.TaskGroup() as tg:
                planning = tg.create_task(_plan(ctx, patch, deadline))
                candidate = await _pull(ctx, early, deadline)
        except ExceptionGroup as group:
            raise _first_leaf(group) from None
        plan, plan_ms, graph = planning.result()
        ctx.plan = plan
        lay_data(ctx, plan.data_edits)
        laid = plan.data_edits
        others = [rel for rel in plan.checked if rel not in candidate]
        for rel in others:
            open_disk(ctx, rel, opened)  # importers; the patched files are laid already
        if others and early and (graph is None or graph.order_sensitive()):
            others = [*_checked_again(ctx, early, edits), *others]
        ctx.activity.begin("checking the files that import the patched ones", len(others))
        candidate |= await _pull(ctx, others, deadline)
        t_cand = time.perf_counter()
    finally:
        revert(ctx, sure.source_edits, opened)
        restore_data(ctx, laid)
    await pull_base(ctx, [r for r in plan.checked if candidate[r]], deadline)
    t_base = time.perf_counter()

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
            "plan_ms": plan_ms,  # while the patched files were pulled
            "candidate_ms": round((t_cand - t0) * 1000, 1),
            "base_ms": round((t_base - t_cand) * 1000, 1),
        },
        verified=verified,
        not_verified=[
            f"typecheck: {rel} is outside the checker's include/exclude/ignore: not judged"
            for rel in plan.out_of_scope
        ],
    )


def _checked_again(
    ctx: CheckContext, early: Sequence[str], edits: dict[str, FileEdit]
) -> list[str]:
    """The patched files, pulled before the importers were open, made to be checked again now
    that they are (the same text sent again): a report that follows open files only, pyright's
    import cycles, did not see a cycle through them (fuzz seed 10096: a wrong green)."""
    again: list[str] = []
    for rel in early:
        text = edits[rel].new_text
        if text is not None:
            ctx.backend.change(ctx.shadow.shadow_path(rel), text)
            again.append(rel)
    return again


async def _plan(
    ctx: CheckContext, patch: PreparedPatch, deadline: Deadline
) -> tuple[CheckPlan, float, DependencyGraph | None]:
    """The plan, how long it took and the graph it used: without the graph if it is not built
    and need not be (None), else with it (waiting for it to be built included)."""
    started = time.perf_counter()
    lang, scope, narrowing, budget = ctx.language, ctx.scope, ctx.narrowing, ctx.planning_budget_s
    graph, plan = ctx.graph, None
    if graph is None:
        plan = await plan_before_graph(patch, deadline, lang, scope, narrowing, budget, ctx.env)
        if plan is None:
            assert ctx.graph_ready is not None, "a check needs a graph or a way to wait for one"
            with ctx.activity.step("reading the workspace's imports (first check)"):
                graph = await ctx.graph_ready()
    if plan is None:
        assert graph is not None
        planner = Planner(graph, lang, scope, narrowing, budget, ctx.env)
        plan = await plan_off_loop(planner, patch, deadline)
    return plan, round((time.perf_counter() - started) * 1000, 1), graph


async def pull_base(ctx: CheckContext, rels: Sequence[str], deadline: Deadline) -> None:
    """Fill the base cache for ``rels`` that existed before the patch, as the disk has them."""
    needed = [r for r in rels if r in ctx.shadow.files and r not in ctx.base_cache]
    if needed:
        ctx.activity.begin("checking the same files without the patch", len(needed))
    opened: list[str] = []
    try:
        for rel in needed:
            open_disk(ctx, rel, opened)
        ctx.base_cache.update(await _pull(ctx, needed, deadline))
    finally:
        revert(ctx, (), opened)


async def pull_under(
    ctx: CheckContext, view: Sequence[FileEdit], rels: Sequence[str], deadline: Deadline
) -> dict[str, list[Diagnostic]]:
    """The diagnostics of ``rels`` (files ``view`` leaves alone) with ``view``'s edits (from the
    shadow's texts to the view's) laid over the checker; everything is put back on the way out."""
    opened: list[str] = []
    sources = [e for e in view if ctx.language.is_source(e.path)]
    data = [e for e in view if not ctx.language.is_source(e.path)]
    try:
        materialise(ctx, sources)
        lay_data(ctx, data)
        for e in sources:
            if e.old_text is not None and e.new_text is not None:
                overlay(ctx, e.path, e, opened)
        for rel in rels:
            open_disk(ctx, rel, opened)
        return await _pull(ctx, rels, deadline)
    finally:
        revert(ctx, sources, opened)
        restore_data(ctx, data)
