"""Which workspaces the user trusts to run their own code (as editors ask before they do).

A trusted workspace is checked as CI checks it: its interpreter is run to learn the environment,
its own ruff lints, and ``apply`` runs its tests and ``finish`` its commands. An untrusted one is
checked without running anything that lives in it: the daemon's own ruff, the environment read
from disk (``pyvenv.cfg``, ``site-packages``, ``.pth`` files) but never executed, no tests and no
``finish``. Only the user decides: the list lives in the user's configuration directory
(``$XDG_CONFIG_HOME/prewrite/trusted``, one absolute directory a line; ``PREWRITE_TRUST_FILE``
overrides the location), never in a repository, so a patch cannot trust itself.
"""

from __future__ import annotations

import os
from pathlib import Path

from prewrite.files import read_or_none


def trust_file() -> Path:
    override = os.environ.get("PREWRITE_TRUST_FILE")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "prewrite" / "trusted"


def trusted_roots(path: Path | None = None) -> list[Path]:
    """The trusted directories (each covers everything below it)."""
    data = read_or_none(path or trust_file())  # bounded, regular files only
    try:
        lines = (data or b"").decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return []
    return [Path(line.strip()) for line in lines if line.strip().startswith("/")]


def is_trusted(root: Path, path: Path | None = None) -> bool:
    """Whether ``root`` (resolved) is one of the trusted directories or below one."""
    return any(root == t or t in root.parents for t in trusted_roots(path))


def set_trusted(root: Path, trusted: bool, path: Path | None = None) -> list[Path]:
    """Add ``root`` to (or remove it from) the trusted list; returns the new list."""
    target = path or trust_file()
    roots = [r for r in trusted_roots(target) if r != root]
    if trusted:
        roots.append(root)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text("".join(f"{r}\n" for r in roots), encoding="utf-8")
    tmp.replace(target)
    return roots
