"""New git worktrees of a warm workspace's repository, seen before their first check.

Agents working in parallel usually each get a ``git worktree add`` of one repository; each
worktree is a workspace of its own (its own shadow, graph and checker), so its first check pays
a checker's whole first analysis. The registry warms a new worktree up as soon as it appears
(``Registry``, ``Entry.prewarm``): this module finds them. Git records each linked worktree in
the repository's common directory, ``<common>/worktrees/<name>/gitdir``, a file naming the
worktree's own ``.git`` file, which says ``gitdir: <common>/worktrees/<name>`` back. A worktree
is taken only when both sides agree (a stray or hand-made record names no worktree), and every
file is read bounded (regular files, a size cap, no blocking opens: ``prewrite.files``).

Looking costs one ``stat`` of ``<common>/worktrees`` per look (the watcher's tick, about once a
second per warm workspace); its records are read again only when that directory changed.
Worktrees present when a repository is first looked at are not new: only those added after.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.errors import PrewriteError, UnreadableFile
from prewrite.files import read_regular

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.entry import Entry
    from prewrite_daemon.languages.base import Language

log = logging.getLogger(__name__)

GITDIR_LIMIT = 64 * 1024  # a ``.git`` file, a ``gitdir`` or ``commondir`` record: one path
MAX_WORKTREES = 256  # records read per look; a repository with more is not scanned past them


def _read_line(path: Path) -> str | None:
    """The first line of a small regular file, or None (absent, not regular, too big, binary)."""
    try:
        data = read_regular(path, GITDIR_LIMIT)
    except UnreadableFile:
        return None
    if data is None:
        return None
    try:
        return data.decode("utf-8").splitlines()[0].strip() if data.strip() else None
    except UnicodeDecodeError:
        return None


def repository_top(root: Path) -> Path | None:
    """The nearest directory at or above ``root`` holding ``.git`` (a directory or a file)."""
    for directory in (root, *root.parents):
        if os.path.lexists(directory / ".git"):
            return directory
    return None


def git_dir(top: Path) -> Path | None:
    """The git directory of the checkout at ``top``: ``.git`` itself, or where its
    ``gitdir:`` file points (a linked worktree's private directory)."""
    marker = top / ".git"
    if os.path.isdir(marker) and not os.path.islink(marker):
        return marker
    line = _read_line(marker)
    if line is None or not line.startswith("gitdir:"):
        return None
    target = Path(line.removeprefix("gitdir:").strip())
    return (top / target).resolve() if not target.is_absolute() else target.resolve()


def common_dir(private: Path) -> Path:
    """The repository's common git directory, from a checkout's git directory: a linked
    worktree's names it in ``commondir``; the main checkout's is its own."""
    line = _read_line(private / "commondir")
    if line is None:
        return private
    target = Path(line)
    return (private / target).resolve() if not target.is_absolute() else target.resolve()


def linked_worktrees(common: Path) -> tuple[list[Path], bool]:
    """The tops of the repository's linked worktrees whose records and ``.git`` files agree,
    and whether a record is still being made (``git worktree add`` holds a ``locked`` file
    saying "initializing" until its checkout is complete; its ``.git`` file may not be written
    yet): such a worktree is not taken now, and the caller looks again."""
    records = common / "worktrees"
    try:
        names = sorted(os.listdir(records))[:MAX_WORKTREES]
    except OSError:
        return [], False
    found: list[Path] = []
    pending = False
    for name in names:
        record = records / name
        if (_read_line(record / "locked") or "").startswith("initializing"):
            pending = True
            continue
        line = _read_line(record / "gitdir")
        if line is None or not os.path.isabs(line):
            continue
        top = Path(line).parent
        if git_dir(top) == record.resolve():
            found.append(top)
    return found, pending


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns)


@dataclass
class _Repository:
    stamp: tuple[int, int] | None
    known: set[Path] = field(default_factory=lambda: set[Path]())


