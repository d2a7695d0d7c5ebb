"""The shadow's stat-scan of the workspace: which files it mirrors and which links it makes.

The scan walks the root without following links and keeps the regular files the language
mirrors, up to ``MAX_FILE_BYTES`` each, with their stamps, leaving out the directories a cold
run skips too (``skipped_dir``). A symlink becomes a link in the shadow: to the shadow's copy when
it points inside the root, to the real place when it points outside, not at all when it points
at anything but a file or directory. A virtual environment at the root is linked, not copied.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite_daemon.shadow.tree import ShadowTree

# Directories never mirrored: the ones pyright's default excludes skip too (dot-dirs, caches,
# node_modules, virtual environments), so the shadow holds what a cold run would check.
_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})

Stamp = tuple[int, int, int]  # mtime_ns, size, inode
MAX_FILE_BYTES = 32 * 1024 * 1024  # larger files are not mirrored (pyright skips them too)


@dataclass(frozen=True)
class Scan:
    files: dict[str, Stamp]  # regular files to copy
    links: dict[str, str]  # symlinks to mirror: rel -> the target the shadow's link gets


def _is_venv(path: Path) -> bool:
    return (path / "pyvenv.cfg").is_file() or (path / "conda-meta").is_dir()


def skipped_dir(path: Path) -> bool:
    """Whether the shadow leaves out the directory ``path`` (dot dirs, caches, venvs)."""
    return path.name.startswith(".") or path.name in _SKIP_DIRS or _is_venv(path)


def scan_root(tree: ShadowTree) -> Scan:
    """Walk the root (links not followed): the files to mirror and the links to make."""
    files: dict[str, Stamp] = {}
    links: dict[str, str] = {}
    stack = [tree.root]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                _scan_entry(tree, directory, entry, stack, files, links)
            except OSError:
                continue
    return Scan(files, links)


def _scan_entry(
    tree: ShadowTree,
    directory: Path,
    entry: os.DirEntry[str],
    stack: list[Path],
    files: dict[str, Stamp],
    links: dict[str, str],
) -> None:
    at_root = directory == tree.root
    if entry.name.startswith(".") and not entry.is_file(follow_symlinks=False):
        if at_root and _is_venv(Path(entry.path)):
            _link_venv(tree, entry.name)
        return
    rel = entry.path[len(str(tree.root)) + 1 :]  # scandir joins with "/": a POSIX path
    if entry.is_symlink():
        target = _link_target(tree, entry, rel)
        if target is not None:
            links[rel] = target
        return
    if entry.is_dir(follow_symlinks=False):
        if _is_venv(Path(entry.path)):
            if at_root:
                _link_venv(tree, entry.name)
        elif entry.name not in _SKIP_DIRS:
            stack.append(Path(entry.path))
        return
    if not tree.mirrors(entry.name) or (at_root and entry.name == tree.config_name):
        return
    st = entry.stat(follow_symlinks=False)
    if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE_BYTES:
        files[rel] = (st.st_mtime_ns, st.st_size, st.st_ino)


def _link_target(tree: ShadowTree, entry: os.DirEntry[str], rel: str) -> str | None:
    """What the shadow's copy of a symlink points at, or None to leave it out."""
    real = os.path.realpath(entry.path)
    try:
        st = os.stat(real)
    except OSError:
        return None  # dangling
    is_dir = stat.S_ISDIR(st.st_mode)
    if is_dir:
        if entry.name in _SKIP_DIRS or _is_venv(Path(real)):
            return None
    elif not stat.S_ISREG(st.st_mode) or not tree.mirrors(entry.name):
        return None  # /dev/zero, a FIFO, a socket: never read
    root = str(tree.root)
    if real == root or real.startswith(root + os.sep):
        inside = tree.shadow_root / os.path.relpath(real, root)
        return os.path.relpath(inside, Path(tree.shadow_path(rel)).parent)
    return real


def _link_venv(tree: ShadowTree, name: str) -> None:
    """A venv at the root is linked, not copied, so ``venvPath``/``venv`` config resolves."""
    link = tree.shadow_root / name
    if not link.is_symlink():
        link.symlink_to(tree.root / name, target_is_directory=True)
