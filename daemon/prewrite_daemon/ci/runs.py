"""A tool invocation found in the repository's CI files, and a version CI pins: the records
``ci.files`` finds, ``prewrite doctor`` compares and the checkers follow (mypy's targets)."""

from __future__ import annotations

import msgspec


class CiRun(msgspec.Struct, frozen=True):
    """One invocation of a tool found in the repository's CI files."""

    tool: str  # "ruff check", "ruff format", "mypy", "pyright", "basedpyright", "ty", "pyrefly",
    # "pytest", "tsc"
    where: str  # "path:line"
    command: str  # as found (shortened)
    version: str | None = None  # pinned by the invocation itself (uvx ruff@0.6.9, a hook's rev)
    config: str | None = None  # a configuration file it names (root-relative)
    targets: list[str] | None = None  # what it checks (None: not known, e.g. a pre-commit hook)
    flags: list[str] = []  # settings given on the command line (--strict, --select E,F)


class CiPin(msgspec.Struct, frozen=True):
    """A version of a tool that CI installs (``ruff==0.6.9``, a hook's ``rev``)."""

    package: str  # ruff, mypy, pyright, basedpyright, ty, pyrefly, pytest, typescript
    version: str
    where: str
