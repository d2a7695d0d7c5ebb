"""Helpers that build ``FileChange``s with the base hash read from disk (a regular file only,
hashed in chunks: ``prewrite.files``), and the one rule for a patch that omits a base.

A patch written by hand or by a model often leaves ``base_sha256`` out (a model often cannot
compute a SHA-256, and JSON has no way to say "omitted" other than leaving the key out). The
CLI's ``--patch`` and the MCP server settle it the same way (``settle_omitted_bases``); the hook
reads every base itself:

- given (a hex string, or null): sent as is;
- omitted with ``edits``: the hash of the file's bytes on disk now. Safe because ``find`` anchors
  each edit to the real text: an edit written for other text fails with ``find_mismatch``
  instead of landing somewhere wrong;
- omitted with ``content`` on a path with no file: null (a new file);
- omitted with ``content`` or ``delete`` on an existing file: refused (``bad_request``). A
  whole-file rewrite anchors to nothing, so only the hash of the bytes the author read proves it
  rewrote the file it read. The refusal never names the file's hash now (issue 20, item 15):
  copied back, it would let a model overwrite a file it never read.

The input limits and the paths' characters (``prewrite.admission``) are checked first, before
any file is read. Files are only read to hash them when the path resolves inside the root;
anything else is sent unresolved and the daemon refuses it with its own code
(``path_outside_workspace``, ...).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.admission import admit
from prewrite.errors import BadRequest, ErrorDetail
from prewrite.files import sha256_regular
from prewrite.protocol import FileChange

if TYPE_CHECKING:
    from collections.abc import Sequence


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _base(root: str | os.PathLike[str], path: str) -> str:
    return sha256_regular(Path(root) / path, name=path)


def change_file(root: str | os.PathLike[str], path: str, content: str) -> FileChange:
    """Replace an existing file's content; the base hash is taken from disk now."""
    return FileChange(path=path, base_sha256=_base(root, path), content=content)


def new_file(path: str, content: str) -> FileChange:
    """Create a file that must not exist yet."""
    return FileChange(path=path, base_sha256=None, content=content)


def delete_file(root: str | os.PathLike[str], path: str) -> FileChange:
    """Delete an existing file; the base hash is taken from disk now."""
    return FileChange(path=path, base_sha256=_base(root, path), delete=True)


def settle_omitted_bases(
    root: Path, changes: Sequence[FileChange], omitted: Sequence[bool]
) -> list[FileChange]:
    """``changes`` (of a workspace whose resolved root is ``root``) within the input limits,
    each one whose ``omitted`` flag is set given the base the module docstring says."""
    admit(changes)  # before a file is read to settle a base
    return [
        msgspec.structs.replace(change, base_sha256=_omitted_base(root, change)) if left else change
        for change, left in zip(changes, omitted, strict=True)
    ]


def _omitted_base(root: Path, change: FileChange) -> str | None:
    kinds = (change.content is not None) + (change.edits is not None) + change.delete
    target = _inside(root, change.path)
    if kinds != 1 or target is None or not target.is_file():
        return None  # the daemon answers these with their own codes (bad_request, stale_base)
    if change.edits is not None:
        return sha256_regular(target, name=change.path)  # bounded: a FIFO, a device refused
    what = "delete" if change.delete else "replace the whole content of"
    raise BadRequest(
        f"base_sha256 is required to {what} an existing file: {change.path} exists on disk. "
        "Read the file and send the SHA-256 of the bytes you read; or change it with `edits` "
        "(find/replace), which need no hash",
        [ErrorDetail("exists on disk; base_sha256 omitted", change.path)],
    )


def _inside(root: Path, path: str) -> Path | None:
    """``root/path`` resolved, when it stays inside ``root``; else None (never read)."""
    if not path or os.path.isabs(path):
        return None
    try:
        target = (root / path).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None
    return target if target.is_relative_to(root) else None
