"""Readers of a tree's root-relative files, as a language's layout reads its configuration: from
the disk (bounded, typed errors for what must not be read), or as a patch would leave them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from prewrite.files import read_text

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch

Reader = Callable[[str], str | None]  # the text of a root-relative file, None if absent


def disk_reader(root: Path) -> Reader:
    """Read root-relative files of the real tree: ``None`` when absent, a directory or not
    text; ``UnreadableFile`` for a FIFO, a device or a file over the limit (``prewrite.files``:
    refused unread, never waited on — the check answers with the typed error)."""

    def read(rel: str) -> str | None:
        path = root / rel
        if os.path.isdir(path):
            return None  # what the checker makes of it too: no such configuration
        try:
            return read_text(path, name=rel)
        except UnicodeDecodeError:
            return None

    return read


def patched_reader(read: Reader, patch: PreparedPatch) -> Reader:
    """Read root files as the patch would leave them."""
    edits = {e.path: e for e in patch.edits}

    def candidate(rel: str) -> str | None:
        edit = edits.get(rel)
        return read(rel) if edit is None else edit.new_text

    return candidate
