"""A narrowed green, checked again later without narrowing: what the plan pruned, compared.

A check that narrows compares only the importers that can see what the patch changed; the rest
are pruned (``CheckPlan.pruned``). If the planner was wrong and the check was green, nothing
would ever say so: once the patch is written its error is part of the base, and every later
check diffs it out. So each narrowed green is remembered (``PendingRecheck``: the patch's
texts, the pruned files, when) and, when the workspace is idle (``recheck/idle.py``), the pruned
files' diagnostics are pulled under the base texts and under the candidate texts — overlays
both ways, so the comparison holds whether or not ``apply`` has written the patch since — and
diffed as a check diffs them. Anything the patch introduced there is a narrowing miss.

A remembered green is forgotten when the tree moves other than by writing that patch (a file
outside it changed, the checker restarted): the comparison would no longer be about the tree the
verdict was given on. The queue is bounded (``MAX_QUEUED``; the oldest goes first). What each
view pulled is kept, so a re-check preempted by a request resumes where it stopped.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite_daemon.backends.base import BackendState
from prewrite_daemon.check.diagnostics import introduced_by_patch
from prewrite_daemon.check.patch import FileEdit
from prewrite_daemon.checker import CheckContext, pull_under

if TYPE_CHECKING:
    from collections.abc import Iterable

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.limits import Deadline
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

MAX_QUEUED = 8  # narrowed greens waiting to be re-checked per workspace
PULL_CHUNK = 16  # pruned files pulled at once (a preemption loses at most one chunk's work)


@dataclass
class PendingRecheck:
    """One narrowed green: its source edits (old -> new text), the importers it pruned."""

    edits: tuple[FileEdit, ...]
    pruned: tuple[str, ...]
    generation: int  # the shadow's generation the verdict was given at
    checked_at: str  # local time, for the record
    base: dict[str, list[Diagnostic]] = field(default_factory=lambda: {})  # pulled so far
    candidate: dict[str, list[Diagnostic]] = field(default_factory=lambda: {})
    attempts: int = 0
    timeouts: int = 0

    @property
    def files(self) -> list[str]:
        return [e.path for e in self.edits]


class RecheckQueue:
    """The narrowed greens of one workspace still to re-check (changed under its lock)."""

    def __init__(self, cap: int = MAX_QUEUED) -> None:
        self.cap = cap
        self._items: deque[PendingRecheck] = deque()
        self.dropped = 0  # forgotten unchecked (the tree moved, the queue was full, a failure)

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: PendingRecheck) -> None:
        if len(self._items) >= self.cap:
            self._drop(self._items.popleft(), "the queue is full")
        self._items.append(item)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def first(self) -> PendingRecheck | None:
        return self._items[0] if self._items else None

    def done(self, item: PendingRecheck) -> None:
        if item in self._items:
            self._items.remove(item)

    def give_up(self, item: PendingRecheck, why: str) -> None:
        if item in self._items:
            self._items.remove(item)
            self._drop(item, why)

    def tree_moved(self, changed: Iterable[str]) -> None:
        """Files moved on disk: a green survives only a write of its own patch."""
        changed = set(changed)
        for item in list(self._items):
            if not changed <= set(item.files):
                self.give_up(item, f"the tree moved ({', '.join(sorted(changed)[:3])})")

    def clear(self, why: str) -> None:
        while self._items:
            self._drop(self._items.popleft(), why)

    def _drop(self, item: PendingRecheck, why: str) -> None:
        self.dropped += 1
        log.info("narrowed green of %s not re-checked: %s", ", ".join(item.files), why)


async def recheck(ws: Workspace, item: PendingRecheck, deadline: Deadline) -> list[Diagnostic]:
    """What ``item``'s patch introduced in the files its plan pruned; the caller holds the
    workspace lock. Nothing (and ``item`` given up) when the tree is not the one it was
    judged on: another checker, another environment, other files."""
    backend = ws.backend
    running = backend is not None and backend.state is BackendState.RUNNING
    if backend is None or not running or backend.exited or ws.layout is None:
        ws.rechecks.clear("the checker is not running")
        return []
    if ws.peek_environment() != ws.backend_env:
        ws.rechecks.clear("the environment moved")
        return []
    ws.editor_layer.clear(backend)  # as for a check: the disk and the patch, no buffers
    ws.sync(backend)  # files moved since: ``tree_moved`` gives the item up
    if item not in ws.rechecks:
        return []
    ctx = CheckContext(ws.language, ws.shadow, ws.graph, backend, {}, ws.layout.scope)
    found = await compare_pruned(ctx, item, deadline)
    if found is None:
        ws.rechecks.give_up(item, "the patched files hold neither its base nor its candidate")
        return []
    return found


def written_state(ctx: CheckContext, item: PendingRecheck) -> str | None:
    """Whether the shadow holds the patch's base texts ("base"), its candidate texts
    ("candidate"), or neither (None: something else moved; the green cannot be re-checked)."""
    texts = [
        ctx.shadow.read_text(e.path) if e.path in ctx.shadow.files else None for e in item.edits
    ]
    if all(t == e.old_text for t, e in zip(texts, item.edits, strict=True)):
        return "base"
    if all(t == e.new_text for t, e in zip(texts, item.edits, strict=True)):
        return "candidate"
    return None


async def compare_pruned(
    ctx: CheckContext, item: PendingRecheck, deadline: Deadline
) -> list[Diagnostic] | None:
    """What the patch introduced in the files its plan pruned (None: the tree is neither the
    base nor the candidate any more). Resumes from what earlier attempts pulled."""
    state = written_state(ctx, item)
    if state is None:
        return None
    backwards = tuple(FileEdit(e.path, e.new_text, e.old_text) for e in item.edits)
    views = {
        "base": (() if state == "base" else backwards, item.base),
        "candidate": (item.edits if state == "base" else (), item.candidate),
    }
    rels = [r for r in item.pruned if r in ctx.shadow.files]
    for view, pulled in views.values():
        todo = [r for r in rels if r not in pulled]
        for i in range(0, len(todo), PULL_CHUNK):
            pulled.update(await pull_under(ctx, view, todo[i : i + PULL_CHUNK], deadline))
    return introduced_by_patch(item.base, item.candidate, {}, rels)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")
