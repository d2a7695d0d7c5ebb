"""Shared by the framing, wire schema and error tests: a sample of every request and reply type, and
the decoders of the two tagged unions.
"""

from __future__ import annotations

import msgspec

from prewrite.errors import ErrorDetail
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyReply,
    ApplyRequest,
    CandidateFile,
    CheckReply,
    CheckRequest,
    Diagnostic,
    DiskResult,
    Edit,
    EditorAttach,
    EditorAttached,
    ErrorReply,
    FileChange,
    FinishReply,
    FinishRequest,
    Hello,
    HelloReply,
    Reply,
    Request,
    RungReport,
    RungStats,
    StatsReply,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopReply,
    StopRequest,
    WorkspaceStatus,
)

request_decoder: msgspec.msgpack.Decoder[Request] = msgspec.msgpack.Decoder(Request)
reply_decoder: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)

DIAG = Diagnostic("pkg/a.py", 3, 5, 3, 9, "error", "reportAssignmentType", "bad\nline", "Pyright")

REQUESTS: list[Request] = [
    Hello(PROTOCOL_VERSION, "0.1.0"),
    CheckRequest(
        root="/w",
        changes=[
            FileChange("a.py", "ab" * 32, "x = 1\n"),
            FileChange("b.py", None, "ü\r\n"),
            FileChange("c.py", "cd" * 32, delete=True),
            FileChange("d.py", "ef" * 32, edits=[Edit("x = 1", "x = 2")]),
        ],
        python="/usr/bin/python3",
        timeout_s=2.5,
    ),
    StatusRequest(),
    StatsRequest("/w"),
    ApplyRequest("/w", [FileChange("a.py", "ab" * 32, "x = 2\n")], None, 30.0, finish=True),
    FinishRequest("/w"),
    StopRequest(),
    EditorAttach(),
]
REPLIES: list[Reply] = [
    HelloReply(PROTOCOL_VERSION, "0.1.0", 1234),
    CheckReply(False, [DIAG], ["pkg/a.py", "pkg/b.py"], {"total_ms": 12.5}),
    CheckReply(
        False,
        [DIAG],
        [],
        {"lint_ms": 3.0},
        failed_rung="lint",
        rungs=[RungReport("parse", "pass", 1.0), RungReport("lint", "fail", 3.0)],
        files=[CandidateFile("a.py", "ab" * 32, "x = 1\n", formatted=True)],
        verified=["parse: 1 file(s)"],
        not_verified=["typecheck: not run (skipped)"],
    ),
    StatusReply(
        7, "0.1.0", "/run/x.sock", 3.5, [WorkspaceStatus("/w", "/py", "running", 2, 9, 42)]
    ),
    StatsReply(3, [RungStats("lint", 3, 1, 12.5)], {"ok": 2, "failed:lint": 1}),
    ApplyReply(
        False,
        CheckReply(True, [], ["a.py"], {"typecheck_ms": 50.0}),
        [CandidateFile("a.py", "cd" * 32)],
        [DiskResult("tests", "fail", 812.0, ["python", "-m", "pytest"], ["t.py::x"], "1 failed")],
        rolled_back=True,
    ),
    FinishReply(True, [DiskResult("build", "pass", 10.0, ["make"], [], "")]),
    StopReply(),
    EditorAttached(3),
    ErrorReply("stale_base", "1 file changed", [ErrorDetail("moved", "a.py"), ErrorDetail("x")]),
]
