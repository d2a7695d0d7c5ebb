"""What a verdict reports, outside its envelope: diagnostics, rungs, candidate files, findings.

The parts of a reply a caller reads about the patch: ``Diagnostic`` (1-based positions, as in
compiler-style output), each rung's outcome (``RungReport``), the files as they would be written
(``CandidateFile``), a wrong green found later (``LateFinding``), a suppression comment the
patch adds and what it hides (``Suppression``), and a disk rung's result (``DiskResult``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

Severity = Literal["error", "warning", "information"]
Outcome = Literal["pass", "fail", "off", "skipped"]
DiskOutcome = Literal["pass", "fail", "skipped", "timeout"]
SuppressionScope = Literal["line", "next-line", "file"]


class Diagnostic(msgspec.Struct, frozen=True):
    """One diagnostic, agent-facing: ``path`` relative to the workspace root, 1-based positions."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: Severity
    rule: str
    message: str
    source: str


class RungReport(msgspec.Struct, frozen=True, omit_defaults=True):
    """One rung of the ladder: ``outcome`` is pass, fail, off (disabled) or skipped."""

    rung: str
    outcome: Outcome
    ms: float = 0.0
    detail: str = ""


class CandidateFile(msgspec.Struct, frozen=True, omit_defaults=True):
    """A file as the ladder would write it (formatted); ``sha256`` None means deleted.

    ``content_omitted`` true: the file is given by reference (its ``sha256``), its content was
    not sent — too large for a reply, or the request asked for no contents.
    """

    path: str
    sha256: str | None
    content: str | None = None
    formatted: bool = False
    content_omitted: bool = False


class LateFinding(msgspec.Struct, frozen=True):
    """A wrong green found after the fact: an earlier check of ``files`` in ``root`` answered
    with no new error, but re-checking, while the daemon was idle, the importers the plan had
    left out found ``diagnostics`` (introduced by that patch). Once such a patch is written its
    findings are part of the base and no later check reports them, so they are reported here,
    once, on the next reply about the workspace; narrowing is then off there until the daemon
    restarts. ``checked_at``/``found_at``: local times, ``YYYY-MM-DDTHH:MM:SS``."""

    root: str
    files: list[str]
    diagnostics: list[Diagnostic]
    checked_at: str
    found_at: str
    language: str = "python"


class Suppression(msgspec.Struct, frozen=True):
    """A suppression comment the patch adds, and what it hides.

    ``kind``: ``type-ignore``, ``pyright-ignore``, ``pyright-config`` (``# pyright: basic``,
    ``reportX=false``), ``mypy-config``, ``noqa``, ``ruff-noqa`` (``# ruff: noqa``,
    ``# flake8: noqa``), ``ts-ignore``, ``ts-expect-error``, ``ts-nocheck``, ``eslint-disable``,
    ``eslint-config``, ``biome-ignore``; ``tool`` is whose findings it silences; ``text`` the
    directive as written; ``scope`` what it covers (its line, the next code line, the file).
    ``hidden``: what the patch introduces once the patch's suppressions are taken out and the
    rung that honours them runs again, and does not introduce with them. ``judged`` false: no
    rung ran again without it (``note`` says why), so what it hides is not known.
    """

    path: str
    line: int
    kind: str
    text: str
    column: int = 1
    scope: SuppressionScope = "line"
    tool: str = ""
    hidden: list[Diagnostic] = []
    judged: bool = False
    note: str = ""


class DiskResult(msgspec.Struct, frozen=True):
    """A disk rung's result: ``failed`` holds failing test ids; ``output`` is trimmed."""

    rung: str
    outcome: DiskOutcome
    ms: float
    command: list[str]
    failed: list[str]
    output: str
