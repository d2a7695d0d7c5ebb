"""A unified diff turned into the prewrite patch it stands for, against the files as they are
on disk now: each file's full new content, with the ``base_sha256`` of the bytes the diff was
applied to, so a file that changes before the daemon checks is ``stale_base`` there.

- a changed file: its content, the base its bytes on disk;
- a created file (``/dev/null``, ``new file mode``, ``diff -N``'s epoch; or, in a traditional
  diff that does not say, a missing file whose hunks remove nothing, as ``git apply`` decides):
  ``base_sha256`` None, so a file that exists is ``stale_base`` at the daemon;
- a deleted file: a delete, once its hunks have removed every line the file holds;
- a rename: a delete of the old name and a new file with the content (a copy: the new file);
- a mode change alone: nothing, with a note (prewrite writes contents, not modes).

Paths are the root's: an absolute one, one with ``..`` or one that resolves outside the root
(a symbolic link) is ``path_outside_workspace`` here, before any read (the daemon's policy
refuses them again). Files are read as every repository file is (``prewrite.files``), the
patch is held to the input limits (``prewrite.admission``), and a file the diff names twice is
refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.admission import MAX_FILES, admit, check_path_chars, too_large
from prewrite.changes import sha256_hex
from prewrite.diffs.hunks import apply_hunks
from prewrite.diffs.parse import FileDiff, parse_diff
from prewrite.errors import (
    BadRequest,
    ErrorDetail,
    FindMismatch,
    InvalidWorkspace,
    PathOutsideWorkspace,
)
from prewrite.files import SOURCE_LIMIT, read_named, read_regular
from prewrite.framing import MAX_FRAME_BYTES
from prewrite.protocol import FileChange

if TYPE_CHECKING:
    import os


@dataclass(frozen=True)
class DiffPatch:
    """The changes a diff stands for, and what was read but not applied (mode changes)."""

    changes: list[FileChange]
    notes: list[str]


def read_diff(source: str) -> str:
    """The diff the user names: ``-`` (stdin) or a file, which may be a pipe; at most a frame's
    size, UTF-8."""
    try:
        data = read_named(source, MAX_FRAME_BYTES, "diff")
    except OSError as exc:
        raise BadRequest(f"cannot read diff {source}: {exc.strerror}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(
            f"the diff is not UTF-8 (byte {exc.start}): prewrite patches UTF-8 text files only"
        ) from exc


def changes_from_diff(root: str | os.PathLike[str], text: str) -> DiffPatch:
    """The patch the unified diff ``text`` stands for under ``root``, read from disk now."""
    files = parse_diff(text)
    if len(files) > MAX_FILES:
        raise too_large(None, f"a diff of {len(files)} files", MAX_FILES)
    top = Path(root)
    if not top.is_dir():
        raise InvalidWorkspace(f"--root {root} is not a directory")
    touched: set[str] = set()
    changes: list[FileChange] = []
    notes: list[str] = []
    for diff in files:
        _normalize(top, diff)
        for path in _touches(diff):
            if path in touched:
                raise BadRequest(f"{path} is changed twice in the diff; give each file once")
            touched.add(path)
        changes += _changes(top, diff)
        notes += diff.notes
    if not changes:
        raise BadRequest("the diff changes no file's content: " + "; ".join(notes or ["empty"]))
    admit(changes)
    return DiffPatch(changes, notes)


def _touches(diff: FileDiff) -> list[str]:
    """The paths whose content the diff's section decides (a copy's source is only read)."""
    sources = [] if diff.old is None or diff.copy else [diff.old]
    return list(dict.fromkeys([*sources, *([] if diff.new is None else [diff.new])]))


def _normalize(root: Path, diff: FileDiff) -> None:
    diff.old = None if diff.old is None else _root_path(root, diff.old)
    diff.new = None if diff.new is None else _root_path(root, diff.new)


def _root_path(root: Path, name: str) -> str:
    """``name`` as a path under ``root`` (``./`` and doubled slashes dropped); refused when it
    is absolute, climbs out with ``..`` or resolves outside ``root``."""
    check_path_chars(name)
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if name.startswith("/") or ".." in parts or not parts:
        raise PathOutsideWorkspace(
            f"the diff names {name!r}, which is not a path under the root: make the diff with "
            "paths relative to the root (git diff; diff -ruN OLD NEW run beside the trees)",
            [ErrorDetail("outside the root", name)],
        )
    path = "/".join(parts)
    real_root = root.resolve()
    if not (root / path).resolve().is_relative_to(real_root):
        raise PathOutsideWorkspace(
            f"{path} resolves outside the root (a symbolic link)",
            [ErrorDetail("resolves outside the root", path)],
        )
    return path


def _changes(root: Path, diff: FileDiff) -> list[FileChange]:
    old = None if diff.old is None or diff.created else _read(root, diff.old)
    if diff.created is None:  # a traditional diff that does not say: git apply's rule
        diff.created = old is None and all(hunk.old_len == 0 for hunk in diff.hunks)
    if diff.created:
        assert diff.new is not None  # a created file has a name: parse_diff refuses otherwise
        return [FileChange(diff.new, None, content=apply_hunks(diff.new, "", diff.hunks))]
    assert diff.old is not None
    if old is None:
        raise FindMismatch(
            f"{diff.old}: the diff changes this file, but it does not exist under the root",
            [ErrorDetail("no such file", diff.old)],
        )
    base = sha256_hex(old)
    text = apply_hunks(diff.old, _text(diff.old, old), diff.hunks)
    if diff.new is None:
        if text:
            raise FindMismatch(
                f"{diff.old}: the diff deletes this file, but the file holds lines the diff does "
                "not remove; make the diff against the file as it is now",
                [ErrorDetail("lines left after the deletion", diff.old)],
            )
        return [FileChange(diff.old, base, delete=True)]
    if diff.new == diff.old:
        return [FileChange(diff.old, base, content=text)] if diff.hunks else []
    created = FileChange(diff.new, None, content=text)
    return [created] if diff.copy else [FileChange(diff.old, base, delete=True), created]


def _read(root: Path, path: str) -> bytes | None:
    return read_regular(root / path, SOURCE_LIMIT, name=path)


def _text(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(
            f"{path} is not UTF-8 text ({exc.reason}); prewrite cannot patch it",
            [ErrorDetail("not UTF-8", path)],
        ) from exc
