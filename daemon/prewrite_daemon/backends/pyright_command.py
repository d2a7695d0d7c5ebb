"""How pyright is started: where its node package is, the server's and the CLI's command lines,
the environment its server runs in, its version.

Kept apart from ``backends.pyright`` (which speaks LSP through pygls) and light to import: the
daemon's launcher (``prewrite_daemon.launch``) spawns the ready server with exactly this command
before the daemon's own code has loaded (``backends.spawned_ahead``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from prewrite.errors import BackendFailed
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


def checker_version() -> str:
    """pyright's version, part of every verdict's environment fingerprint."""
    try:
        data = json.loads((pyright_dist() / "package.json").read_text())
    except (OSError, ValueError):
        return "pyright unknown"
    return f"pyright {data.get('version', 'unknown')}"


def langserver_argv() -> list[str]:
    script = pyright_dist() / "langserver.index.js"
    if not script.is_file():
        raise BackendFailed(f"pyright language server not found at {script}")
    return [node_executable(), str(script), "--stdio"]


def cli_argv() -> list[str]:
    """The cold ``pyright`` CLI of the same version (used by tests and the bench as the oracle)."""
    return [node_executable(), str(pyright_dist() / "index.js")]


def server_env() -> dict[str, str]:
    """The language server's environment: the daemon's, with room for a large program."""
    return dict(os.environ, NODE_OPTIONS="--max-old-space-size=4096")
