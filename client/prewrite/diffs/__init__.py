"""Unified diffs as patches: ``prewrite check --diff`` / ``apply --diff`` read ``git diff``,
``diff -u`` and ``diff -ruN`` output and apply it here, in the client, to the files' bytes on
disk, producing the full-content ``FileChange`` patch the daemon checks like any other.

Standard library only (``import prewrite`` stays light): ``names`` reads the file names a diff
gives, ``parse`` reads its files and hunks strictly, ``hunks`` applies a file's hunks to its
text exactly, ``patch`` reads the disk and builds the patch. Nothing here imports the daemon.
"""

from __future__ import annotations

from prewrite.diffs.patch import DiffPatch, changes_from_diff, read_diff

__all__ = ["DiffPatch", "changes_from_diff", "read_diff"]
