"""Laying a patch over a warm checker and taking it back: documents, materialised files, data.

Modified files become in-memory documents, opened with the disk text and then changed to the
candidate (pyright only invalidates importers on a change). New and deleted modules are
materialised in the shadow and announced as file events, because pyright resolves imports from
disk; so are data files a source imports (JSON modules). ``revert`` and ``restore_data`` put the
checker and the shadow back as the workspace has them (a check calls them in ``finally``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from prewrite.errors import BadRequest, ErrorDetail
from prewrite_daemon.backends.base import FileEvent

if TYPE_CHECKING:
    from collections.abc import Iterable

    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.check.patch import FileEdit
    from prewrite_daemon.shadow.tree import ShadowTree


class Overlaid(Protocol):
    """What is laid over: the workspace's shadow and its checker (a ``CheckContext``)."""

    @property
    def shadow(self) -> ShadowTree: ...

    @property
    def backend(self) -> Backend: ...


def materialise(ctx: Overlaid, edits: Iterable[FileEdit]) -> None:
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


def lay_data(ctx: Overlaid, edits: Iterable[FileEdit]) -> None:
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


def restore_data(ctx: Overlaid, edits: Iterable[FileEdit]) -> None:
    shadow, backend = ctx.shadow, ctx.backend
    events = list[FileEvent]()
    for e in edits:
        shadow.restore(e.path)
        kind = "deleted" if e.old_text is None else "created" if e.new_text is None else "changed"
        events.append(FileEvent(shadow.shadow_path(e.path), kind))
    if backend.pid is not None and not backend.exited:
        backend.files_changed(events)


def overlay(ctx: Overlaid, rel: str, edit: FileEdit | None, opened: list[str]) -> None:
    """Open ``rel`` as the candidate has it: a new file with its text, a modified one with its
    disk text then changed (pyright only invalidates importers on a change), others as on disk."""
    path = ctx.shadow.shadow_path(rel)
    if edit is not None and edit.old_text is None:
        assert edit.new_text is not None
        ctx.backend.open(path, edit.new_text)
        opened.append(rel)
        return
    open_disk(ctx, rel, opened)
    if edit is not None and edit.new_text is not None:
        ctx.backend.change(path, edit.new_text)


def open_disk(ctx: Overlaid, rel: str, opened: list[str]) -> None:
    path = ctx.shadow.shadow_path(rel)
    if ctx.backend.is_open(path):
        return
    text = ctx.shadow.read_text(rel)
    if text is None:
        raise BadRequest(f"{rel} is not UTF-8 text", [ErrorDetail("not UTF-8", rel)])
    ctx.backend.open(path, text)
    opened.append(rel)


def revert(ctx: Overlaid, edits: Iterable[FileEdit], opened: list[str]) -> None:
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
    if alive and events:
        backend.files_changed(events)
