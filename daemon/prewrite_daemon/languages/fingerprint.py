"""An environment's fingerprint, whatever the language: a digest per part, so what moved can be
named (``config``, ``packages``, ``interpreter``, ...), and the two digests every language takes
of what lies outside its sources: files hashed whole (configurations, lock files) and source
trees stamped (editable sources, ``extraPaths``, linked packages).

A language composes its own parts (``languages.python.environment``,
``languages.typescript.environment``); the core only compares fingerprints.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from prewrite.errors import UnreadableFile
from prewrite.files import sha256_regular

MAX_TREE_FILES = 20_000
_TREE_SUFFIXES = (".py", ".pyi", "py.typed", ".pth")


@dataclass(frozen=True)
class Fingerprint:
    """A digest per part, so a change can be named (``config``, ``packages``, ...)."""

    parts: tuple[tuple[str, str], ...]

    @property
    def digest(self) -> str:
        return hashlib.sha256(repr(self.parts).encode()).hexdigest()[:16]

    def moved(self, other: Fingerprint) -> list[str]:
        """The names of the parts that differ between two fingerprints."""
        mine, theirs = dict(self.parts), dict(other.parts)
        return sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))


def digest_files(paths: list[Path]) -> str:
    """Hashes of ``paths`` (read in chunks, regular files only: a lock file may be large, and
    one that is a FIFO or a device is stamped as such, unread)."""
    h = hashlib.sha256()
    for path in paths:
        try:
            digest = sha256_regular(path)
        except UnreadableFile as exc:
            digest = f"unreadable: {exc.message}"
        h.update(path.name.encode() + b"\0" + digest.encode() + b"\0")
    return h.hexdigest()[:16]


def digest_trees(dirs: list[Path], limit: int = MAX_TREE_FILES) -> str:
    """Stamps of the Python sources under ``dirs`` (editable sources, ``extraPaths``).

    Bounded: past ``limit`` files the rest are not stamped (the watcher still sees them).
    """
    h = hashlib.sha256()
    count = 0
    stack = list(reversed(dirs))
    while stack and count < limit:
        directory = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            h.update(f"{directory}: unreadable\n".encode())
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__" and not entry.name.startswith("."):
                        stack.append(Path(entry.path))
                    continue
                if not entry.name.endswith(_TREE_SUFFIXES):
                    continue
                st = entry.stat()
            except OSError:
                continue
            count += 1
            h.update(f"{entry.path}:{st.st_mtime_ns}:{st.st_size}:{st.st_ino}\n".encode())
    return h.hexdigest()[:16]
