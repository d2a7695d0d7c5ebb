"""Which ``node`` runs the JavaScript prewrite runs: pyright, prewrite's pinned TypeScript, a
trusted workspace's TypeScript.

The daemon inherits the ``PATH`` of whoever started it, and an agent often starts it from inside
a repository's own scripts: ``npm run`` puts ``node_modules/.bin`` first, an activated
virtualenv (with ``nodeenv``, a ``node`` of its own) its ``bin``, and an empty or ``.`` entry
names the working directory. A ``node`` found there is the repository's code, and it would run
for every workspace the daemon serves, trusted or not. So the search skips every ``PATH`` entry
a repository can supply that way: relative entries, entries with a ``node_modules`` component,
and virtualenv ``bin`` folders (a ``pyvenv.cfg`` beside them) — judged on the resolved path, and
the ``node`` found is judged again where its links lead. ``$PREWRITE_NODE``, set by the user,
is taken as it is.
"""

from __future__ import annotations

import os
from pathlib import Path

from prewrite.errors import BackendFailed


def is_project_supplied(directory: str) -> bool:
    """Whether a ``PATH`` entry (or a program's folder) is one a repository can put there."""
    if not os.path.isabs(directory):
        return True
    real = Path(os.path.realpath(directory))
    if "node_modules" in real.parts:
        return True
    return (real.parent / "pyvenv.cfg").exists()


def find_node(path: str | None = None) -> str | None:
    """The first ``node`` on ``path`` (default ``$PATH``) that no repository supplied, or None."""
    return find_program("node", path)


def find_program(name: str, path: str | None = None) -> str | None:
    """The first ``name`` on ``path`` (default ``$PATH``) that no repository supplied, or None
    (the same rule for any program of prewrite's own found on ``PATH``, ruff too)."""
    for entry in (os.environ.get("PATH", "") if path is None else path).split(os.pathsep):
        if is_project_supplied(entry):
            continue
        candidate = os.path.join(entry, name)
        if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
            continue
        if not is_project_supplied(os.path.dirname(os.path.realpath(candidate))):
            return candidate
    return None


def node_executable() -> str:
    """``$PREWRITE_NODE``, else ``find_node()``; ``BackendFailed`` when there is none."""
    node = os.environ.get("PREWRITE_NODE") or find_node()
    if not node:
        raise BackendFailed(
            "no node on PATH outside a project's node_modules/.bin or virtualenv (pyright and "
            "TypeScript need Node.js); install it, or set PREWRITE_NODE to its path"
        )
    return node


def sanitized_path(path: str, own_bin: str) -> str:
    """``path`` without the entries a repository supplies (``is_project_supplied``), the daemon's
    own ``bin`` (``own_bin``) kept: what every child of the daemon searches. pyright, given no
    interpreter for a workspace whose own is read only, runs ``python3`` from ``PATH`` — an
    activated venv's, first there, would run that repository's ``.pth`` files."""
    kept = [e for e in path.split(os.pathsep) if e == own_bin or not is_project_supplied(e)]
    return os.pathsep.join(kept)
