"""Which files a check compares (the plan), computed off the event loop within a budget.

The plan is the patched files plus the importers that may see what the patch changed. Narrowing
(``Language.interface_changed``, then ``DependencyGraph.affected``) prunes the importers it can
prove unchanged; without it (``narrowing`` False) every transitive importer of every patched
source file is compared, which is always sound: that is what a narrowed plan must agree with,
what the idle re-check compares the pruned files under (``recheck/pending.py``), and what a plan
falls back to when narrowing runs past its budget.

Narrowing is CPU-bound and has been seen to take minutes on a large package (issue 19), so it
runs in a thread of its own (``plan_off_loop``): every other client of the daemon keeps being
answered. That is safe because the graph is read only there and changes only on the event loop
under the workspace lock (``Workspace.sync`` and ``_rebuild_graph``; the watcher, ``apply``'s
sync and the editors all take the lock first), which the check holds until the thread has ended
— also when the check is cancelled (the thread is interrupted then, and waited for). Past the
budget (``DEFAULT_PLANNING_BUDGET_S``, never more than half of what the request has left, so the
wider check has time), the plan is every importer and says how long narrowing ran
(``CheckPlan.fallback_ms``, on the receipt). A planner that does not stop at its deadline is
interrupted ``STRAY_GRACE_S`` after it, never left running.

A plan needs the graph only when the graph can change it. A patch that leaves every patched
module's interface alone (a body-only edit) compares the patched files alone, whatever the graph
says, so it is planned without one (``plan_before_graph``) while a workspace's graph is not built
yet; the importers it prunes (every importer of the patched files) are the graph's, later
(``CheckPlan.pruned_later``, ``pruned_importers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from prewrite_daemon.concurrency.interruptible import Interrupted, InterruptibleThread
from prewrite_daemon.languages.base import PlanningBudgetExceeded

if TYPE_CHECKING:
    from collections.abc import Iterable

    from prewrite_daemon.check.patch import FileEdit, PreparedPatch
    from prewrite_daemon.languages.base import DependencyGraph, Environment, Language, Scope
    from prewrite_daemon.limits import Deadline

log = logging.getLogger(__name__)

DEFAULT_PLANNING_BUDGET_S = 2.0
# A planner that does not honour its deadline is waited for this long past it, then interrupted
# (``concurrency/interruptible.py``), and waited for as long again; the plan falls back meanwhile.
STRAY_GRACE_S = 1.0


@dataclass(frozen=True)
class CheckPlan:
    source_edits: tuple[FileEdit, ...]
    checked: tuple[str, ...]  # files whose diagnostics are compared (exist in the candidate)
    out_of_scope: tuple[str, ...] = ()  # patched files the project's checker does not cover
    pruned: tuple[str, ...] = ()  # importers in scope that narrowing left out (re-checked idle)
    fallback_ms: float | None = None  # narrowing ran past its budget after this long
    # Files that are not sources but that sources import (a JSON module under
    # ``resolveJsonModule``): written into the shadow for the check, as the checker reads them.
    data_edits: tuple[FileEdit, ...] = ()
    # Planned without the graph: ``pruned`` is every importer of the patched files, in scope,
    # once the graph is built (``pruned_importers``).
    pruned_later: bool = False


@dataclass(frozen=True)
class PatchedFiles:
    """What every plan of a patch holds, whatever the graph says: its source edits, the patched
    files it compares (in the checker's scope and in the candidate) and the patched files the
    scope leaves out. Known before planning, so a check pulls these while the plan is made."""

    source_edits: tuple[FileEdit, ...]
    checked: tuple[str, ...]
    out_of_scope: tuple[str, ...]
    # Edits of other files than sources and the checker's settings: data a source may import
    # (the graph decides, ``imported_data``), laid in the shadow before anything is pulled.
    maybe_data: bool


def patched_files(
    patch: PreparedPatch, language: Language, scope: Scope | None = None
) -> PatchedFiles:
    py = tuple(e for e in patch.edits if language.is_source(e.path))
    patched = sorted(e.path for e in py if e.new_text is not None)
    data = any(
        not language.is_source(e.path) and not language.is_checker_config(e.path)
        for e in patch.edits
    )
    if scope is None:
        return PatchedFiles(py, tuple(patched), (), data)
    return PatchedFiles(
        py,
        tuple(r for r in patched if scope.covers(r)),
        tuple(r for r in patched if not scope.covers(r)),
        data,
    )


def plan_check(
    patch: PreparedPatch,
    graph: DependencyGraph,
    language: Language,
    scope: Scope | None = None,
    *,
    narrowing: bool = True,
    deadline: float | None = None,
    env: Environment | None = None,
) -> CheckPlan:
    """Choose the files to compare: the patched ones plus importers that may see a change.

    Only files the project's checker configuration covers count (as the CLI reports them).
    ``narrowing`` False plans without any narrowing: every transitive importer of every patched
    source file (``graph.importers``), whether or not its interface changed — the reference a
    narrowed plan must agree with (a workspace's ``narrowing`` attribute sets it for its checks).
    ``deadline`` (``time.monotonic()``): past it, narrowing raises ``PlanningBudgetExceeded``.
    ``env``: the checker's environment (``Language.interface_changed``). Its patched files are
    ``patched_files``'s.
    """
    sure = patched_files(patch, language, scope)
    py = sure.source_edits
    data = imported_data(patch, graph, language)
    everything = [e.path for e in (*py, *data)]
    deleted = {e.path for e in py if e.new_text is None}
    checked = {e.path for e in py if e.new_text is not None}
    pruned: set[str] = set()
    if any(language.reaches_everything(e.path, e.old_text, e.new_text) for e in py):
        checked |= graph.files() - deleted  # no import edge bounds it: the whole project
    elif not narrowing:
        checked |= graph.importers(everything) - deleted
    else:
        reaching: list[tuple[str, str | None, str | None]] = []
        for e in py:
            if language.interface_changed(e.path, e.old_text, e.new_text, env):
                reaching.append((e.path, e.old_text, e.new_text))
            if deadline is not None and time.monotonic() > deadline:
                raise PlanningBudgetExceeded(f"deciding whether {e.path}'s interface changed")
        reaching += [(e.path, e.old_text, e.new_text) for e in data]
        if reaching:
            checked |= graph.affected(reaching, deadline) - deleted
        pruned = graph.importers(everything) - checked - deleted
    if scope is None:
        return CheckPlan(py, tuple(sorted(checked)), pruned=tuple(sorted(pruned)), data_edits=data)
    return CheckPlan(
        py,
        tuple(sorted(r for r in checked if scope.covers(r))),
        sure.out_of_scope,
        tuple(sorted(r for r in pruned if scope.covers(r))),
        data_edits=data,
    )


def imported_data(
    patch: PreparedPatch, graph: DependencyGraph, language: Language
) -> tuple[FileEdit, ...]:
    """The patch's edits of files that are not sources but that a source imports (TypeScript's
    ``import data from "./data.json"``): the checker reads them from the shadow, so they are
    laid there for the check, and their importers are planned like a changed module's."""
    return tuple(
        e
        for e in patch.edits
        if not language.is_source(e.path)
        and not language.is_checker_config(e.path)
        and graph.importers([e.path], transitive=False)
    )


def plan_without_graph(
    patch: PreparedPatch,
    language: Language,
    scope: Scope | None = None,
    *,
    narrowing: bool = True,
    deadline: float | None = None,
    env: Environment | None = None,
) -> CheckPlan | None:
    """``plan_check``'s plan when no graph can change it, else None: narrowing on, and no patched
    file reaches everything, may be data a source imports, or changes its module's interface
    (added and deleted modules do). Then only the patched files are compared."""
    sure = patched_files(patch, language, scope)
    if not narrowing or sure.maybe_data:
        return None
    for e in sure.source_edits:
        if language.reaches_everything(e.path, e.old_text, e.new_text):
            return None
        if language.interface_changed(e.path, e.old_text, e.new_text, env):
            return None
        if deadline is not None and time.monotonic() > deadline:
            return None
    return CheckPlan(sure.source_edits, sure.checked, sure.out_of_scope, pruned_later=True)


def pruned_importers(
    files: Iterable[str], graph: DependencyGraph, scope: Scope | None
) -> tuple[str, ...]:
    """What a plan made without the graph pruned: every importer of its patched ``files``."""
    found = graph.importers(files)
    return tuple(sorted(r for r in found if scope is None or scope.covers(r)))


async def plan_before_graph(
    patch: PreparedPatch,
    deadline: Deadline,
    language: Language,
    scope: Scope | None,
    narrowing: bool = True,
    budget_s: float = DEFAULT_PLANNING_BUDGET_S,
    env: Environment | None = None,
) -> CheckPlan | None:
    """``plan_without_graph`` in a thread of its own within the budget; None: ask the graph."""
    budget = min(budget_s, deadline.left() / 2)
    stop = time.monotonic() + budget

    def plan() -> CheckPlan | None:
        return plan_without_graph(
            patch, language, scope, narrowing=narrowing, deadline=stop, env=env
        )

    job = InterruptibleThread(plan, "prewrite planning")
    try:
        found = await job.wait(budget + STRAY_GRACE_S)
    except Exception:  # the graph's planner decides, and widens if it cannot
        log.exception("planning without the graph failed")
        found = None
    finally:
        if job.running:  # past its deadline, or cancelled: never left running
            job.keep_interrupting(STRAY_GRACE_S)
    return found


@dataclass(frozen=True)
class Planner:
    """What planning reads of a workspace (the graph is read only, under the workspace lock)."""

    graph: DependencyGraph
    language: Language
    scope: Scope | None
    narrowing: bool = True
    budget_s: float = DEFAULT_PLANNING_BUDGET_S
    env: Environment | None = None  # the checker's (``Language.interface_changed``)


async def plan_off_loop(planner: Planner, patch: PreparedPatch, deadline: Deadline) -> CheckPlan:
    """``plan_check`` in a thread of its own within the budget; past it, every importer."""
    budget = min(planner.budget_s, deadline.left() / 2)
    started = time.monotonic()
    stop = started + budget

    def narrowed() -> CheckPlan:
        try:
            return plan_check(patch, planner.graph, planner.language, planner.scope,
                              narrowing=planner.narrowing, deadline=stop,
                              env=planner.env)  # fmt: skip
        except PlanningBudgetExceeded:
            return _wide(planner, patch, started)

    job = InterruptibleThread(narrowed, "prewrite planning")
    try:
        plan = await job.wait(budget + STRAY_GRACE_S)
        if plan is None:  # the planner did not look at its deadline: stop it
            log.error("planning ran %.1fs past its deadline; interrupted", STRAY_GRACE_S)
            job.keep_interrupting(STRAY_GRACE_S)
            plan = await job.wait(STRAY_GRACE_S)
    except Interrupted:
        plan = None
    except Exception:  # a planner that fails widens, as anything it cannot model does
        log.exception("planning failed; every importer checked")
        plan = None
    except asyncio.CancelledError:
        # The graph may change once the caller's lock is released: end the reads first.
        job.keep_interrupting(STRAY_GRACE_S)
        with contextlib.suppress(Exception):
            await job.wait(STRAY_GRACE_S)
        raise
    if plan is None:  # on the loop: every importer takes milliseconds, and the thread only reads
        plan = _wide(planner, patch, started)
    if plan.fallback_ms is not None:
        log.info("narrowing stopped after %.0f ms: every importer checked", plan.fallback_ms)
    return plan


def _wide(planner: Planner, patch: PreparedPatch, started: float) -> CheckPlan:
    wide = plan_check(patch, planner.graph, planner.language, planner.scope, narrowing=False)
    return replace(wide, fallback_ms=round((time.monotonic() - started) * 1000, 1))
