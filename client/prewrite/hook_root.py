"""Which workspace judges a file the hook sees: never one a patch could have made.

The workspace's root decides the rules (its ``[tool.prewrite]``, its checker settings), so it
must not be chosen by files an agent can write. The nearest ``pyproject.toml`` was: an agent
that wrote ``pkg/pyproject.toml`` with ``block = "never"`` and ``typeCheckingMode = "off"`` had
its later edits in ``pkg/`` judged by that file. So the root is one of:

- the file's repository: the nearest directory above it holding ``.git`` — a directory, or a
  ``gitdir:`` file (a worktree, a submodule). A patch may not write any path through ``.git``
  (``forbidden_path``), so no patch makes one;
- a root the user registered: ``prewrite trust``'s list (``prewrite.trust``, in the user's own
  configuration) or the hook's explicit roots (``run_hook(roots=...)``; ``PREWRITE_HOOK_ROOTS``,
  directories separated by ``os.pathsep``, set in the hook's command by the user).

When several hold the file the nearest (deepest) judges: a project the user registered inside a
repository, a repository inside a registered folder. When none does — no repository, nothing
registered, even when the session's ``cwd`` is ``/`` or a temporary directory — there is no
workspace whose rules could judge the edit, and the hook refuses it (fails closed) rather than
make one up from the working directory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.files import read_or_none
from prewrite.trust import trusted_roots

if TYPE_CHECKING:
    from collections.abc import Iterable

ROOTS_ENV = "PREWRITE_HOOK_ROOTS"
_GITDIR_LIMIT = 4096


@dataclass(frozen=True)
class Target:
    """Where the edited file lives: its workspace ``root`` and its path relative to it."""

    root: Path
    path: str  # posix, relative to root, through the real directories (as the daemon names it)
    marker: str  # why this root: ".git" (the repository's top) or "registered"


def registered_roots(explicit: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """The roots the user registered: the hook's explicit ones, ``PREWRITE_HOOK_ROOTS``, and
    ``prewrite trust``'s list (resolved; relative entries are ignored)."""
    given = [*explicit, *os.environ.get(ROOTS_ENV, "").split(os.pathsep)]
    found = [Path(os.path.realpath(g)) for g in given if os.path.isabs(g)]
    found += [Path(os.path.realpath(t)) for t in trusted_roots()]
    return list(dict.fromkeys(found))


def is_repository_top(directory: Path) -> bool:
    """``directory`` holds ``.git``: a directory, or a file saying ``gitdir: ...``."""
    marker = directory / ".git"
    if os.path.isdir(marker):
        return True
    data = read_or_none(marker, _GITDIR_LIMIT)  # bounded: a FIFO named .git never blocks
    return data is not None and data.startswith(b"gitdir:")


def find_target(file_path: str, cwd: str, registered: Iterable[Path] = ()) -> Target | None:
    """The workspace of ``file_path`` (relative to ``cwd``): the nearest of its repository's top
    and the registered roots above it; None when neither holds it (the hook refuses)."""
    path = Path(cwd or os.getcwd(), file_path).resolve()
    roots = [r for r in registered if r in path.parents]
    nearest = max(roots, key=lambda r: len(r.parts), default=None)
    for parent in path.parents:
        if nearest is not None and len(parent.parts) <= len(nearest.parts):
            break  # a registered root is nearer than any repository above this
        if is_repository_top(parent):
            return Target(parent, path.relative_to(parent).as_posix(), ".git")
    if nearest is None:
        return None
    return Target(nearest, path.relative_to(nearest).as_posix(), "registered")


def no_workspace_reason(file_path: str) -> str:
    """What the model reads when a file has no workspace (see the module docstring)."""
    return (
        f"prewrite refused this edit of {file_path}: the file is in no repository (no .git "
        "above it) and under no root the user registered, so there are no workspace rules to "
        "judge it by, and the hook fails closed. Edit files inside the project; if this file "
        "is meant to be edited, ask the user to register its folder (`prewrite trust DIR`, or "
        f"{ROOTS_ENV}=DIR in the hook's command) or to `git init` the project."
    )
