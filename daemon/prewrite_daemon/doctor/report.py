"""What ``prewrite doctor`` found, as one record: printed as text (``render``) or as JSON.

Field names are the JSON's keys. New fields only with defaults, as on the wire.
"""

from __future__ import annotations

import msgspec

from prewrite_daemon.ci.runs import CiPin as CiPin
from prewrite_daemon.ci.runs import CiRun as CiRun


class RungTool(msgspec.Struct, frozen=True):
    """One tool a rung runs, as prewrite runs it."""

    rung: str  # format | lint | typecheck | tests
    tool: str  # "ruff format", "ruff check", "pyright", "basedpyright", "mypy", "typescript", …
    state: str  # "on", or why not: "off ([tool.prewrite] format = false)", ...
    version: str | None = None
    origin: str = ""  # "the workspace's own", "bundled with prewrite", ...
    config: str | None = None  # the file it reads its settings from (None: its defaults)
    command: list[str] = []  # the command line prewrite runs (its cold equivalent when warm)
    chosen_by: str = ""  # why this tool judges (a type checker's choice)
    notes: list[str] = []
    targets: list[str] | None = None  # mypy's targets (None: not a mypy rung)
    workspace_version: str | None = None  # the workspace's installed one, when another runs


class Mismatch(msgspec.Struct, frozen=True):
    """A way the rung differs from CI: what, why it matters, and where CI says otherwise."""

    rung: str
    kind: str  # version | checker | config | targets | flags | rung
    message: str
    where: str | None = None
    tool: str = ""  # the rung's tool it concerns ("" : the rung as a whole)


class DaemonState(msgspec.Struct, frozen=True):
    running: bool
    pid: int | None = None
    version: str | None = None
    socket: str | None = None
    note: str = ""


class Setup(msgspec.Struct, frozen=True):
    """What a newcomer needs to know before the first check."""

    trusted: bool
    untrusted_why: str | None  # why a listed root is not trusted now (None: trusted or unlisted)
    trust_file: str
    python: str | None  # the interpreter checks use (None: none found)
    python_runs: bool  # whether prewrite may run it (else its packages are read from disk)
    python_note: str
    daemon: DaemonState
    prewrite_on_path: str | None  # shutil.which("prewrite")


class Report(msgspec.Struct, frozen=True):
    root: str
    setup: Setup
    rungs: list[RungTool]
    ci: list[CiRun]
    pins: list[CiPin]
    ci_files: list[str]  # the CI files read
    unread: list[str]  # CI files that could not be read, and why
    mismatches: list[Mismatch]
    problems: list[str]  # what stops prewrite from running a rung as configured

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.problems
