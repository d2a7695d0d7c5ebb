"""The shadow: a copy of the workspace's checker-relevant files in a tree the daemon owns.

The warm checker runs on the shadow, never on the user's repository: a patch's new and deleted
modules are materialised there (pyright cannot import a module that exists only as an overlay)
and put back afterwards. ``sync`` brings the shadow up to date with the workspace by stat-scan
and reports what moved, so the checker can be told before the next verdict.

Only regular files are copied, up to ``MAX_FILE_BYTES`` each, opened without following links (a
link to ``/dev/zero`` can never fill the disk). A symlink is mirrored as a link: to the shadow's
copy when it points inside the root, to the real place when it points outside (those targets
feed the freshness fingerprint), not at all when it points at anything but a file or directory.
The root's ``pyrightconfig.json`` is not copied: the shadow gets a generated one (see
``checker_config``) that resolves paths as the real tree does. What is mirrored, and where each
link points, is decided by the stat-scan (``scan``).
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.files import read_or_none
from prewrite_daemon.backends.base import FileEvent
from prewrite_daemon.shadow.scan import MAX_FILE_BYTES, scan_root

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.shadow.scan import Stamp

_RECENT_NS = 3_000_000_000  # files modified within this window are compared by content


@dataclass(frozen=True)
class ScanResult:
    events: list[FileEvent]  # paths in the shadow
    changed: list[str]  # root-relative paths that moved


class ShadowTree:
    """A mirror of ``root`` under ``shadow_root``; ``files`` maps relative paths to stamps."""

    def __init__(
        self,
        root: Path,
        shadow_root: Path,
        mirrors: Callable[[str], bool],
        config_name: str = "pyrightconfig.json",
        links: dict[str, Path] | None = None,
    ) -> None:
        """``mirrors``: whether a file of that name is copied (the language decides);
        ``config_name``: the root file the shadow generates, never copied; ``links``: root
        entries linked to a real directory (``node_modules``, found where node finds it)."""
        self.root = root
        self.shadow_root = shadow_root
        self.mirrors = mirrors
        self.config_name = config_name
        self.extra_links = dict(links or {})
        self.files: dict[str, Stamp] = {}
        self.links: dict[str, str] = {}
        self.config_text: str | None = None  # the generated pyrightconfig.json
        self._made_dirs: set[Path] = set()  # directories ``write`` created for new files

    @property
    def outside_targets(self) -> list[Path]:
        """Where links inside the root point outside it (sources the checker reads there)."""
        return [Path(t) for t in self.links.values() if os.path.isabs(t)]

    def shadow_path(self, rel: str) -> str:
        return str(self.shadow_root / rel)

    def create(self) -> None:
        """Build the shadow from scratch (removing any leftover from an earlier daemon)."""
        if self.shadow_root.exists():
            shutil.rmtree(self.shadow_root)
        self.shadow_root.mkdir(parents=True, mode=0o700)
        self.files = {}
        self.links = {}
        self._made_dirs = set()
        for name, target in self.extra_links.items():
            (self.shadow_root / name).symlink_to(target, target_is_directory=True)
        self.write_config()
        self.sync()

    def write_config(self) -> None:
        """Write the generated checker configuration (or remove a stale one)."""
        target = self.shadow_root / self.config_name
        if self.config_text is None:
            target.unlink(missing_ok=True)
        else:
            target.write_text(self.config_text, encoding="utf-8")

    def sync(self) -> ScanResult:
        """Copy what changed in the workspace since the last sync; report it as file events."""
        scan = scan_root(self)
        events: list[FileEvent] = []
        changed: list[str] = []
        for rel, stamp in scan.files.items():
            old = self.files.get(rel)
            if not self._moved(rel, old, stamp):
                continue
            if not self._copy_in(rel):
                continue
            kind = "created" if old is None else "changed"
            events.append(FileEvent(self.shadow_path(rel), kind))
            changed.append(rel)
            self.files[rel] = stamp
        for rel in [r for r in self.files if r not in scan.files]:
            del self.files[rel]
            if rel not in scan.links:
                Path(self.shadow_path(rel)).unlink(missing_ok=True)
            events.append(FileEvent(self.shadow_path(rel), "deleted"))
            changed.append(rel)
        self._sync_links(scan.links, events, changed)
        return ScanResult(events, changed)

    def _sync_links(
        self, links: dict[str, str], events: list[FileEvent], changed: list[str]
    ) -> None:
        for rel in [r for r in self.links if links.get(r) != self.links[r]]:
            Path(self.shadow_path(rel)).unlink(missing_ok=True)
            del self.links[rel]
            events.append(FileEvent(self.shadow_path(rel), "deleted"))
            changed.append(rel)
        for rel, target in links.items():
            if rel in self.links or rel in self.files:
                continue
            link = Path(self.shadow_path(rel))
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(target)
            self.links[rel] = target
            events.append(FileEvent(self.shadow_path(rel), "created"))
            changed.append(rel)

    def pending(self) -> list[str]:
        """What a ``sync`` would bring in now, without bringing it (the answer-time check)."""
        scan = scan_root(self)
        moved = [
            rel for rel, stamp in scan.files.items() if self._moved(rel, self.files.get(rel), stamp)
        ]
        moved += [rel for rel in self.files if rel not in scan.files]
        return (
            moved
            + [r for r in scan.links.keys() ^ self.links.keys()]
            + [r for r in scan.links if r in self.links and scan.links[r] != self.links[r]]
        )

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
            real = read_or_none(self.root / rel, MAX_FILE_BYTES, follow=False)
            return real is None or real != Path(self.shadow_path(rel)).read_bytes()
        except OSError:
            return True

    def read_text(self, rel: str) -> str | None:
        """The text of ``rel`` as the shadow has it (== the workspace at the last sync)."""
        try:
            return Path(self.shadow_path(rel)).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def write(self, rel: str, text: str) -> None:
        """Materialise a patch file in the shadow (new modules must exist on disk for pyright).

        Directories made for it are remembered, so ``restore`` takes them away again: an empty
        directory left behind would resolve as a namespace package.
        """
        target = Path(self.shadow_path(rel))
        missing = [d for d in target.parents if self.shadow_root in d.parents and not d.exists()]
        target.parent.mkdir(parents=True, exist_ok=True)
        self._made_dirs.update(missing)
        target.write_bytes(text.encode("utf-8"))

    def remove(self, rel: str) -> None:
        Path(self.shadow_path(rel)).unlink(missing_ok=True)

    def restore(self, rel: str) -> None:
        """Put the workspace's version of ``rel`` back (or remove it if the workspace has none,
        with the directories ``write`` made for it)."""
        if rel in self.files:
            self._copy_in(rel)
            return
        self.remove(rel)
        for directory in Path(self.shadow_path(rel)).parents:
            if directory not in self._made_dirs:
                break
            try:
                directory.rmdir()
            except OSError:
                break  # not empty: something else lives there now
            self._made_dirs.discard(directory)

    def _copy_in(self, rel: str) -> bool:
        target = Path(self.shadow_path(rel))
        try:
            data = read_or_none(self.root / rel, MAX_FILE_BYTES, follow=False)
            if data is None:
                return False
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink():
                target.unlink()
            target.write_bytes(data)
        except OSError:
            return False  # vanished or unreadable: the next sync sees it
        return True
