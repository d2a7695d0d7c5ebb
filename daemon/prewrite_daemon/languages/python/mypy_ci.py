"""What the repository's CI runs mypy on, and the settings it gives on mypy's command line.

A CI that runs ``mypy --strict src`` judges with ``strict`` whatever the configuration says, and
only ``src``: prewrite's mypy follows it (``ci.files`` reads the workflows, tox, nox, Makefile;
nothing is run). The settings followed are the ones that change what mypy reports and nothing
else (``FOLLOWED``); the others are listed as not followed (``prewrite doctor`` shows them).
``--follow-imports`` is never followed: dmypy's incremental mode needs the default. CI's
``--config-file`` is not followed either (the shadow mirrors mypy's own files only): the
doctor marks it a mismatch.
"""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.ci.files import read_ci

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.ci.runs import CiRun

FOLLOWED = (
    "--strict", "--warn-", "--no-warn-", "--disallow-", "--allow-", "--check-untyped-defs",
    "--no-check-untyped-defs", "--ignore-missing-imports", "--python-version", "--platform",
    "--enable-error-code", "--disable-error-code", "--explicit-package-bases",
    "--no-implicit-optional", "--implicit-optional", "--extra-checks", "--local-partial-types",
    "--no-implicit-reexport", "--implicit-reexport", "--strict-equality", "--no-strict-optional",
    "--always-true", "--always-false", "--namespace-packages", "--no-namespace-packages",
    "--exclude",
)  # fmt: skip
NEVER = ("--follow-imports",)


@dataclass(frozen=True)
class CiMypy:
    """CI's mypy command line as prewrite follows it."""

    targets: tuple[str, ...] = ()  # () : CI names none prewrite can follow
    flags: tuple[str, ...] = ()  # mypy's own words, ready for its command line
    where: str | None = None  # "path:line" of the run followed
    not_followed: tuple[str, ...] = ()

    @property
    def digest(self) -> str:
        """Part of the workspace's fingerprint: CI's command line moving restarts dmypy."""
        text = repr((self.targets, self.flags))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def ci_mypy(root: Path) -> CiMypy:
    """The targets of every mypy run CI's files show with targets prewrite can follow, united
    (CI is red when any of them is: structlog's tox runs ``mypy src`` and ``mypy tests/typing``,
    and following the first alone answered green a patch that broke only the second), with the
    settings of the first (workflows first); no such run: the first at all (for its settings);
    nothing found: the defaults."""
    runs = [r for r in read_ci(root).runs if r.tool == "mypy"]
    usable = [r for r in runs if r.targets and all(_inside(root, t) for t in r.targets)]
    chosen = usable[0] if usable else (runs[0] if runs else None)
    if chosen is None:
        return CiMypy()
    flags, skipped = _flags(chosen)
    if not usable:
        return CiMypy((), flags, chosen.where, skipped)
    named = list(dict.fromkeys(t.rstrip("/") for r in usable for t in r.targets or ()))
    targets = tuple(t for t in named if not any(_under(t, other) for other in named))
    where = ", ".join(dict.fromkeys(r.where for r in usable))
    return CiMypy(targets, flags, where, skipped)


def _under(target: str, other: str) -> bool:
    """``target`` lies inside another target ``other`` (mypy would be given its files twice)."""
    return target != other and (other in (".", "") or target.startswith(other + "/"))


def _inside(root: Path, target: str) -> bool:
    if target.startswith("/") or ".." in target.split("/"):
        return False
    path = root / target
    return path.is_dir() or path.is_file()


def _flags(run: CiRun) -> tuple[tuple[str, ...], tuple[str, ...]]:
    followed: list[str] = []
    skipped: list[str] = []
    for flag in run.flags:
        name = flag.split(" ", 1)[0]
        if name.startswith(FOLLOWED) and not name.startswith(NEVER):
            followed += shlex.split(flag)
        else:
            skipped.append(flag)
    return tuple(followed), tuple(skipped)
