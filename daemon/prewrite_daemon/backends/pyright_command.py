"""How pyright is started: where its node package is, the server's and the CLI's command lines,
the environment its server runs in, its version.

Kept apart from ``backends.pyright`` (which speaks LSP through pygls) and light to import: the
daemon's launcher (``prewrite_daemon.launch``) spawns the ready server with exactly this command
before the daemon's own code has loaded (``backends.spawned_ahead``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from prewrite.errors import BackendFailed
from prewrite.files import read_or_none
from prewrite_daemon.backends.node import node_executable


def pyright_dist() -> Path:
    """The directory holding pyright's ``index.js`` and ``langserver.index.js``.

    ``PREWRITE_PYRIGHT_DIST`` overrides; otherwise the copy bundled in the ``pyright`` PyPI package.
    """
    override = os.environ.get("PREWRITE_PYRIGHT_DIST")
    if override:
        return Path(override)
    import pyright  # the PyPI wrapper ships the node package under dist/

    return Path(pyright.__file__).parent / "dist"


def dist_version(dist: Path) -> str:
    """The version in a pyright package's ``package.json`` ("unknown" if it cannot be read)."""
    try:
        data = json.loads((dist / "package.json").read_text())
    except (OSError, ValueError):
        return "unknown"
    return str(data.get("version", "unknown"))


def checker_version(dist: Path | None = None) -> str:
    """pyright's version ("pyright 1.1.414"), part of every verdict's environment fingerprint."""
    return f"pyright {dist_version(dist or pyright_dist())}"


@dataclass(frozen=True)
class PyrightOrigin:
    """The pyright that judges a workspace: its package directory (None: prewrite's own)."""

    dist: Path | None
    version: str
    pinned: str | None = None  # what the repository pins, when another version judges

    @property
    def origin(self) -> str:
        return f"the workspace's own ({self.dist})" if self.dist else "bundled with prewrite"

    @property
    def label(self) -> str:
        """ "pyright 1.1.414" (prewrite's own, as it always was) or with where it comes from."""
        if self.dist is not None:
            return f"pyright {self.version} (the workspace's own)"
        if self.pinned and self.pinned != self.version:
            return f"pyright {self.version} (bundled; the repository pins {self.pinned})"
        return f"pyright {self.version}"


_PIN = re.compile(r"""["']?\bpyright\s*==\s*([0-9][0-9A-Za-z.]*)""")
_PIN_FILES = ("pyproject.toml", "requirements-dev.txt", "requirements.txt", "dev-requirements.txt")


def workspace_pyright(root: Path, site_dirs: list[Path]) -> Path | None:
    """The pyright a trusted workspace installs: the PyPI package's bundled node package in its
    interpreter's site-packages, or npm's ``node_modules/pyright`` at the root."""
    for candidate in [
        *(d / "pyright" / "dist" for d in site_dirs),
        root / "node_modules" / "pyright",
    ]:
        if (candidate / "langserver.index.js").is_file() and (candidate / "index.js").is_file():
            return candidate
    return None


def pinned_version(root: Path) -> str | None:
    """The pyright version the repository pins (``pyright==X`` in its dependency files), read
    best-effort (regular files, bounded: ``prewrite.files``); None if it pins none."""
    for name in _PIN_FILES:
        data = read_or_none(root / name)
        if data is None:
            continue
        found = _PIN.search(data.decode("utf-8", errors="replace"))
        if found:
            return found.group(1)
    return None


def pyright_origin(root: Path, site_dirs: list[Path], may_run_own: bool) -> PyrightOrigin:
    """The workspace's own pyright where it may run one, else prewrite's (and what it pins).
    ``PREWRITE_PYRIGHT_DIST`` set: that pyright judges every workspace (the operator's call)."""
    chosen = may_run_own and not os.environ.get("PREWRITE_PYRIGHT_DIST")
    own = workspace_pyright(root, site_dirs) if chosen else None
    if own is not None and own.resolve() != pyright_dist().resolve():
        return PyrightOrigin(own, dist_version(own))
    return PyrightOrigin(None, dist_version(pyright_dist()), pinned_version(root))


def langserver_argv(dist: Path | None = None) -> list[str]:
    script = (dist or pyright_dist()) / "langserver.index.js"
    if not script.is_file():
        raise BackendFailed(f"pyright language server not found at {script}")
    return [node_executable(), str(script), "--stdio"]


def cli_argv(dist: Path | None = None) -> list[str]:
    """The cold ``pyright`` CLI of the same version (used by tests and the bench as the oracle)."""
    return [node_executable(), str((dist or pyright_dist()) / "index.js")]


def server_env() -> dict[str, str]:
    """The language server's environment: the daemon's, with room for a large program."""
    return dict(os.environ, NODE_OPTIONS="--max-old-space-size=4096")
