"""The replies the daemon sends, and ``Reply``, their tagged union (tag field ``op``).

``CheckReply`` is the verdict (its parts in ``findings``); ``ApplyReply`` and ``FinishReply`` add
the disk rungs; ``StatusReply`` and ``StatsReply`` describe the daemon and its record;
``ErrorReply`` carries a typed error (``prewrite.errors``) to any request.
"""

from __future__ import annotations

import msgspec

from prewrite.errors import ErrorDetail
from prewrite.protocol.findings import (
    CandidateFile,
    Diagnostic,
    DiskResult,
    LateFinding,
    RungReport,
    Suppression,
)
from prewrite.protocol.message import Message


class HelloReply(Message, frozen=True, tag="hello_reply"):
    protocol_version: int
    daemon_version: str
    pid: int


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
    # The trust list says the opposite of ``trusted`` now (``prewrite trust`` since it opened):
    # the next check opens the workspace afresh under the new trust.
    trust_pending: bool = False
    rss_bytes: int = 0  # resident in its checker's processes now
    activity: str = ""  # what it is doing now, e.g. "starting pyright 1.1.414" ("" when idle)
    activity_s: float = 0.0  # for how many seconds it has been doing it


class StatusReply(Message, frozen=True, tag="status_reply"):
    pid: int
    version: str
    socket: str
    uptime_s: float
    workspaces: list[WorkspaceStatus]
    memory_budget: int = 0  # bytes the warm checkers may hold together (0: no budget)


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
