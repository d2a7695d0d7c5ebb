"""Which workspaces the user trusts to run their own code (as editors ask before they do).

A trusted workspace is checked as CI checks it: its interpreter is run to learn the environment,
its own ruff lints, and ``apply`` runs its tests and ``finish`` its commands. An untrusted one is
checked without running anything that lives in it: the daemon's own ruff, the environment read
from disk (``pyvenv.cfg``, ``site-packages``, ``.pth`` files) but never executed, no tests and no
``finish``. Only the user decides: the list lives in the user's configuration directory
(``$XDG_CONFIG_HOME/prewrite/trusted``; ``PREWRITE_TRUST_FILE`` overrides the location), never in
a repository, so a patch cannot trust itself.

Trust is given to a directory, not to a name: each line is the resolved path, a tab, and the
directory's identity when it was trusted (``device:inode:owner:generation``; the generation is
the file system's inode generation on Linux, the birth time elsewhere, ``-`` where there is none,
so a deleted inode number handed to a new directory still differs). A trusted directory covers
everything below it, but only while it is the directory that was trusted: one deleted and made
again (by someone else, or by anyone) is not trusted until the user trusts it again.

A line with a path only was written by an older prewrite, which kept no identity: it is honoured
while the directory is owned by the user reading the list (someone else's directory by that name
is not trusted), and the next ``prewrite trust`` records its identity.
"""

from __future__ import annotations

import fcntl
import os
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

from prewrite.admission import check_path_chars
from prewrite.files import read_or_none

_FS_IOC_GETVERSION = 0x80087601  # _IOR('v', 1, long): the inode's generation (ext4, btrfs, xfs)


@dataclass(frozen=True)
class Identity:
    """What tells one directory from another that later took its name."""

    dev: int
    ino: int
    uid: int
    generation: int | None

    def text(self) -> str:
        gen = "-" if self.generation is None else str(self.generation)
        return f"{self.dev}:{self.ino}:{self.uid}:{gen}"

    @staticmethod
    def parse(text: str) -> Identity | None:
        parts = text.strip().split(":")
        try:
            dev, ino, uid = (int(p) for p in parts[:3])
            gen = None if parts[3] == "-" else int(parts[3])
        except (ValueError, IndexError):
            return None
        return Identity(dev, ino, uid, gen) if len(parts) == 4 else None


@dataclass(frozen=True)
class TrustEntry:
    """One line of the list: ``identity`` None for a line an older prewrite wrote."""

    path: Path
    identity: Identity | None


def directory_identity(path: Path) -> Identity | None:
    """The identity of the directory ``path`` (links followed), None if it is not one."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        return Identity(st.st_dev, st.st_ino, st.st_uid, _generation(fd, st))
    finally:
        os.close(fd)


def _generation(fd: int, st: os.stat_result) -> int | None:
    if sys.platform == "linux":
        try:
            raw = fcntl.ioctl(fd, _FS_IOC_GETVERSION, b"\0" * 8)
        except OSError:
            return None  # tmpfs and others: none (tmpfs never hands an inode number out twice)
        return int(struct.unpack("l", raw)[0])
    birth: object = getattr(st, "st_birthtime", None)
    return int(birth * 1e9) if isinstance(birth, float) else None


def trust_file() -> Path:
    override = os.environ.get("PREWRITE_TRUST_FILE")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "prewrite" / "trusted"


def trust_entries(path: Path | None = None) -> list[TrustEntry]:
    """Every line of the list (absolute paths only; a line whose identity is garbled is kept
    with none, so it is honoured only as an old line is)."""
    data = read_or_none(path or trust_file())  # bounded, regular files only
    try:
        lines = (data or b"").decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return []
    entries: list[TrustEntry] = []
    for line in lines:
        name, tab, ident = line.rpartition("\t")
        name = name if tab else ident
        if name.strip().startswith("/"):
            entries.append(TrustEntry(Path(name.strip()), Identity.parse(ident) if tab else None))
    return entries


def trusted_roots(path: Path | None = None) -> list[Path]:
    """The directories on the list, whether or not each still holds (the hook's roots)."""
    return [e.path for e in trust_entries(path)]


def entry_problem(entry: TrustEntry) -> str | None:
    """Why ``entry`` does not trust its directory now, or None when it does."""
    now = directory_identity(entry.path)
    again = f"`prewrite trust {entry.path}` again if it is yours"
    if now is None:
        return f"{entry.path} no longer exists as a directory"
    if entry.identity is None:
        if now.uid == os.getuid():
            return None
        return (
            f"{entry.path} was trusted by an older prewrite, which kept no identity, and is "
            f"owned by uid {now.uid}, not by you: {again}"
        )
    if now != entry.identity:
        return f"the trusted folder {entry.path} was replaced since it was trusted: {again}"
    return None


def _covering(root: Path, path: Path | None) -> list[TrustEntry]:
    return [e for e in trust_entries(path) if root == e.path or e.path in root.parents]


def is_trusted(root: Path, path: Path | None = None) -> bool:
    """Whether ``root`` (resolved) is one of the trusted directories or below one, and that
    directory is still the one the user trusted."""
    return any(entry_problem(e) is None for e in _covering(root, path))


def why_untrusted(root: Path, path: Path | None = None) -> str | None:
    """Why a ``root`` the list covers is not trusted now (None: trusted, or not listed)."""
    problems = [entry_problem(e) for e in _covering(root, path)]
    if not problems or None in problems:
        return None
    return "; ".join(p for p in problems if p)


def set_trusted(root: Path, trusted: bool, path: Path | None = None) -> list[Path]:
    """Add ``root`` to (or remove it from) the trusted list; returns the new list.

    ``root`` is recorded with its identity now; old lines that still hold get theirs.
    """
    check_path_chars(str(root))  # a newline in a name would add a line of its own to the file
    target = path or trust_file()
    entries: list[TrustEntry] = []
    for entry in trust_entries(target):
        if entry.path == root:
            continue
        if entry.identity is None and entry_problem(entry) is None:
            entry = TrustEntry(entry.path, directory_identity(entry.path))
        entries.append(entry)
    if trusted:
        identity = directory_identity(root)
        if identity is None:
            raise NotADirectoryError(f"not a directory: {root}")
        entries.append(TrustEntry(root, identity))
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = target.with_name(target.name + ".tmp")
    text = "".join(
        f"{e.path}\t{e.identity.text()}\n" if e.identity else f"{e.path}\n" for e in entries
    )
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    return [e.path for e in entries]
