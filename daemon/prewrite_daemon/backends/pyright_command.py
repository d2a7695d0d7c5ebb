"""How pyright is started: where its node package is, the server's and the CLI's command lines,
the environment its server runs in, its version.

pyright and basedpyright (pyright's fork: the same server, CLI and report, its own rules and
defaults) are two ``Flavour`` values of the same functions: their PyPI packages hold the node
package in different places, and basedpyright's version is its wheel's (its ``package.json``
says which pyright it is based on).

Kept apart from ``backends.pyright`` (which speaks LSP through pygls) and light to import: the
daemon's launcher (``prewrite_daemon.launch``) spawns the ready server with exactly this command
before the daemon's own code has loaded (``backends.spawned_ahead``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from prewrite.errors import BackendFailed
from prewrite.files import read_or_none
from prewrite_daemon.backends.node import node_executable


@dataclass(frozen=True)
class Flavour:
    """pyright or a fork that speaks its language: how its package is found and named."""

    name: str  # the checker's name: the PyPI and npm package, the receipt's word
    override: str  # the variable naming a package directory that judges every workspace
    in_site: str  # the node package's directory inside the PyPI package's site-packages entry
    source: str  # what its language server puts in ``Diagnostic.source``
    default: bool = False  # prewrite's default checker: its label names no origin when bundled

    @property
    def pin(self) -> re.Pattern[str]:
        return re.compile(rf"""["']?\b{self.name}\s*==\s*([0-9][0-9A-Za-z.]*)""")


PYRIGHT = Flavour("pyright", "PREWRITE_PYRIGHT_DIST", "pyright/dist", "Pyright", default=True)
BASEDPYRIGHT = Flavour("basedpyright", "PREWRITE_BASEDPYRIGHT_DIST", "basedpyright", "basedpyright")


def pyright_dist(flavour: Flavour = PYRIGHT) -> Path:
    """The directory holding pyright's ``index.js`` and ``langserver.index.js``.

    ``PREWRITE_PYRIGHT_DIST`` (``PREWRITE_BASEDPYRIGHT_DIST``) overrides; otherwise the copy
    bundled in the PyPI package installed with prewrite.
    """
    override = os.environ.get(flavour.override)
    if override:
        return Path(override)
    spec = importlib.util.find_spec(flavour.name)  # found, not imported: nothing of it runs
    if spec is None or spec.origin is None:
        raise BackendFailed(f"{flavour.name} is not installed: pip install 'prewrite[daemon]'")
    return Path(spec.origin).parent.parent / flavour.in_site


def dist_version(dist: Path, flavour: Flavour = PYRIGHT) -> str:
    """The version of the package at ``dist`` ("unknown" if it cannot be read): its wheel's
    metadata beside it where the node package's ``package.json`` says another program's
    (basedpyright's names the pyright it is based on), else the ``package.json``'s."""
    if not flavour.default:
        for info in sorted(dist.parent.glob(f"{flavour.name}-*.dist-info")):
            return info.name.removeprefix(f"{flavour.name}-").removesuffix(".dist-info")
    try:
        data = json.loads((dist / "package.json").read_text())
    except (OSError, ValueError):
        return "unknown"
    return str(data.get("version", "unknown"))


def checker_version(dist: Path | None = None, flavour: Flavour = PYRIGHT) -> str:
    """pyright's version ("pyright 1.1.414"), part of every verdict's environment fingerprint."""
    return f"{flavour.name} {dist_version(dist or pyright_dist(flavour), flavour)}"


@dataclass(frozen=True)
class PyrightOrigin:
    """The pyright that judges a workspace: its package directory (None: prewrite's own)."""

    dist: Path | None
    version: str
    pinned: str | None = None  # what the repository pins, when another version judges
    flavour: Flavour = PYRIGHT

    @property
    def package(self) -> Path:
        """The package directory that judges, prewrite's own resolved."""
        return self.dist or pyright_dist(self.flavour)

    @property
    def origin(self) -> str:
        return f"the workspace's own ({self.dist})" if self.dist else "bundled with prewrite"

    @property
    def label(self) -> str:
        """ "pyright 1.1.414" (prewrite's own, as it always was) or with where it comes from;
        a checker other than the default always says where ("basedpyright 1.40.2 (bundled)")."""
        name = f"{self.flavour.name} {self.version}"
        if self.dist is not None:
            return f"{name} (the workspace's own)"
        if self.pinned and self.pinned != self.version:
            return f"{name} (bundled; the repository pins {self.pinned})"
        return name if self.flavour.default else f"{name} (bundled)"


_PIN_FILES = ("pyproject.toml", "requirements-dev.txt", "requirements.txt", "dev-requirements.txt")


def workspace_pyright(root: Path, site_dirs: list[Path], flavour: Flavour = PYRIGHT) -> Path | None:
    """The pyright a trusted workspace installs: the PyPI package's bundled node package in its
    interpreter's site-packages, or npm's ``node_modules/pyright`` at the root."""
    for candidate in [
        *(d / flavour.in_site for d in site_dirs),
        root / "node_modules" / flavour.name,
    ]:
        if (candidate / "langserver.index.js").is_file() and (candidate / "index.js").is_file():
            return candidate
    return None


def pinned_version(root: Path, flavour: Flavour = PYRIGHT) -> str | None:
    """The pyright version the repository pins (``pyright==X`` in its dependency files), read
    best-effort (regular files, bounded: ``prewrite.files``); None if it pins none."""
    for name in _PIN_FILES:
        data = read_or_none(root / name)
        if data is None:
            continue
        found = flavour.pin.search(data.decode("utf-8", errors="replace"))
        if found:
            return found.group(1)
    return None


def pyright_origin(
    root: Path, site_dirs: list[Path], may_run_own: bool, flavour: Flavour = PYRIGHT
) -> PyrightOrigin:
    """The workspace's own pyright where it may run one, else prewrite's (and what it pins).
    ``PREWRITE_PYRIGHT_DIST`` set: that pyright judges every workspace (the operator's call)."""
    chosen = may_run_own and not os.environ.get(flavour.override)
    own = workspace_pyright(root, site_dirs, flavour) if chosen else None
    ours = pyright_dist(flavour)
    if own is not None and own.resolve() != ours.resolve():
        return PyrightOrigin(own, dist_version(own, flavour), flavour=flavour)
    return PyrightOrigin(None, dist_version(ours, flavour), pinned_version(root, flavour), flavour)


def langserver_argv(dist: Path | None = None, flavour: Flavour = PYRIGHT) -> list[str]:
    script = (dist or pyright_dist(flavour)) / "langserver.index.js"
    if not script.is_file():
        raise BackendFailed(f"{flavour.name} language server not found at {script}")
    return [node_executable(), str(script), "--stdio"]


def cli_argv(dist: Path | None = None, flavour: Flavour = PYRIGHT) -> list[str]:
    """The cold ``pyright`` CLI of the same version (used by tests and the bench as the oracle)."""
    return [node_executable(), str((dist or pyright_dist(flavour)) / "index.js")]


def server_env() -> dict[str, str]:
    """The language server's environment: the daemon's, with room for a large program."""
    return dict(os.environ, NODE_OPTIONS="--max-old-space-size=4096")
