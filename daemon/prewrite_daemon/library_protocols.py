"""Member names of the Protocol classes a workspace's checker can see outside the workspace.

Structural typing makes a class member's change visible wherever an instance meets a Protocol
with a member of that name, so the name-level narrowing (``name_deps``) must know them: the
installed packages (site directories), sources read from outside the root (``extraPaths``,
editable installs), and the typeshed stubs pyright bundles for installed packages. The stdlib's
are built in (``symbol_changes.STDLIB_PROTOCOL_MEMBERS``). Reading a venv takes 0.3 to 4 s, so the
answer is cached by the directories' modification times: installing or removing a package
changes its site directory.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from prewrite_daemon.backends.pyright import pyright_dist
from prewrite_daemon.symbol_changes import protocol_members_in

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

_cache: dict[tuple[tuple[str, int], ...], frozenset[str]] = {}


def library_protocol_members(dirs: Iterable[Path]) -> frozenset[str]:
    """Non-dunder Protocol member names under ``dirs`` and in the bundled stubs of what they
    install (cached until a directory's listing changes)."""
    dirs = [d for d in dict.fromkeys(dirs) if d.is_dir()]
    key = tuple((str(d), _mtime(d)) for d in dirs)
    found = _cache.get(key)
    if found is None:
        found = protocol_members_in([*dirs, *_bundled_stubs(dirs)])
        _cache[key] = found
    return found


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def _bundled_stubs(dirs: list[Path]) -> list[Path]:
    """pyright's typeshed stubs (``stubs/<dist>/<package>``) for the packages in ``dirs``."""
    installed: set[str] = set()
    for d in dirs:
        with contextlib.suppress(OSError):
            installed |= {p.name.removesuffix(".py") for p in d.iterdir()}
    found: list[Path] = []
    for stubs in pyright_dist().glob("**/typeshed-fallback/stubs"):
        for dist in stubs.iterdir():
            with contextlib.suppress(OSError):
                found += [p for p in dist.iterdir() if p.name.removesuffix(".pyi") in installed]
    return found
