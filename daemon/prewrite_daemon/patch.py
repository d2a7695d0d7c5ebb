"""Validate a patch against the workspace before any checker sees it.

Every path must stay inside the root (no ``..``, no absolute path, no symlink escape) and outside
``.git/``; every ``base_sha256`` must match the bytes on disk now (``None`` means "must not exist").
All problems of one kind are collected so an agent can fix them in one go.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from prewrite.errors import (
    BadRequest,
    ErrorDetail,
    ForbiddenPath,
    InvalidWorkspace,
    PathOutsideWorkspace,
    StaleBase,
)

if TYPE_CHECKING:
    from prewrite.protocol import FileChange
from prewrite_daemon.ladder.anchor import apply_edits

_FORBIDDEN_DIRS = frozenset({".git"})


@dataclass(frozen=True)
class FileEdit:
    """One validated change: ``old_text`` None = new file; ``new_text`` None = deletion."""

    path: str  # normalized, relative to the root, '/'-separated
    old_text: str | None
    new_text: str | None

    @property
    def is_python(self) -> bool:
        return self.path.endswith((".py", ".pyi"))


@dataclass(frozen=True)
class PreparedPatch:
    root: Path
    edits: tuple[FileEdit, ...]


def resolve_root(root: str) -> Path:
    path = Path(root)
    if not path.is_absolute():
        raise InvalidWorkspace(f"workspace root must be absolute: {root}")
    if not path.is_dir():
        raise InvalidWorkspace(f"workspace root is not a directory: {root}")
    return path.resolve()


def normalize_path(root: Path, raw: str) -> str:
    """The root-relative POSIX form of ``raw``, or a typed error if it may not be touched."""
    if not raw or "\x00" in raw or raw.endswith("/"):
        raise BadRequest(f"invalid path {raw!r}", [ErrorDetail("not a file path", raw)])
    pure = PurePosixPath(raw)
    if pure.is_absolute() or raw.startswith("\\") or ".." in pure.parts:
        raise PathOutsideWorkspace(
            f"path {raw!r} is outside the workspace", [ErrorDetail("outside the root", raw)]
        )
    parts = [p for p in pure.parts if p != "."]
    if not parts:
        raise BadRequest(f"invalid path {raw!r}", [ErrorDetail("not a file path", raw)])
    if any(p.lower() in _FORBIDDEN_DIRS for p in parts):
        raise ForbiddenPath(f"path {raw!r} is inside .git", [ErrorDetail("forbidden", raw)])
    rel = "/".join(parts)
    # Symlinks: the real location of the file (or of its parent, for a new file) must stay inside.
    real = Path(os.path.realpath(root / rel))
    if real != root and root not in real.parents:
        raise PathOutsideWorkspace(
            f"path {raw!r} resolves outside the workspace through a symlink",
            [ErrorDetail(f"resolves to {real}", raw)],
        )
    if any(p.lower() in _FORBIDDEN_DIRS for p in real.relative_to(root).parts):
        raise ForbiddenPath(f"path {raw!r} resolves into .git", [ErrorDetail("forbidden", raw)])
    return rel


def _read_text(path: Path, rel: str) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"{rel} is not UTF-8 text", [ErrorDetail("not UTF-8", rel)]) from exc


def prepare_patch(root: Path, changes: list[FileChange]) -> PreparedPatch:
    """Check paths, shapes and base hashes; read the base texts. Raises on the first bad kind."""
    if not changes:
        raise BadRequest("the patch has no changes")
    seen: set[str] = set()
    seen_real: set[str] = set()
    stale: list[ErrorDetail] = []
    edits: list[FileEdit] = []
    for change in changes:
        rel = normalize_path(root, change.path)
        real = os.path.realpath(root / rel)  # two names for one file (a symlink) are one file
        if rel in seen or real in seen_real:
            raise BadRequest(f"{rel} appears twice in the patch", [ErrorDetail("duplicate", rel)])
        seen.add(rel)
        seen_real.add(real)
        forms = [change.content is not None, change.delete, change.edits is not None]
        if sum(forms) != 1:
            raise BadRequest(
                f"{rel}: give exactly one of 'content', 'edits' or 'delete'",
                [ErrorDetail("needs exactly one of content, edits, delete", rel)],
            )
        disk = root / rel
        if disk.is_dir():
            raise BadRequest(f"{rel} is a directory", [ErrorDetail("is a directory", rel)])
        exists = disk.is_file()
        if change.base_sha256 is None:
            if exists:
                stale.append(ErrorDetail("exists on disk but base_sha256 is null", rel))
                continue
            if change.content is None:
                raise BadRequest(
                    f"{rel}: deleting or editing needs the base_sha256 of the file",
                    [ErrorDetail("delete or edits without base", rel)],
                )
            edits.append(FileEdit(rel, None, change.content))
            continue
        if not exists:
            stale.append(ErrorDetail("does not exist on disk", rel))
            continue
        data = disk.read_bytes()
        actual = hashlib.sha256(data).hexdigest()
        if actual != change.base_sha256.lower():
            stale.append(ErrorDetail(f"base_sha256 {change.base_sha256} != disk {actual}", rel))
            continue
        edits.append(FileEdit(rel, _read_text(disk, rel), change.content))
    if stale:
        raise StaleBase(f"{len(stale)} file(s) changed since the patch was made", stale)
    return PreparedPatch(root, tuple(_anchored(e, c) for e, c in zip(edits, changes, strict=True)))


def _anchored(edit: FileEdit, change: FileChange) -> FileEdit:
    """Apply a change's anchored find/replace edits to the base text (every other form as is)."""
    if change.edits is None or edit.old_text is None:
        return edit
    pairs = [(e.find, e.replace) for e in change.edits]
    if not pairs:
        raise BadRequest(f"{edit.path}: 'edits' is empty", [ErrorDetail("no edits", edit.path)])
    return FileEdit(edit.path, edit.old_text, apply_edits(edit.path, edit.old_text, pairs))
