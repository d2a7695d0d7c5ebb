"""Which files a check compares (the plan), computed off the event loop within a budget.

The plan is the patched files plus the importers that may see what the patch changed. Narrowing
(``Language.interface_changed``, then ``DependencyGraph.affected``) prunes the importers it can
prove unchanged; without it (``narrowing`` False) every transitive importer of every patched
source file is compared, which is always sound: that is what a narrowed plan must agree with,
what the idle re-check compares the pruned files under (``recheck.py``), and what a plan falls
back to when narrowing runs past its budget.

Narrowing is CPU-bound and has been seen to take minutes on a large package (issue 19), so it
runs in a worker thread (``plan_off_loop``): every other client of the daemon keeps being
answered. That is safe because the graph is read only there and changes only on the event loop
under the workspace lock (``Workspace.sync`` and ``_rebuild_graph``; the watcher, ``apply``'s
sync and the editors all take the lock first), which the check holds until the thread has ended
— also when the check is cancelled. Past the budget (``DEFAULT_PLANNING_BUDGET_S``, never more
than half of what the request has left, so the wider check has time), the plan is every
importer and says how long narrowing ran (``CheckPlan.fallback_ms``, on the receipt).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from prewrite_daemon.languages.base import PlanningBudgetExceeded

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.languages.base import DependencyGraph, Language, Scope
    from prewrite_daemon.limits import Deadline
    from prewrite_daemon.patch import FileEdit, PreparedPatch

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_PLANNING_BUDGET_S = 2.0
# A graph that does not honour its deadline is not waited for longer than this past the budget
# (the plan falls back meanwhile; the stray thread only reads).
STRAY_GRACE_S = 1.0


@dataclass(frozen=True)
class CheckPlan:
    source_edits: tuple[FileEdit, ...]
    checked: tuple[str, ...]  # files whose diagnostics are compared (exist in the candidate)
    out_of_scope: tuple[str, ...] = ()  # patched files the project's checker does not cover
    pruned: tuple[str, ...] = ()  # importers in scope that narrowing left out (re-checked idle)
    fallback_ms: float | None = None  # narrowing ran past its budget after this long


def plan_check(
    patch: PreparedPatch,
    graph: DependencyGraph,
    language: Language,
    scope: Scope | None = None,
    *,
    narrowing: bool = True,
    deadline: float | None = None,
) -> CheckPlan:
    """Choose the files to compare: the patched ones plus importers that may see a change.

    Only files the project's checker configuration covers count (as the CLI reports them).
    ``narrowing`` False plans without any narrowing: every transitive importer of every patched
    source file (``graph.importers``), whether or not its interface changed — the reference a
    narrowed plan must agree with (a workspace's ``narrowing`` attribute sets it for its checks).
    ``deadline`` (``time.monotonic()``): past it, narrowing raises ``PlanningBudgetExceeded``.
    """
    py = tuple(e for e in patch.edits if language.is_source(e.path))
    deleted = {e.path for e in py if e.new_text is None}
    checked = {e.path for e in py if e.new_text is not None}
    pruned: set[str] = set()
    if any(language.reaches_everything(e.path, e.old_text, e.new_text) for e in py):
        checked |= graph.files() - deleted  # no import edge bounds it: the whole project
    elif not narrowing:
        checked |= graph.importers(e.path for e in py) - deleted
    else:
        reaching: list[tuple[str, str | None, str | None]] = []
        for e in py:
            if language.interface_changed(e.path, e.old_text, e.new_text):
                reaching.append((e.path, e.old_text, e.new_text))
            if deadline is not None and time.monotonic() > deadline:
                raise PlanningBudgetExceeded(f"deciding whether {e.path}'s interface changed")
        if reaching:
            checked |= graph.affected(reaching, deadline) - deleted
        pruned = graph.importers(e.path for e in py) - checked - deleted
    patched = {e.path for e in py if e.new_text is not None}
    if scope is None:
        return CheckPlan(py, tuple(sorted(checked)), pruned=tuple(sorted(pruned)))
    return CheckPlan(
        py,
        tuple(sorted(r for r in checked if scope.covers(r))),
        tuple(sorted(r for r in patched if not scope.covers(r))),
        tuple(sorted(r for r in pruned if scope.covers(r))),
    )


@dataclass(frozen=True)
class Planner:
    """What planning reads of a workspace (the graph is read only, under the workspace lock)."""

    graph: DependencyGraph
    language: Language
    scope: Scope | None
    narrowing: bool = True
    budget_s: float = DEFAULT_PLANNING_BUDGET_S


async def plan_off_loop(planner: Planner, patch: PreparedPatch, deadline: Deadline) -> CheckPlan:
    """``plan_check`` in a worker thread within the budget; past it, every importer."""
    budget = min(planner.budget_s, deadline.left() / 2)
    started = time.monotonic()
    stop = started + budget

    def narrowed() -> CheckPlan:
        try:
            return plan_check(patch, planner.graph, planner.language, planner.scope,
                              narrowing=planner.narrowing, deadline=stop)  # fmt: skip
        except PlanningBudgetExceeded:
            return _wide(planner, patch, started)

    plan = await _in_thread(narrowed, budget + STRAY_GRACE_S)
    if plan is None:  # the graph ignored its deadline: do not wait for it
        log.error("planning ignored its deadline of %.1fs; every importer checked", budget)
        plan = await _in_thread(lambda: _wide(planner, patch, started), None)
        assert plan is not None
    if plan.fallback_ms is not None:
        log.info("narrowing stopped after %.0f ms: every importer checked", plan.fallback_ms)
    return plan


def _wide(planner: Planner, patch: PreparedPatch, started: float) -> CheckPlan:
    wide = plan_check(patch, planner.graph, planner.language, planner.scope, narrowing=False)
    return replace(wide, fallback_ms=round((time.monotonic() - started) * 1000, 1))


async def _in_thread(work: Callable[[], T], timeout_s: float | None) -> T | None:
    """``work()`` in the default executor; None if it has not ended within ``timeout_s``.

    Cancelled meanwhile, it still waits (at most ``STRAY_GRACE_S`` more) for the thread to end
    before the cancellation goes on: the caller's lock must outlive the thread's reads."""
    future = asyncio.get_running_loop().run_in_executor(None, work)
    try:
        done, _ = await asyncio.wait({future}, timeout=timeout_s)
    except asyncio.CancelledError:
        await asyncio.wait({future}, timeout=STRAY_GRACE_S)
        raise
    return future.result() if done else None
