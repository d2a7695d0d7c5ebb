"""The wire schema, defined once: msgspec Structs shared by the client and the daemon.

Requests and replies are tagged unions (tag field ``op``). New fields are only ever added with
defaults, so an older peer can still decode a newer message of the same protocol version.
Positions in ``Diagnostic`` are 1-based (line and column), as in compiler-style output.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from prewrite.errors import ErrorDetail

PROTOCOL_VERSION = 1

Severity = Literal["error", "warning", "information"]
Outcome = Literal["pass", "fail", "off", "skipped"]


class Edit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Replace the one place ``find`` anchors to in the file's real text with ``replace``."""

    find: str
    replace: str


class FileChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One file of a patch: new full ``content``, anchored ``edits``, or ``delete``.

    ``base_sha256`` is the hex SHA-256 of the file's bytes on disk as the author saw them, or
    ``None`` for a file that must not exist yet. ``edits`` apply in order to the file's text.
    """

    path: str
    base_sha256: str | None = None
    content: str | None = None
    delete: bool = False
    edits: list[Edit] | None = None


class Patch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A patch file as given to ``prewrite check --patch``."""

    changes: list[FileChange]


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


class Message(msgspec.Struct, frozen=True, tag_field="op"):
    """Base of every request and reply: tagged by the ``op`` field."""


# --- requests ------------------------------------------------------------------------------


class Hello(Message, frozen=True, tag="hello"):
    """First message on every connection: agree on the protocol version."""

    protocol_version: int
    client_version: str


class CheckRequest(Message, frozen=True, tag="check"):
    """Type-check ``changes`` as one unit against the workspace at ``root`` (absolute path).

    ``timeout_s`` bounds everything the daemon does for the request: waiting for the workspace,
    starting the checker, every retry. ``return_contents`` false asks for the candidate files by
    reference only (path and sha256); large ones are sent that way in any case. ``rungs`` runs
    only those rungs of the ladder (of ``parse``, ``format``, ``lint``, ``typecheck``,
    ``review``, and ``tests`` for apply); policy and anchor always run. None: every rung the
    workspace enables. ``intent`` is what the caller says the patch does, in its own words; the
    workspace's reviewer (if it names one) judges the patch against it, as untrusted data.
    """

    root: str
    changes: list[FileChange]
    python: str | None = None
    timeout_s: float = 120.0
    return_contents: bool = True
    rungs: list[str] | None = None
    intent: str | None = None


class StatusRequest(Message, frozen=True, tag="status"):
    """Ask for the daemon's state and its workspaces."""


class StatsRequest(Message, frozen=True, tag="stats"):
    """Per-rung catch counts and costs from the verdict record (all workspaces if no root)."""

    root: str | None = None


class ApplyRequest(Message, frozen=True, tag="apply"):
    """Run the ladder; only if every rung passes, write the patch all-or-nothing, then run the
    disk rungs (the affected tests; with ``finish``, the "once at the end" rungs too).
    ``intent`` as for ``CheckRequest``."""

    root: str
    changes: list[FileChange]
    python: str | None = None
    timeout_s: float = 120.0
    finish: bool = False
    return_contents: bool = True
    rungs: list[str] | None = None
    intent: str | None = None


class FinishRequest(Message, frozen=True, tag="finish"):
    """Run the workspace's "once at the end" disk rungs now."""

    root: str
    python: str | None = None


class StopRequest(Message, frozen=True, tag="stop"):
    """Ask the daemon to stop; answered after the status file is removed."""


class EditorAttach(Message, frozen=True, tag="editor_attach"):
    """Turn this connection into an editor's language server session (``prewrite lsp``).

    Once ``EditorAttached`` is answered, the connection carries LSP messages (``Content-Length``
    framed JSON-RPC) both ways until either side closes it; no further frames of this protocol.
    """


Request = (
    Hello
    | CheckRequest
    | ApplyRequest
    | FinishRequest
    | StatusRequest
    | StatsRequest
    | StopRequest
    | EditorAttach
)


# --- replies -------------------------------------------------------------------------------


class HelloReply(Message, frozen=True, tag="hello_reply"):
    protocol_version: int
    daemon_version: str
    pid: int


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


SuppressionScope = Literal["line", "next-line", "file"]


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