class WorktreeScout:
    """Remembers each repository's worktrees and tells which ones are new."""

    def __init__(self) -> None:
        self._repositories: dict[Path, _Repository] = {}
        self._commons: dict[Path, tuple[Path, Path] | None] = {}  # root -> (top, common)

    def _locate(self, root: Path) -> tuple[Path, Path] | None:
        if root not in self._commons:
            top = repository_top(root)
            private = git_dir(top) if top is not None else None
            located = None if top is None or private is None else (top, common_dir(private))
            self._commons[root] = located
        return self._commons[root]

    def new_worktrees(self, root: Path) -> list[Path]:
        """The workspace roots, in worktrees added since the last look, that correspond to
        ``root`` (the same directory below each worktree's top). The first look at a
        repository answers none: what exists then is not new."""
        located = self._locate(root)
        if located is None:
            return []
        top, common = located
        stamp = _stamp(common / "worktrees")
        repository = self._repositories.get(common)
        if repository is not None and repository.stamp == stamp:
            return []
        linked, pending = linked_worktrees(common)
        tops = {*linked, common.parent}
        if pending:
            stamp = None  # read the records again at the next look, whatever the stamp says
        if repository is None:
            self._repositories[common] = _Repository(stamp, tops)
            return []
        added = sorted(tops - repository.known)
        repository.stamp, repository.known = stamp, tops
        below = root.relative_to(top)
        roots = [t / below for t in added if t != top]
        return [r.resolve() for r in roots if os.path.isdir(r)]  # as requests name roots


def worktree_entries(
    source: Entry,
    root: Path,
    entries: list[Entry],
    max_warm: int,
    make: Callable[[Path, str, Language], Entry],
    interpreter: Callable[[Path, str | None], str],
) -> list[tuple[Entry, Entry]]:
    """``root``'s entries as an agent's requests there would get them (``make``), one per
    language warm at ``source``'s root, each with the entry it mirrors: that one's interpreter
    if it was named, else the one ``root`` resolves (``interpreter``: its own venv, ``PATH``'s).
    None past ``max_warm`` entries, nor for a root registered already."""
    if any(e.workspace.root == root for e in entries):
        return []
    here = source.workspace.root
    made: list[tuple[Entry, Entry]] = []
    for twin in [e for e in entries if e.workspace.root == here and not e.closed]:
        if len(entries) + len(made) >= max_warm:
            log.info("not warming up %s: %d workspaces are warm already", root, max_warm)
            break
        ws = twin.workspace
        named = interpreter(ws.root, None) != ws.python
        python = ws.python if named else interpreter(root, None)
        made.append((twin, make(root, python, ws.language)))
    return made


class WorktreeWarmup:
    """The registry's side: on each tick of a watched workspace, its repository's new
    worktrees are registered (``make``: the entries an agent's requests there would get, each
    with the warm entry it mirrors) and warmed up (``Entry.prewarm``: the checker, ``watch``
    once it runs, the graph, the bases, the mirrored entry's recently compared files first)."""

    def __init__(
        self,
        enabled: bool,
        make: Callable[[Entry, Path], list[tuple[Entry, Entry]]],
        watch: Callable[[Entry], None],
    ) -> None:
        self.enabled = enabled
        self._make = make
        self._watch = watch
        self._scout = WorktreeScout()
        self._seen = asyncio.Event()  # set when a worktree is warmed up (``wait_warmed``)
        self.warmed: dict[tuple[Path, str], Entry] = {}  # (worktree root, language) -> entry

    def look(self, source: Entry) -> None:
        """Warm up each worktree of ``source``'s repository added since the last look. Never
        raises: it runs on the watcher's tick, which must go on whatever happens here."""
        try:
            for root in self._scout.new_worktrees(source.workspace.root):
                self.warmed = {r: e for r, e in self.warmed.items() if not e.closed}
                for twin, entry in self._make(source, root):
                    language = entry.workspace.language.name
                    log.info(
                        "warming up %s (%s): a new worktree of %s",
                        root,
                        language,
                        twin.workspace.root,
                    )
                    entry.prewarm(
                        list(twin.workspace.base_cache), functools.partial(self._watch, entry)
                    )
                    self.warmed[root, language] = entry
                    self._seen.set()
        except PrewriteError as exc:
            log.info("not warming up a worktree of %s: %s", source.workspace.root, exc)
        except Exception:
            log.exception("looking for worktrees of %s failed", source.workspace.root)

    async def wait_warmed(self, root: Path, language: str = "python") -> Entry:
        """The entry of ``language`` warmed up for the worktree at ``root``, once there is one
        (tests wait on it, under a timeout)."""
        while (root, language) not in self.warmed:
            self._seen.clear()  # no await between the test and the wait: no wake-up is lost
            await self._seen.wait()
        return self.warmed[root, language]
