"""Which binary of a single-binary checker (ty, pyrefly) judges a workspace, and its version.

Both ship as one native executable in a PyPI wheel: its ``.dist-info`` names the version, the
wheel puts the executable in the environment's scripts directory (``bin/``). A trusted workspace
whose interpreter has the checker installed is judged by that binary (its venv's ``bin/ty``, the
version its CI pins); otherwise by the one installed with prewrite (pinned in the ``daemon``
extra), and the label names the workspace's version when it has another. An untrusted
workspace's binary is never run.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from prewrite.errors import BackendFailed

OWN = "the workspace's own"
BUNDLED = "bundled"


@dataclass(frozen=True)
class CliTool:
    """The checker binary that runs: its name, path, version and where it comes from."""

    name: str  # "ty" | "pyrefly": the PyPI package, the executable, the receipt's word
    binary: str
    version: str
    origin: str  # OWN | BUNDLED
    workspace_version: str | None = None  # the workspace's installed one, when another runs

    @property
    def label(self) -> str:
        """For receipts and the fingerprint: "ty 0.0.104 (bundled)", "ty 0.0.104 (the
        workspace's own)", "ty 0.0.104 (bundled; the workspace has 0.0.90)"."""
        has = f"; the workspace has {self.workspace_version}" if self.workspace_version else ""
        return f"{self.name} {self.version} ({self.origin}{has})"


@dataclass(frozen=True)
class ToolPython:
    """The workspace's Python as a checker's run is told of it."""

    python: str  # the interpreter the check names
    may_run: bool  # the checker may run it: a trusted workspace's interpreter that may run
    # its package directories and the ones its .pth files add, found without running anything
    package_dirs: tuple[str, ...] = ()
    version: str | None = None  # its "3.12", read from its pyvenv.cfg, where known


def installed_version(name: str, site_dirs: list[Path]) -> str | None:
    """The version of distribution ``name`` installed in these package directories, read from
    its ``.dist-info`` directory's name (nothing is imported or run)."""
    pattern = re.compile(rf"^{re.escape(name)}-([0-9][^-]*)\.dist-info$", re.IGNORECASE)
    for directory in site_dirs:
        try:
            entries = sorted(os.listdir(directory))
        except OSError:
            continue
        for entry in entries:
            found = pattern.match(entry)
            if found:
                return found.group(1)
    return None


def bundled_binary(name: str) -> Path:
    """The executable installed with prewrite (its environment's scripts directory)."""
    binary = Path(sysconfig.get_path("scripts")) / name
    if not binary.is_file():
        raise BackendFailed(f"{name} is not installed: pip install 'prewrite[daemon]'")
    return binary


def bundled_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def find_tool(name: str, site_dirs: list[Path], run_python: str | None) -> CliTool:
    """The workspace's own binary where it may run one (``run_python`` given: trusted) and has
    one beside its interpreter, else prewrite's."""
    theirs = installed_version(name, site_dirs)
    ours = bundled_binary(name)
    if run_python is not None and theirs is not None:
        own = Path(run_python).parent / name  # the venv's bin/, not the interpreter's target
        if own.is_file() and os.access(own, os.X_OK) and own.resolve() != ours.resolve():
            return CliTool(name, str(own), theirs, OWN)
    version = bundled_version(name)
    return CliTool(name, str(ours), version, BUNDLED, theirs if theirs != version else None)
