"""Whether the interpreter a check names may be run, or is a repository's code to read only.

Running an interpreter runs its ``.pth`` files and whatever its ``bin`` holds (the ruff next to
it lints too), so an interpreter that belongs to a repository the user does not trust is read
from disk, never run, whichever workspace names it and by whichever path. The rule:

The interpreter may run unless one of its *places* is a repository's code. Its places are the
path given (absolute: the daemon's own directory is ``/``), with its directory resolved
(``os.path.realpath``: a link to the root, ``/proc/self/cwd/...`` or ``..`` name the directory
they reach), then each symbolic link it goes through on the way to the file that runs, resolved
the same way, and that file. A place is a repository's code when

1. it lies inside the workspace's root and the root is not trusted;
2. it lies inside another workspace root the daemon knows that is not trusted;
3. it is a venv's (``<venv>/bin/<name>`` with ``<venv>/pyvenv.cfg``) inside a repository (the
   nearest folder above the venv holding one of ``REPOSITORY_MARKERS``, below the user's home)
   the user does not trust: another repository's ``.venv``, ``.tox/py311`` or
   ``backend/.venv``, even one the daemon has not seen.

A place inside a trusted workspace's own root is its own, even when an untrusted root the
daemon knows (a monorepo's top, opened elsewhere) lies around it.

A trusted workspace runs its own interpreter, as CI does; it does not run an untrusted
repository's. Interpreters outside any repository (the system's, pyenv's, a venv in
``~/.virtualenvs``) run as before.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

REPOSITORY_MARKERS = (".git", ".hg", "pyproject.toml", "setup.py", "setup.cfg")
_MAX_LINKS = 40  # as the kernel's own bound on a path's links


def interpreter_places(python: str) -> list[Path]:
    """The path given and every link on the way to the file that runs, each with its directory
    resolved, then that file (the module docstring says why)."""
    places: list[Path] = []
    current = os.path.join("/", python)
    for _ in range(_MAX_LINKS):
        head, name = os.path.split(current)
        place = Path(os.path.realpath(head)) / name
        if place in places:
            break  # a loop of links: nothing runs, and every place is already counted
        places.append(place)
        try:
            target = os.readlink(place)
        except OSError:
            break  # not a link (or gone): the file that runs
        current = os.path.join(place.parent, target)
    final = Path(os.path.realpath(os.path.join("/", python)))
    return places if final in places else [*places, final]


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def venv_repository(place: Path, is_trusted: Callable[[Path], bool]) -> Path | None:
    """The untrusted repository the venv ``place`` is in (``<venv>/bin/<name>``), if any: the
    nearest folder above the venv holding a repository marker — ``other/.tox/py311`` and
    ``other/backend/.venv`` are ``other``'s — unless a trusted folder comes first (trust covers
    what is below it). The search stops below the user's home, so a home that is itself a
    dotfiles repository does not make every venv under it a repository's."""
    venv = place.parent.parent
    if venv == venv.parent or not (venv / "pyvenv.cfg").is_file():
        return None
    home = Path(os.path.realpath(Path.home()))
    for holder in venv.parents:
        if holder in (home, holder.parent) or is_trusted(holder):
            return None
        if any(os.path.lexists(holder / m) for m in REPOSITORY_MARKERS):
            return holder
    return None


def interpreter_may_run(
    python: str,
    root: Path,
    trusted: bool,
    untrusted_roots: Iterable[Path],
    is_trusted: Callable[[Path], bool],
) -> bool:
    """Whether ``python``, named for the workspace at ``root`` (``trusted`` or not), may run;
    ``untrusted_roots``: the other workspace roots the daemon knows that are not trusted."""
    forbidden = [*([] if trusted else [root]), *untrusted_roots]
    for place in interpreter_places(python):
        if trusted and _within(place, root):
            continue  # the trusted root's own (an untrusted root around it is not its judge)
        if any(_within(place, r) for r in forbidden):
            return False
        if venv_repository(place, is_trusted) is not None:
            return False
    return True
