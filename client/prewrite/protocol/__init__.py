"""The wire schema, defined once: msgspec Structs shared by the client and the daemon.

Requests and replies are tagged unions (tag field ``op``). New fields are only ever added with
defaults, so an older peer can still decode a newer message of the same protocol version.
Positions in ``Diagnostic`` are 1-based (line and column), as in compiler-style output.

One schema in a few modules, by concern: the envelope (``message``: the version, the tagged
base), the patch (``patch``), the requests and their union ``Request`` (``requests``), what a
verdict reports (``findings``), the replies and their union ``Reply`` (``replies``). Import
the names from here: ``__all__`` is the schema's public surface.
"""

from __future__ import annotations

from prewrite.protocol.findings import (
    CandidateFile,
    Diagnostic,
    DiskOutcome,
    DiskResult,
    LateFinding,
    Outcome,
    RungReport,
    Severity,
    Suppression,
    SuppressionScope,
)
from prewrite.protocol.message import PROTOCOL_VERSION, Message
from prewrite.protocol.patch import Edit, FileChange, Patch
from prewrite.protocol.replies import (
    ApplyReply,
    CheckReply,
    EditorAttached,
    ErrorReply,
    FinishReply,
    HelloReply,
    Reply,
    RungStats,
    StatsReply,
    StatusReply,
    StopReply,
    SuppressionStats,
    WorkspaceStatus,
)
from prewrite.protocol.requests import (
    ApplyRequest,
    CheckRequest,
    EditorAttach,
    FinishRequest,
    Hello,
    Request,
    StatsRequest,
    StatusRequest,
    StopRequest,
)

__all__ = [
    "PROTOCOL_VERSION",
    "ApplyReply",
    "ApplyRequest",
    "CandidateFile",
    "CheckReply",
    "CheckRequest",
    "Diagnostic",
    "DiskOutcome",
    "DiskResult",
    "Edit",
    "EditorAttach",
    "EditorAttached",
    "ErrorReply",
    "FileChange",
    "FinishReply",
    "FinishRequest",
    "Hello",
    "HelloReply",
    "LateFinding",
    "Message",
    "Outcome",
    "Patch",
    "Reply",
    "Request",
    "RungReport",
    "RungStats",
    "Severity",
    "StatsReply",
    "StatsRequest",
    "StatusReply",
    "StatusRequest",
    "StopReply",
    "StopRequest",
    "Suppression",
    "SuppressionScope",
    "SuppressionStats",
    "WorkspaceStatus",
]
