"""The shadow: a copy of the workspace's checker-relevant files in a tree the daemon owns.

The warm checker runs on the shadow, never on the user's repository: a patch's new and deleted
modules are materialised there (pyright cannot import a module that exists only as an overlay)
and put back afterwards. ``sync`` brings the shadow up to date with the workspace by stat-scan
and reports what moved, so the checker can be told before the next verdict.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from prewrite_daemon.backends.base import FileEvent

# Directories never mirrored: the ones pyright's default excludes skip too (dot-dirs, caches,
# node_modules, virtual environments), so the shadow holds what a cold run would check.
_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})
_MIRRORED_SUFFIXES = (".py", ".pyi")
_MIRRORED_NAMES = frozenset({"py.typed", "pyproject.toml", "pyrightconfig.json"})

Stamp = tuple[int, int, int]  # mtime_ns, size, inode
_RECENT_NS = 3_000_000_000  # files modified within this window are compared by content


@dataclass(frozen=True)
class ScanResult:
    events: list[FileEvent]  # paths in the shadow
    changed: list[str]  # root-relative paths that moved


def _is_venv(path: Path) -> bool:
    return (path / "pyvenv.cfg").is_file() or (path / "conda-meta").is_dir()


def is_mirrored(name: str) -> bool:
    return name.endswith(_MIRRORED_SUFFIXES) or name in _MIRRORED_NAMES


class ShadowTree:
    """A mirror of ``root`` under ``shadow_root``; ``files`` maps relative paths to stamps."""

    def __init__(self, root: Path, shadow_root: Path) -> None:
        self.root = root
        self.shadow_root = shadow_root
        self.files: dict[str, Stamp] = {}

    def shadow_path(self, rel: str) -> str:
        return str(self.shadow_root / rel)

    def create(self) -> None:
        """Build the shadow from scratch (removing any leftover from an earlier daemon)."""
        if self.shadow_root.exists():
            shutil.rmtree(self.shadow_root)
        self.shadow_root.mkdir(parents=True, mode=0o700)
        self.files = {}
        self.sync()

    def sync(self) -> ScanResult:
        """Copy what changed in the workspace since the last sync; report it as file events."""
        current = dict(self._scan())
        events: list[FileEvent] = []
        changed: list[str] = []
        for rel, stamp in current.items():
            old = self.files.get(rel)
            if not self._moved(rel, old, stamp):
                continue
            if not self._copy_in(rel):
                continue
            kind = "created" if old is None else "changed"
            events.append(FileEvent(self.shadow_path(rel), kind))
            changed.append(rel)
            self.files[rel] = stamp
        for rel in [r for r in self.files if r not in current]:
            del self.files[rel]
            Path(self.shadow_path(rel)).unlink(missing_ok=True)
            events.append(FileEvent(self.shadow_path(rel), "deleted"))
            changed.append(rel)
        return ScanResult(events, changed)

    def pending(self) -> list[str]:
        """What a ``sync`` would bring in now, without bringing it (the answer-time check)."""
        current = dict(self._scan())
        moved = [
            rel for rel, stamp in current.items() if self._moved(rel, self.files.get(rel), stamp)
        ]
        return moved + [rel for rel in self.files if rel not in current]

    def _moved(self, rel: str, old: Stamp | None, stamp: Stamp) -> bool:
        """Whether ``rel`` differs from the shadow's copy.

        Equal stamps are trusted only for files not written recently: a same-size rewrite within
        the filesystem's timestamp granularity keeps the stamp, so recent files are compared.
        """
        if old != stamp:
            return True
        if time.time_ns() - stamp[0] > _RECENT_NS:
            return False
        try:
            return (self.root / rel).read_bytes() != Path(self.shadow_path(rel)).read_bytes()
        except OSError:
            return True

    def read_text(self, rel: str) -> str | None:
        """The text of ``rel`` as the shadow has it (== the workspace at the last sync)."""
        try:
            return Path(self.shadow_path(rel)).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def write(self, rel: str, text: str) -> None:
        """Materialise a patch file in the shadow (new modules must exist on disk for pyright)."""
        target = Path(self.shadow_path(rel))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))

    def remove(self, rel: str) -> None:
        Path(self.shadow_path(rel)).unlink(missing_ok=True)

    def restore(self, rel: str) -> None:
        """Put the workspace's version of ``rel`` back (or remove it if the workspace has none)."""
        if rel in self.files:
            self._copy_in(rel)
        else:
            self.remove(rel)

    def _copy_in(self, rel: str) -> bool:
        target = Path(self.shadow_path(rel))
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(self.root / rel, target)
        except OSError:
            return False  # vanished or unreadable: the next sync sees it
        return True

    def _scan(self) -> list[tuple[str, Stamp]]:
        found: list[tuple[str, Stamp]] = []
        stack = [self.root]
        while stack:
            directory = stack.pop()
            try:
                entries = list(os.scandir(directory))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if _is_venv(Path(entry.path)):
                            if directory == self.root:
                                self._link_venv(entry.name)
                        elif not entry.name.startswith(".") and entry.name not in _SKIP_DIRS:
                            stack.append(Path(entry.path))
                        continue
                    if not is_mirrored(entry.name):
                        continue
                    st = entry.stat()
                except OSError:
                    continue
                rel = Path(entry.path).relative_to(self.root).as_posix()
                found.append((rel, (st.st_mtime_ns, st.st_size, st.st_ino)))
        return found

    def _link_venv(self, name: str) -> None:
        """A venv at the root is linked, not copied, so ``venvPath``/``venv`` config resolves."""
        link = self.shadow_root / name
        if not link.is_symlink():
            link.symlink_to(self.root / name, target_is_directory=True)
