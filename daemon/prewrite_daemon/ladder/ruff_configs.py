"""Which configurations ruff reads for a file, and what of them may reach the agent.

ruff finds its configurations itself: ``ruff.toml``, ``.ruff.toml``, ``pyproject.toml`` in the
file's directory and every one above, and the files they ``extend``. So:

- ``ruff_configured``: whether one of them configures ruff for the file (else the lint rung
  selects only the breakage rules, as CI without a configuration would);
- ``guard_configs``: before ruff runs, each of them that exists must be a regular file of sane
  size (``prewrite.files``) — a FIFO there would hang ruff until its deadline, ``/dev/zero``
  would grow it without end; otherwise ``UnreadableFile``;
- ``scrubbed``: ruff's complaint about a configuration it cannot parse quotes the offending
  line; when that file is outside the root (a configuration that ``extend``s a credentials
  file), the quoted lines are left out, so outside content never reaches the agent.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import lru_cache
from pathlib import Path

from prewrite.files import read_text, regular_stat
from prewrite_daemon.ladder.ruff_trust import CONFIG_NAMES, dig, extended_config

RUFF_CONFIG_FILES = ("ruff.toml", ".ruff.toml")
_BY_PRECEDENCE = (".ruff.toml", "ruff.toml")  # in one directory, ruff reads the first it finds
MAX_EXTENDS = 64  # a longer extend chain is a cycle or an attack: ruff reports the first
_PARSE_FAILED = re.compile(r"Failed to parse (/\S+)")
_EXCERPT = re.compile(r"^\s*\d*\s*\|.*$\n?", re.MULTILINE)
_LEFT_OUT = "  [prewrite: the quoted lines are left out: they are not the workspace's]\n"


def ruff_configured(path: Path) -> bool:
    """Whether ruff's discovery finds a project configuration for ``path`` (a file)."""
    return ruff_config_for(path) is not None


def ruff_config_for(path: Path) -> Path | None:
    """The project configuration ruff's discovery finds for ``path`` (a file): the nearest
    directory holding one, and in it ``.ruff.toml`` before ``ruff.toml`` before a
    ``pyproject.toml`` with ``[tool.ruff]`` (ruff's order); None: ruff runs its defaults."""
    for directory in path.parents:
        for name in _BY_PRECEDENCE:
            if (directory / name).is_file():
                return directory / name
        pyproject = directory / "pyproject.toml"
        try:
            stat = pyproject.stat()
        except OSError:
            continue
        if _configures_ruff(str(pyproject), stat.st_mtime_ns, stat.st_size):
            return pyproject
    return None


@lru_cache(maxsize=256)
def _configures_ruff(pyproject: str, mtime_ns: int, size: int) -> bool:
    """A ``pyproject.toml`` with a ``[tool.ruff]`` table (one ruff cannot read counts: ruff
    reports it, as it would in CI). Keyed by the file's mtime and size, read once per version;
    read bounded (``UnreadableFile`` for a FIFO or a device, never cached)."""
    del mtime_ns, size  # the cache key only
    try:
        data = tomllib.loads(read_text(pyproject, name=pyproject) or "")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True
    return dig(data, "tool", "ruff") is not None


@lru_cache(maxsize=256)
def _extends(config: str, stamp: tuple[int, int, int]) -> Path | None:
    """What the configuration file ``config`` extends (read bounded, once per version)."""
    del stamp  # the cache key only
    try:
        return extended_config(Path(config), read_text(config, name=config))
    except UnicodeDecodeError:
        return None  # ruff reports it


def guard_configs(path: Path) -> None:
    """Refuse (``UnreadableFile``) before ruff runs for the file ``path`` when a configuration
    its discovery may open — in the file's directory or above, or extended by one — is a FIFO,
    a device, a directory or huge. Stats, and a bounded read of the configurations that exist."""
    todo = [d / name for d in path.parents for name in CONFIG_NAMES]
    seen: set[Path] = set()
    while todo and len(seen) < len(CONFIG_NAMES) * len(path.parents) + MAX_EXTENDS:
        config = todo.pop()
        if config in seen:
            continue
        seen.add(config)
        if os.path.isdir(config):
            continue  # a directory of that name is no configuration to ruff either
        st = regular_stat(config, name=str(config))
        if st is None:
            continue
        target = _extends(str(config), (st.st_ino, st.st_mtime_ns, st.st_size))
        if target is not None:
            todo.append(target)


def scrubbed(text: str, root: Path) -> str:
    """``text`` without the source lines ruff quotes (``2 | key = value``) unless every file it
    failed to parse is inside ``root``: an outside file's lines never reach the agent."""
    failed = _PARSE_FAILED.findall(text)
    real_root = os.path.realpath(root)
    inside = failed and all(
        os.path.realpath(p).startswith(real_root + os.sep) for p in failed
    )  # fmt: skip
    if inside or not _EXCERPT.search(text):
        return text
    return _EXCERPT.sub("", text).rstrip("\n") + "\n" + _LEFT_OUT