class CheckReply(Message, frozen=True, tag="check_reply"):
    """The verdict: ``ok`` is false when the patch introduced at least one error.

    ``diagnostics`` lists only what the patch introduced (errors and warnings);
    ``checked_files`` are the files whose diagnostics were compared. The freshness proof:
    ``generation`` counts the checker's views of the workspace and ``environment`` is the
    fingerprint of configuration, installed packages, interpreter and checker version; both were
    the same when the check was admitted and when its verdict was sent. ``failed_rung`` names the
    ladder rung that failed (None: all passed); ``rungs`` reports each rung; ``files`` are the
    candidate files as they would be written; ``verified`` / ``not_verified`` are the receipt.
    ``late_findings``: errors an *earlier* green missed, found since (``LateFinding``).
    ``suppressions``: the suppression comments the patch adds and what each hides.
    """

    ok: bool
    diagnostics: list[Diagnostic]
    checked_files: list[str]
    timings_ms: dict[str, float]
    generation: int = 0
    environment: str = ""
    failed_rung: str | None = None
    rungs: list[RungReport] = []
    files: list[CandidateFile] = []
    verified: list[str] = []
    not_verified: list[str] = []
    late_findings: list[LateFinding] = []
    suppressions: list[Suppression] = []


DiskOutcome = Literal["pass", "fail", "skipped", "timeout"]


class DiskResult(msgspec.Struct, frozen=True):
    """A disk rung's result: ``failed`` holds failing test ids; ``output`` is trimmed."""

    rung: str
    outcome: DiskOutcome
    ms: float
    command: list[str]
    failed: list[str]
    output: str


class ApplyReply(Message, frozen=True, tag="apply_reply"):
    """``written`` is empty unless every pre-write rung passed; ``ok`` also needs the disk rungs.

    ``rolled_back`` is true when a disk rung failed and the workspace opted into rolling back:
    the files hold their previous bytes again.
    """

    ok: bool
    check: CheckReply
    written: list[CandidateFile]
    disk: list[DiskResult]
    rolled_back: bool = False


class FinishReply(Message, frozen=True, tag="finish_reply"):
    ok: bool
    disk: list[DiskResult]


class WorkspaceStatus(msgspec.Struct, frozen=True):
    root: str
    python: str
    backend_state: str
    generation: int
    checks: int
    server_pid: int | None = None
    environment: str = ""
    restarts: int = 0
    last_restart: str | None = None
    last_restart_reason: str | None = None
    language: str = "python"  # whose checker this is: "python" (pyright), "typescript" (tsc)
    checker: str = ""  # the checker and its version, e.g. "pyright 1.1.414", "typescript 5.9.3"
    spare_pid: int | None = None  # an editor's spare checker (runs while agents hold this one)
    spare_served: int = 0  # editor requests spare checkers of this workspace have answered
    busy: bool = False  # an agent check (or a watcher batch) holds the checker now
    trusted: bool = False  # the workspace may run its own code (``prewrite trust``)


class StatusReply(Message, frozen=True, tag="status_reply"):
    pid: int
    version: str
    socket: str
    uptime_s: float
    workspaces: list[WorkspaceStatus]


class RungStats(msgspec.Struct, frozen=True):
    """``runs`` and ``caught`` count the rung's pass and fail outcomes; ``failed_open`` the times
    it ran but could not judge and let the patch through (a reviewer that errored)."""

    rung: str
    runs: int
    caught: int
    median_ms: float
    failed_open: int = 0


class SuppressionStats(msgspec.Struct, frozen=True):
    """Of one suppression ``kind``: how many patches added, how many of those hid a diagnostic
    the patch introduced, how many were refused (``[tool.prewrite] suppressions = "refuse"``)."""

    kind: str
    added: int
    hiding: int
    refused: int = 0


class StatsReply(Message, frozen=True, tag="stats_reply"):
    verdicts: int
    rungs: list[RungStats]
    outcomes: dict[str, int]  # "ok", "failed:<rung>", or an error code -> count
    narrowing_misses: list[LateFinding] = []  # greens the idle re-check found wrong, latest last
    suppressions: list[SuppressionStats] = []  # added by patches, per kind


class StopReply(Message, frozen=True, tag="stop_reply"):
    pass


class EditorAttached(Message, frozen=True, tag="editor_attached"):
    """From here on the connection speaks LSP; ``session`` names it in the daemon's log."""

    session: int


class ErrorReply(Message, frozen=True, tag="error"):
    code: str
    message: str
    details: list[ErrorDetail] = []


Reply = (
    HelloReply
    | CheckReply
    | ApplyReply
    | FinishReply
    | StatusReply
    | StatsReply
    | StopReply
    | EditorAttached
    | ErrorReply
)
