"""Validate a patch against the workspace before any checker sees it.

Every path must stay inside the root (no ``..``, no absolute path, no symlink escape) and outside
``.git/``; every ``base_sha256`` must match the bytes on disk now (``None`` means "must not exist").
All problems of one kind are collected so an agent can fix them in one go. The input limits
(``prewrite.admission``) are checked first, before a file is read; a Python file's size once its
anchored edits are applied, right after them.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from prewrite.admission import admit, check_path_chars, check_written, text_bytes
from prewrite.errors import (
    BadRequest,
    ErrorDetail,
    ForbiddenPath,
    InvalidWorkspace,
    PathOutsideWorkspace,
    StaleBase,
)
from prewrite.files import SOURCE_LIMIT, read_regular
from prewrite_daemon.check.anchor import apply_edits

if TYPE_CHECKING:
    from prewrite.protocol import FileChange

_FORBIDDEN_DIRS = frozenset({".git"})
NAME_MAX = 255  # bytes in one path component (Linux, macOS)
PATH_MAX = 4096  # bytes in a path, its terminating NUL included


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
    """The canonical root-relative POSIX form of ``raw``, or a typed error if it may not be
    touched. A path through an in-root symlink (``src -> real_src``: ``src/a.py``) names the
    real file (``real_src/a.py``), so the shadow, the checker and the writer all see one file.
    Errors name the path as given (a control character escaped).
    """
    check_path_chars(raw)  # a newline could forge lines wherever the path is shown
    if not raw or raw.endswith("/"):
        raise BadRequest(f"invalid path {raw!r}", [ErrorDetail("not a file path", raw)])
    pure = PurePosixPath(raw)
    if pure.is_absolute() or raw.startswith("\\") or ".." in pure.parts:
        raise PathOutsideWorkspace(
            f"path {raw!r} is outside the workspace", [ErrorDetail("outside the root", raw)]
        )
    parts = [p for p in pure.parts if p != "."]
    if not parts:
        raise BadRequest(f"invalid path {raw!r}", [ErrorDetail("not a file path", raw)])
    _check_lengths(root, raw, parts)
    if any(p.lower() in _FORBIDDEN_DIRS for p in parts):
        raise ForbiddenPath(f"path {raw!r} is inside .git", [ErrorDetail("forbidden", raw)])
    rel = "/".join(parts)
    # Symlinks: the real location of the file (or of its parent, for a new file) must stay inside.
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(root / rel))
    if real != real_root and real_root not in real.parents:
        raise PathOutsideWorkspace(
            f"path {raw!r} resolves outside the workspace through a symlink",
            [ErrorDetail(f"resolves to {real}", raw)],
        )
    if real == real_root:
        raise BadRequest(f"{raw!r} is the workspace root", [ErrorDetail("not a file path", raw)])
    canonical = real.relative_to(real_root).as_posix()
    if any(p.lower() in _FORBIDDEN_DIRS for p in canonical.split("/")):
        raise ForbiddenPath(f"path {raw!r} resolves into .git", [ErrorDetail("forbidden", raw)])
    return canonical


def _check_lengths(root: Path, raw: str, parts: list[str]) -> None:
    """Names and paths the filesystem cannot hold are the request's fault, not the daemon's."""
    try:
        sizes = [len(p.encode()) for p in parts]
        full = len(os.fsencode(root / "/".join(parts)))
    except UnicodeEncodeError as exc:
        raise BadRequest(
            f"path {raw!r} is not valid UTF-8", [ErrorDetail("not UTF-8", raw)]
        ) from exc
    longest = max(sizes)
    if longest > NAME_MAX:
        raise BadRequest(
            f"a component of {raw[:80]!r}... is {longest} bytes; names are at most {NAME_MAX}",
            [ErrorDetail(f"component of {longest} bytes > {NAME_MAX}", raw)],
        )
    if full >= PATH_MAX:
        raise BadRequest(
            f"path {raw[:80]!r}... is {full} bytes under the root; paths are under {PATH_MAX}",
            [ErrorDetail(f"{full} bytes >= {PATH_MAX}", raw)],
        )


def prepare_patch(root: Path, changes: list[FileChange]) -> PreparedPatch:
    """Check paths, shapes and base hashes; read the base texts. Raises on the first bad kind.

    The edits carry canonical paths (see ``normalize_path``); errors name the paths as given.
    """
    if not changes:
        raise BadRequest("the patch has no changes")
    admit(changes)
    seen: set[str] = set()
    stale: list[ErrorDetail] = []
    edits: list[FileEdit] = []
    for change in changes:
        rel = normalize_path(root, change.path)
        given = "/".join(p for p in PurePosixPath(change.path).parts if p != ".")
        if rel in seen:  # two names of one file (a symlink) are one file
            raise BadRequest(
                f"{given} appears twice in the patch", [ErrorDetail("duplicate", given)]
            )
        seen.add(rel)
        edit = _prepare_one(root, change, rel, given, stale)
        if edit is not None:
            edits.append(edit)
    if stale:
        raise StaleBase(f"{len(stale)} file(s) changed since the patch was made", stale)
    return PreparedPatch(root, tuple(_anchored(e, c) for e, c in zip(edits, changes, strict=True)))


def _prepare_one(
    root: Path, change: FileChange, rel: str, given: str, stale: list[ErrorDetail]
) -> FileEdit | None:
    """One change validated: its edit, or None with the mismatch appended to ``stale``."""
    forms = [change.content is not None, change.delete, change.edits is not None]
    if sum(forms) != 1:
        raise BadRequest(
            f"{given}: give exactly one of 'content', 'edits' or 'delete'",
            [ErrorDetail("needs exactly one of content, edits, delete", given)],
        )
    if change.delete and (root / given).is_symlink():
        raise BadRequest(
            f"{given} is a symlink to {rel}: prewrite deletes files, not links to them",
            [ErrorDetail("a symlink", given)],
        )
    disk = root / rel
    try:
        if disk.is_dir():
            raise BadRequest(f"{given} is a directory", [ErrorDetail("is a directory", given)])
        exists = disk.is_file()
        if change.base_sha256 is None:
            if exists:
                stale.append(ErrorDetail("exists on disk but base_sha256 is null", given))
                return None
            if change.content is None:
                raise BadRequest(
                    f"{given}: deleting or editing needs the base_sha256 of the file",
                    [ErrorDetail("delete or edits without base", given)],
                )
            return FileEdit(rel, None, change.content)
        if not exists:
            stale.append(ErrorDetail("does not exist on disk", given))
            return None
        data = read_regular(disk, SOURCE_LIMIT, name=given)
        if data is None:
            stale.append(ErrorDetail("does not exist on disk", given))
            return None
    except OSError as exc:
        raise BadRequest(
            f"cannot read {given}: {exc.strerror}", [ErrorDetail(str(exc.strerror), given)]
        ) from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != change.base_sha256.lower():
        # never the disk's hash: it would let a model overwrite a file it never read
        stale.append(ErrorDetail(f"base_sha256 {change.base_sha256} is not the file's now", given))
        return None
    try:
        return FileEdit(rel, data.decode("utf-8"), change.content)
    except UnicodeDecodeError as exc:
        raise BadRequest(f"{given} is not UTF-8 text", [ErrorDetail("not UTF-8", given)]) from exc


def _anchored(edit: FileEdit, change: FileChange) -> FileEdit:
    """Apply a change's anchored find/replace edits to the base text (every other form as is)."""
    if change.edits is None or edit.old_text is None:
        return edit
    pairs = [(e.find, e.replace) for e in change.edits]
    if not pairs:
        raise BadRequest(f"{edit.path}: 'edits' is empty", [ErrorDetail("no edits", edit.path)])
    new_text = apply_edits(edit.path, edit.old_text, pairs)
    check_written(edit.path, text_bytes(new_text))
    return FileEdit(edit.path, edit.old_text, new_text)
