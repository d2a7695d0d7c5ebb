"""Bounded file access for the Protocol scan: listing the sources a checker can import under a
directory, reading them, and the scan's own JSON files.

Every read is of a regular file (``fstat`` after an ``O_NONBLOCK`` open: a FIFO never blocks, a
link to ``/dev/zero`` is never read) of at most a size cap: 50 MiB for a source, pyright's own
(``maxSourceFileSize``: a larger file is not parsed by the checker either, so skipping it
loses nothing). Listing follows directory links (pyright does) but never one already seen, and
stops past ``MAX_FILES`` (``TooManyFiles``: the scan then has no answer, never a partial one).
Only directories an import can name are entered: identifiers, and ``<name>-stubs`` at the top
(``@tests``, ``*.dist-info`` and pyright's own ``typeshed-fallback`` are not importable).
A root may be a file: a source outside the root that a link inside it points at.
Nothing here imports the daemon: the scanner process runs it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.files import read_or_none

if TYPE_CHECKING:
    from collections.abc import Iterable

MAX_SOURCE_BYTES = 50 * 1024 * 1024  # pyright's maxSourceFileSize
MAX_FILES = 400_000  # per scan: a larger environment has no answer (every member widens)
MAX_DEPTH = 64
SOURCE_SUFFIXES = (".py", ".pyi")


class TooManyFiles(Exception):
    """More sources than ``MAX_FILES`` under the scanned roots."""


@dataclass(frozen=True)
class Listing:
    """The sources under some roots, and a stamp that moves when any of them changes (added,
    removed, rewritten: path, size, mtime and inode)."""

    files: tuple[str, ...]
    stamp: str


def list_sources(roots: Iterable[str], limit: int = MAX_FILES) -> Listing:
    """Every ``.py``/``.pyi`` regular file an import can reach under ``roots``; a root that is a
    regular file is listed itself (the caller knows it is a source: a link's target may have
    any name)."""
    roots = list(roots)
    files: list[str] = []
    digest = hashlib.sha256()
    seen: set[tuple[int, int]] = set()

    def add(path: str, info: os.stat_result) -> None:
        files.append(path)
        stamp = f"{path}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ino}\n"
        digest.update(stamp.encode("utf-8", "surrogateescape"))
        if len(files) > limit:
            raise TooManyFiles(f"more than {limit} sources under {roots}")

    for root in roots:
        try:
            info = os.stat(root)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):  # a source linked into the workspace, whatever its name
            add(root, info)
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            directory, depth = stack.pop()
            try:
                st = os.stat(directory)
                entries = sorted(os.scandir(directory), key=lambda e: e.name, reverse=True)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            for entry in entries:
                try:
                    info = entry.stat()  # follows links, as the checker does
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    if depth < MAX_DEPTH and _importable_dir(entry.name, depth):
                        stack.append((entry.path, depth + 1))
                elif stat.S_ISREG(info.st_mode) and entry.name.endswith(SOURCE_SUFFIXES):
                    add(entry.path, info)
    return Listing(tuple(files), digest.hexdigest()[:32])


def _importable_dir(name: str, depth: int) -> bool:
    if name == "__pycache__":
        return False
    if depth == 0 and name.endswith("-stubs"):
        return name.removesuffix("-stubs").isidentifier()
    return name.isidentifier()


def read_bounded(path: str, limit: int = MAX_SOURCE_BYTES) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else None."""
    return read_or_none(path, limit)


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the whole new one."""
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
