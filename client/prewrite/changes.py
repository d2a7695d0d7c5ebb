"""Helpers that build ``FileChange``s with the base hash read from disk (a regular file only,
hashed in chunks: ``prewrite.files``)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.files import sha256_regular
from prewrite.protocol import FileChange

if TYPE_CHECKING:
    import os


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
