"""The 5-file patch the writer tests apply, and snapshots of a workspace to compare trees by.

Stdlib only: the child writer (``writer_child.py``) imports it too, before it drops privileges.
"""

from __future__ import annotations

import os
from pathlib import Path

DIR = "<dir>"  # a directory's value in a snapshot
TEMP_GLOB = "*.prewrite-*.tmp"  # every temporary file the writer makes beside a target

# path -> bytes (a regular file), DIR, or "-> target" (a symlink)
Snapshot = dict[str, bytes | str]


def before_files(size: int = 0) -> dict[str, bytes]:
    """The workspace before the patch; ``size`` pads every file to widen the write window."""
    pad = b"#" * size + b"\n"
    return {
        "a.py": b"a = 1\n" + pad,
        "pkg/b.py": b"b = 1\n" + pad,
        "pkg/c.py": b"c = 1\n" + pad,
        "pkg/keep.py": b"keep = 1\n",
    }


def patch_changes(size: int = 0, only: str | None = None) -> dict[str, bytes | None]:
    """Two adds (one in a new two-level subdirectory), two changes, one delete.

    Every new content is padded to ``size`` bytes, or only the one at path ``only``.
    """

    def pad(rel: str) -> bytes:
        return b"%" * (size if only in (None, rel) else 0) + b"\n"

    return {
        "a.py": b"a = 2\n" + pad("a.py"),
        "newdir/sub/added.py": b"added = 1\n" + pad("newdir/sub/added.py"),
        "pkg/b.py": b"b = 2\n" + pad("pkg/b.py"),
        "pkg/c.py": None,
        "top_added.py": b"top = 1\n" + pad("top_added.py"),
    }


def patch_bases(size: int = 0) -> dict[str, bytes | None]:
    """What the patch was validated against: the before bytes, None for the adds."""
    files = before_files(size)
    return {rel: files.get(rel) for rel in patch_changes(size)}


def make_tree(root: Path, size: int = 0) -> None:
    """Create the before tree under ``root`` (which must not exist yet)."""
    for rel, data in before_files(size).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def snapshot(root: Path) -> Snapshot:
    """Every entry under ``root``: files with their bytes, directories, symlinks with targets."""
    snap: Snapshot = {}
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        for name in dirnames + filenames:
            path = base / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                snap[rel] = f"-> {os.readlink(path)}"
            elif path.is_dir():
                snap[rel] = DIR
            else:
                snap[rel] = path.read_bytes()
    return snap


def expected_after(before: Snapshot, changes: dict[str, bytes | None]) -> Snapshot:
    """``before`` with ``changes`` applied, including the directories new files need."""
    after = dict(before)
    for rel, data in changes.items():
        if data is None:
            del after[rel]
            continue
        after[rel] = data
        parent = Path(rel).parent
        while parent != Path("."):
            after[parent.as_posix()] = DIR
            parent = parent.parent
    return after


def temp_files(root: Path) -> list[str]:
    """Temporary files of the writer left anywhere under ``root``."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(TEMP_GLOB))


def leftover_transactions(journal_dir: Path) -> list[str]:
    """Whatever is left in the journal directory (it may be missing: nothing is left then)."""
    if not journal_dir.exists():
        return []
    return sorted(p.name for p in journal_dir.iterdir())
