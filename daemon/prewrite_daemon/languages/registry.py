"""Every language the daemon judges, which of them judge a patch, and their background work: what
the core asks about languages without importing a language's internals.

Background work is Python's library Protocol scans (``languages.python.protocols.library``):
paused while a request is served, resumed after, stopped with the daemon.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.languages.checkers import choose
from prewrite_daemon.languages.python.cli_checker import PYREFLY, TY
from prewrite_daemon.languages.python.language import BASEDPYRIGHT, PYTHON
from prewrite_daemon.languages.python.mypy import MYPY
from prewrite_daemon.languages.python.protocols.library import (
    pause_scans,
    resume_scans,
    stop_scans,
)
from prewrite_daemon.languages.typescript.language import TYPESCRIPT

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.languages.base import Language

LANGUAGES: tuple[Language, ...] = (PYTHON, TYPESCRIPT)
DEFAULT: Language = PYTHON  # a root no language claims is Python's, as before there were two
# Python's checkers by the name a repository configures them by (``languages.checkers``); each
# is a language of its own to the core: its own workspace, shadow, checker and fingerprint.
PYTHON_CHECKERS: dict[str, Language] = {
    "pyright": PYTHON,
    "mypy": MYPY,
    "basedpyright": BASEDPYRIGHT,
    "ty": TY,
    "pyrefly": PYREFLY,
}


def language_named(name: str) -> Language:
    """The language called ``name`` (a wire value: ``"python"``, ``"typescript"``, ``"mypy"``,
    ``"basedpyright"``, ``"ty"``, ``"pyrefly"``)."""
    return next(lang for lang in (*LANGUAGES, *PYTHON_CHECKERS.values()) if lang.name == name)


def python_judges(root: Path) -> list[Language]:
    """The checkers that judge Python under ``root``: the ones its repository configures."""
    return list(dict.fromkeys(PYTHON_CHECKERS[c.name] for c in choose(root)))


def languages_for(root: Path, paths: list[str]) -> list[Language]:
    """The languages whose checkers judge a patch touching ``paths`` under ``root``.

    A language claims its sources and its checker configuration, where it applies to the root;
    TypeScript claims JSON files too (a source may import one under ``resolveJsonModule``).
    A patch no language claims (a README) goes to the root's own: TypeScript where the root
    has a tsconfig.json, else Python, as before there was a second language.
    """
    present = [lang for lang in LANGUAGES if lang.applies_to(root)]
    claimed: list[Language] = [
        lang for lang in present
        if any(lang.is_source(p) or lang.is_checker_config(p) for p in paths)
        or (lang is TYPESCRIPT and any(p.endswith(".json") for p in paths))
    ]  # fmt: skip
    if not claimed:
        claimed = [TYPESCRIPT if TYPESCRIPT in present else DEFAULT]
    if PYTHON not in claimed:
        return claimed
    at = claimed.index(PYTHON)
    return [*claimed[:at], *python_judges(root), *claimed[at + 1 :]]


def pause_background() -> None:
    """A request is being served: background work waits (it would share the cores)."""
    pause_scans()


def resume_background() -> None:
    resume_scans()


def stop_background() -> None:
    """The daemon stops: background work under way ends (nobody will read its answers)."""
    stop_scans()
