"""One doctor's visit: the workspace located, the rungs asked, CI read, the two compared."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.ci.files import read_ci
from prewrite_daemon.doctor.compare import mismatches
from prewrite_daemon.doctor.ladder_tools import rung_tools
from prewrite_daemon.doctor.report import Report
from prewrite_daemon.doctor.setup_state import locate, setup

if TYPE_CHECKING:
    from pathlib import Path


def examine(root: Path, python: str | None = None) -> Report:
    """The report for ``root`` (a resolved directory), checks using ``python`` (None: the one
    a check finds: the root's ``.venv``, else ``PATH``'s)."""
    place = locate(root, python)
    problems = [] if place.python_error is None else [f"interpreter: {place.python_error}"]
    rungs = rung_tools(place, problems)
    ci = read_ci(root)
    return Report(
        root=str(root),
        setup=setup(place),
        rungs=rungs,
        ci=ci.runs,
        pins=ci.pins,
        ci_files=ci.files,
        unread=ci.unread,
        mismatches=mismatches(root, rungs, ci.runs, ci.pins),
        problems=problems,
    )
