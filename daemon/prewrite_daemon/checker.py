"""The overlay check of one patch on one warm workspace: base, candidate, revert, diff.

Runs under the workspace lock, so no two checks on one server ever see each other's overlays.
Modified files become in-memory documents (opened with the disk text, then changed to the
candidate: pyright only invalidates importers on a change). New and deleted modules are
materialised in the shadow and announced as file events, because pyright resolves imports from
disk. Everything is put back in ``finally``, so a failure or a cancelled request (a client that
hung up) leaves no overlay behind.
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

if TYPE_CHECKING:
    from collections.abc import Iterable

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


@dataclass(frozen=True)
class CheckPlan:
    source_edits: tuple[FileEdit, ...]
    checked: tuple[str, ...]  # files whose diagnostics are compared (exist in the candidate)
    out_of_scope: tuple[str, ...] = ()  # patched files the project's checker does not cover


def plan_check(
    patch: PreparedPatch,
    graph: DependencyGraph,
    language: Language,
    scope: Scope | None = None,
    *,
    narrowing: bool = True,
) -> CheckPlan:
    """Choose the files to compare: the patched ones plus importers that may see a change.

    Only files the project's checker configuration covers count (as the CLI reports them).
    ``narrowing`` False plans without any narrowing: every transitive importer of every patched
    source file (``graph.importers``), whether or not its interface changed — the reference a
    narrowed plan must agree with (a workspace's ``narrowing`` attribute sets it for its checks).
    """
    py = tuple(e for e in patch.edits if language.is_source(e.path))
    deleted = {e.path for e in py if e.new_text is None}
    checked = {e.path for e in py if e.new_text is not None}
    if any(language.reaches_everything(e.path, e.old_text, e.new_text) for e in py):
        checked |= graph.files() - deleted  # no import edge bounds it: the whole project
    elif not narrowing:
        checked |= graph.importers(e.path for e in py) - deleted
    else:
        reaching = [
            (e.path, e.old_text, e.new_text)
            for e in py
            if language.interface_changed(e.path, e.old_text, e.new_text)
        ]
        if reaching:
            checked |= graph.affected(reaching) - deleted
    if scope is None:
        return CheckPlan(py, tuple(sorted(checked)))
    patched = {e.path for e in py if e.new_text is not None}
    outside = tuple(sorted(r for r in patched if not scope.covers(r)))
    return CheckPlan(py, tuple(sorted(r for r in checked if scope.covers(r))), outside)


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
    plan = plan_check(patch, ctx.graph, ctx.language, ctx.scope, narrowing=ctx.narrowing)
    shadow, backend = ctx.shadow, ctx.backend
    edits = {e.path: e for e in plan.source_edits}

    # Base diagnostics, for files that exist before the patch (cached until the tree moves).
    base_needed = [r for r in plan.checked if r in shadow.files and r not in ctx.base_cache]
    opened: list[str] = []
    try:
        for rel in base_needed:
            _open_disk(ctx, rel, opened)
        ctx.base_cache.update(await _pull(ctx, base_needed, deadline))
        t_base = time.perf_counter()

        events: list[FileEvent] = []
        for e in plan.source_edits:
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

    new = introduced_by_patch(ctx.base_cache, candidate, edits, plan.checked)
    return CheckReply(
        ok=not has_error(new),
        diagnostics=new,
        checked_files=list(plan.checked),
        timings_ms={
            "base_ms": round((t_base - t0) * 1000, 1),
            "candidate_ms": round((t_cand - t_base) * 1000, 1),
        },
        not_verified=[
            f"typecheck: {rel} is outside the checker's include/exclude/ignore: not judged"
            for rel in plan.out_of_scope
        ],
    )


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
