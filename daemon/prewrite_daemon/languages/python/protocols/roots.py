"""The roots whose Protocols an environment's checker sees outside the workspace, as the levels of
a scan (``library``): named here, scanned there.

Structural typing makes a class member's change visible wherever an instance meets a Protocol
with a member of that name, so the planner needs the member names of every Protocol outside the
workspace: pyright's bundled typeshed (the stdlib and the stubs of every package, installed or
not: pyright resolves ``import yaml`` to them either way), a ``typeshedPath`` the configuration
names, the site dirs and the directories outside the root the checker reads (``extraPaths``,
editable sources). ``for_environment`` names them as levels (``levels``) and hands them to a
``LibraryProtocols``, cached under the state dir (``default_cache_dir``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prewrite.runtime import runtime_paths
from prewrite_daemon.backends.pyright_command import checker_version, pyright_dist
from prewrite_daemon.languages.python.protocols.library import (
    SCAN_TIMEOUT_S,
    LibraryProtocols,
    ScanFailed,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def for_environment(
    site_dirs: Iterable[Path],
    outside: Iterable[Path] = (),
    typesheds: Iterable[Path] = (),
    checker: str | None = None,
    cache_dir: Path | None = None,
    linked: Iterable[Path] = (),
    dist: Path | None = None,
) -> LibraryProtocols:
    """The Protocols of an environment: pyright's bundled typeshed (keyed by ``checker``, its
    version), ``typesheds`` a configuration names, the ``site_dirs`` and ``outside`` trees, and
    the ``linked`` sources (files outside the root a link inside it points at: one level).
    ``dist``: the pyright package that judges (None: prewrite's own), whose typeshed counts."""
    levels: list[dict[str, Any]] = []
    bundled = bundled_typeshed(dist)
    if bundled is not None:
        version = checker or checker_version(dist)
        levels.append({"kind": "typeshed", "roots": [str(bundled)], "key": f"{version} {bundled}"})
    levels += [{"kind": "typeshed", "roots": [str(t)], "key": None} for t in typesheds]
    trees = dict.fromkeys(str(d) for d in [*site_dirs, *outside])
    levels += [{"kind": "tree", "roots": [t], "key": None} for t in trees]
    files = sorted({str(f) for f in linked} - trees.keys())
    levels += [{"kind": "tree", "roots": files, "key": None}] if files else []
    return LibraryProtocols(cache_dir or default_cache_dir(), levels)


def bundled_typeshed(dist: Path | None = None) -> Path | None:
    """The typeshed pyright falls back to (``typeshed-fallback`` in its package)."""
    dist = dist or pyright_dist()
    for found in (dist / "dist" / "typeshed-fallback", dist / "typeshed-fallback"):
        if found.is_dir():
            return found
    return None


def configured_typesheds(settings: Mapping[str, Any], root: Path) -> list[Path]:
    """The ``typeshedPath`` of a pyright configuration (pyright reads it instead of its own)."""
    value = settings.get("typeshedPath")
    if not isinstance(value, str) or not value:
        return []
    found = Path(os.path.normpath(root / os.path.expanduser(value)))
    return [found] if found.is_dir() else []


def default_cache_dir() -> Path:
    """Under the state dir, unless ``PREWRITE_PROTOCOL_CACHE`` names a directory: every entry is
    keyed by what it was computed from (the checker's version, a tree's listing stamp), so daemons
    with different runtime dirs may share one (the test suite's do: a scan of a venv is ~20 s of
    CPU, a cached answer ~0.5 s)."""
    override = os.environ.get("PREWRITE_PROTOCOL_CACHE")
    if override:
        return Path(override)
    return runtime_paths().state_dir / "protocols"


def library_protocol_members(
    dirs: Iterable[Path], timeout_s: float = SCAN_TIMEOUT_S
) -> frozenset[str]:
    """Every Protocol member name under ``dirs`` and typeshed, computed now (for the bench and
    tests that hand the set to another process); raises ``ScanFailed`` without an answer."""
    library = for_environment(dirs)
    found = library.wait(timeout_s)
    if found is None:
        raise ScanFailed(library.statistics().error or "no answer in time")
    return found.members
