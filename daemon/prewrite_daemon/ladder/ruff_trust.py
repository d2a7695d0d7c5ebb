"""Whether a warm ``ruff server`` still sees a file's configuration as the disk has it now.

The server reads every configuration once, when it starts (the CLI reads them at every run). So
it answers for a file only while each configuration ruff may read for it — ``ruff.toml``,
``.ruff.toml``, ``pyproject.toml`` in its directory and every one above, the files they
``extend``, the user's own ruff configuration, the ruff executable — is provably what it was
when the server started: unchanged since the server first answered for it, or, at first sight,
not touched (its status-change time, or its directory's for an absent file) since a file
written just before the start (``start_stamp``: the file system's own clock, which is coarser than
the wall clock and may be of another machine). A file that fails is answered by the CLI, and
the server is restarted to read afresh.

A configuration ruff cannot read (it does not parse, or extends a file that does not) is left to
the CLI too: the CLI fails on it, as CI's would, where the server would lint with its defaults.

A configuration in a directory strictly inside the workspace is also left to the CLI: the server
indexes those by walking the workspace, which skips ignored and excluded directories, where the
CLI's discovery from the file up does not.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from prewrite.errors import UnreadableFile
from prewrite.files import read_text

CONFIG_NAMES = ("ruff.toml", ".ruff.toml", "pyproject.toml")

Stamp = tuple[int, int, int, int, int] | None  # (device, inode, size, mtime, ctime); None: absent


def dig(data: dict[str, Any], *keys: str) -> object:
    """``data[k1][k2]...``, or None where a level is missing or not a table."""
    node: object = data
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return node  # pyright: ignore[reportUnknownVariableType]


def extended_config(path: Path, text: str | None) -> Path | None:
    """The file this configuration's ``extend`` names, if any (ruff: relative to the file)."""
    if text is None or "extend" not in text:
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    keys = ("tool", "ruff", "extend") if path.name == "pyproject.toml" else ("extend",)
    value = dig(data, *keys)
    if not isinstance(value, str):
        return None
    return Path(os.path.normpath(path.parent / os.path.expanduser(value)))


def user_configs() -> list[Path]:
    """Where ruff looks for the user's own configuration (Linux and macOS)."""
    home = Path.home()
    bases = [Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "ruff"]
    bases.append(home / "Library" / "Application Support" / "ruff")
    return [base / name for base in bases for name in CONFIG_NAMES]


def _stamp(path: Path) -> Stamp:
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def start_stamp() -> int:
    """The status-change time of a file written now: the file system's clock, not the wall's.

    Written in a directory of its own, which no workspace is inside: writing it changes that
    directory's times, which must not look like a change above the workspace.
    """
    global _clock_dir  # one directory for the daemon's life
    if _clock_dir is None or not os.path.isdir(_clock_dir):
        _clock_dir = tempfile.mkdtemp(prefix="prewrite-ruff-clock-")
        atexit.register(shutil.rmtree, _clock_dir, True)  # not left in /tmp by every daemon
    with tempfile.NamedTemporaryFile(dir=_clock_dir) as probe:
        return os.fstat(probe.fileno()).st_ctime_ns


_clock_dir: str | None = None


class ConfigTrust:
    """What one server read, started right after ``started`` (``start_stamp``) was taken."""

    def __init__(self, root: Path, exe: str, started: int) -> None:
        self.root = root
        self._limit = started
        self._exe = Path(exe)
        self._exe_stamp = _stamp(self._exe)
        self._known: dict[Path, Stamp] = {}

    def holds(self, path: Path) -> bool:
        """Whether the server's configuration for the file ``path`` is the disk's now.

        ``OSError`` (a directory that cannot be read) or a configuration that is not a regular
        file of sane size answers False: the CLI then judges (and refuses it, ``guard_configs``).
        """
        try:
            return self._holds(path)
        except (OSError, UnreadableFile):
            return False

    def has_user_config(self) -> bool:
        return any(self._stamp_if_known(p) is not None for p in user_configs())

    def _holds(self, path: Path) -> bool:
        if _stamp(self._exe) != self._exe_stamp:
            return False
        if not all(self._same(p) for p in user_configs()):
            return False
        todo: list[Path] = []
        for directory in path.parents:
            inside = directory != self.root and self.root in directory.parents
            for name in CONFIG_NAMES:
                config = directory / name
                if not self._same(config):
                    return False
                if self._known[config] is not None:
                    if inside:
                        return False
                    todo.append(config)
        seen: set[Path] = set()
        while todo:  # the files configurations extend, and theirs
            config = todo.pop()
            if config in seen:
                continue
            seen.add(config)
            if not self._same(config):
                return False
            if self._known[config] is None:
                continue
            if config.is_dir():
                continue
            try:
                text = read_text(config, name=str(config))
                tomllib.loads(text or "")
            except (UnicodeDecodeError, tomllib.TOMLDecodeError):
                return False  # the CLI fails on it (and says why); the server would lint on
            target = extended_config(config, text)
            if target is not None:
                todo.append(target)
        return True

    def _stamp_if_known(self, path: Path) -> Stamp:
        return self._known[path] if path in self._known else _stamp(path)

    def _same(self, path: Path) -> bool:
        """``path`` is as the server read it: as first seen, and first seen older than it."""
        now = _stamp(path)
        if path in self._known:
            return self._known[path] == now
        if now is not None:
            changed = now[4]
        else:
            parent = _stamp(path.parent)
            changed = parent[4] if parent is not None else 0  # no directory: no file either
        if changed >= self._limit:
            return False
        self._known[path] = now
        return True
