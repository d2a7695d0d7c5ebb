"""Framing over real sockets, the tagged-union wire schema, and the typed error round trip."""

from __future__ import annotations

import inspect
import socket
import threading
import time
import typing
from typing import TYPE_CHECKING

import msgspec
import pytest

from prewrite import errors, framing
from prewrite.errors import (
    ERROR_CLASSES,
    ConnectionLost,
    ErrorDetail,
    FrameTooLarge,
    InternalError,
    PrewriteError,
    StaleBase,
    error_from_code,
)
from prewrite.framing import HEADER, MAX_FRAME_BYTES, body_length, encode_frame
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
    Patch,
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

if TYPE_CHECKING:
    from collections.abc import Iterator

_requests: msgspec.msgpack.Decoder[Request] = msgspec.msgpack.Decoder(Request)
_replies: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)

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


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    a.settimeout(10)
    b.settimeout(10)
    with a, b:
        yield a, b


# --- framing --------------------------------------------------------------------------------


def test_frames_round_trip_in_order(pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    for request in REQUESTS:
        framing.send_frame(a, request)
    assert [framing.recv_frame(b, _requests) for _ in REQUESTS] == REQUESTS


def test_frame_larger_than_one_recv_round_trips(pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    big = CheckRequest(root="/w", changes=[FileChange("big.py", None, "x" * (3 << 20))])
    # The socket buffer is far smaller than the frame: the sender must run concurrently.
    sender = threading.Thread(target=framing.send_frame, args=(a, big))
    sender.start()
    try:
        assert framing.recv_frame(b, _requests) == big
    finally:
        sender.join()


def test_oversized_header_raises_before_reading_the_body(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    a, b = pair
    a.sendall(HEADER.pack(MAX_FRAME_BYTES + 1) + b"body")
    with pytest.raises(FrameTooLarge) as exc_info:
        framing.recv_frame(b, _requests)
    assert exc_info.value.code == "frame_too_large"
    assert b.recv(16) == b"body"  # the body was never consumed


def test_header_at_the_limit_is_accepted() -> None:
    assert body_length(HEADER.pack(MAX_FRAME_BYTES)) == MAX_FRAME_BYTES
    with pytest.raises(FrameTooLarge):
        body_length(HEADER.pack(MAX_FRAME_BYTES + 1))


def test_encoding_an_oversized_message_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(framing, "MAX_FRAME_BYTES", 16)
    with pytest.raises(FrameTooLarge):
        encode_frame(CheckRequest(root="/w", changes=[FileChange("a.py", None, "x" * 64)]))


@pytest.mark.parametrize(
    "sent",
    [
        pytest.param(b"", id="nothing"),
        pytest.param(b"\x00\x00", id="half-header"),
        pytest.param(HEADER.pack(10) + b"abcd", id="half-body"),
    ],
)
def test_truncated_stream_raises_connection_lost(
    pair: tuple[socket.socket, socket.socket], sent: bytes
) -> None:
    a, b = pair
    a.sendall(sent)
    a.shutdown(socket.SHUT_WR)
    with pytest.raises(ConnectionLost):
        framing.recv_frame(b, _requests)


def test_a_silent_peer_is_a_timeout_at_the_deadline(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    a, b = pair
    a.sendall(HEADER.pack(10) + b"abc")  # part of a frame, then nothing
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        framing.recv_frame(b, _requests, deadline=started + 0.3)
    assert 0.3 <= time.monotonic() - started < 1.3


def test_a_deadline_already_past_sends_nothing(pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    with pytest.raises(TimeoutError):
        framing.send_frame(a, StatusRequest(), deadline=time.monotonic() - 1)
    b.setblocking(False)
    with pytest.raises(BlockingIOError):
        b.recv(1)


def test_a_frame_within_its_deadline_round_trips(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    a, b = pair
    framing.send_frame(a, StatusRequest(), deadline=time.monotonic() + 5)
    assert framing.recv_frame(b, _requests, deadline=time.monotonic() + 5) == StatusRequest()
    assert b.gettimeout() is not None  # bounded by the deadline, never blocking forever


def test_the_limit_can_be_lowered_per_call() -> None:
    message = CheckRequest(root="/w", changes=[FileChange("a.py", None, "x" * 64)])
    assert len(encode_frame(message, limit=1024)) < 1024
    with pytest.raises(FrameTooLarge):
        encode_frame(message, limit=32)
    with pytest.raises(FrameTooLarge):
        body_length(HEADER.pack(33), limit=32)


# --- wire schema ----------------------------------------------------------------------------


def test_samples_cover_every_request_and_reply_type() -> None:
    assert {type(r) for r in REQUESTS} == set(typing.get_args(Request))
    assert {type(r) for r in REPLIES} == set(typing.get_args(Reply))


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: type(r).__name__)
def test_request_round_trips_through_the_tagged_union(request_: Request) -> None:
    body = msgspec.msgpack.encode(request_)
    decoded = _requests.decode(body)
    assert type(decoded) is type(request_)
    assert decoded == request_


@pytest.mark.parametrize("reply", REPLIES, ids=lambda r: type(r).__name__)
def test_reply_round_trips_through_the_tagged_union(reply: Reply) -> None:
    decoded = _replies.decode(msgspec.msgpack.encode(reply))
    assert type(decoded) is type(reply)
    assert decoded == reply


@pytest.mark.parametrize("reply", REPLIES, ids=lambda r: type(r).__name__)
def test_a_reply_is_not_a_request(reply: Reply) -> None:
    with pytest.raises(msgspec.ValidationError):
        _requests.decode(msgspec.msgpack.encode(reply))


def test_unknown_request_tag_is_rejected() -> None:
    with pytest.raises(msgspec.ValidationError, match="format_disk"):
        _requests.decode(msgspec.msgpack.encode({"op": "format_disk", "type": "format_disk"}))


def test_the_tag_field_is_op_as_documented() -> None:
    """``docs/protocol.md`` promises third-party clients that ``op`` carries the message kind."""
    untagged: list[str] = []
    for message in [*REQUESTS, *REPLIES]:
        fields: dict[str, object] = msgspec.msgpack.decode(msgspec.msgpack.encode(message))
        if fields.get("op") != type(message).__struct_config__.tag:
            untagged.append(f"{type(message).__name__}: {sorted(fields)}")
    assert untagged == []


def test_fields_added_later_have_defaults_an_older_peer_need_not_send() -> None:
    old_check: dict[str, object] = {"op": "check", "root": "/w", "changes": []}
    check = _requests.decode(msgspec.msgpack.encode(old_check))
    assert isinstance(check, CheckRequest)
    assert check.return_contents
    old_apply: dict[str, object] = {"op": "apply", "root": "/w", "changes": []}
    apply = _requests.decode(msgspec.msgpack.encode(old_apply))
    assert isinstance(apply, ApplyRequest)
    assert apply.return_contents
    by_reference = CandidateFile("big.json", "ab" * 32, content_omitted=True)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(by_reference)) == {
        "path": "big.json",
        "sha256": "ab" * 32,
        "content_omitted": True,
    }


def test_patch_json_round_trips() -> None:
    patch = Patch(
        [
            FileChange("a.py", "ab" * 32, "x\n"),
            FileChange("n.py", None, ""),
            FileChange("d.py", "cd" * 32, delete=True),
        ]
    )
    assert msgspec.json.decode(msgspec.json.encode(patch), type=Patch) == patch


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(b'{"changes": [], "dry_run": true}', id="patch-field"),
        pytest.param(
            b'{"changes": [{"path": "a.py", "content": "x", "mode": "0755"}]}', id="change-field"
        ),
        pytest.param(b'{"changes": [{"path": "a.py", "contents": "x"}]}', id="misspelt-content"),
    ],
)
def test_patch_json_rejects_unknown_fields(text: bytes) -> None:
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.json.decode(text, type=Patch)


def test_patch_json_rejects_a_missing_path() -> None:
    with pytest.raises(msgspec.ValidationError, match="path"):
        msgspec.json.decode(b'{"changes": [{"content": "x"}]}', type=Patch)


# --- errors ---------------------------------------------------------------------------------


def test_every_error_class_is_registered_under_its_own_code() -> None:
    classes = {
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, PrewriteError) and cls is not PrewriteError
    }
    assert set(ERROR_CLASSES.values()) == classes
    assert all(code == cls.code for code, cls in ERROR_CLASSES.items())


@pytest.mark.parametrize("code", sorted(ERROR_CLASSES))
def test_error_round_trips_over_the_wire(code: str) -> None:
    details = [ErrorDetail("changed on disk", "pkg/a.py"), ErrorDetail("no path")]
    reply = ErrorReply(code, "what went wrong", details)
    decoded = _replies.decode(msgspec.msgpack.encode(reply))
    assert isinstance(decoded, ErrorReply)
    err = error_from_code(decoded.code, decoded.message, decoded.details)
    assert type(err) is ERROR_CLASSES[code]
    assert err.code == code
    assert err.message == "what went wrong"
    assert err.details == details


def test_unknown_code_becomes_internal_error_keeping_the_code() -> None:
    err = error_from_code("disk_on_fire", "smoke", [ErrorDetail("hot", "a.py")])
    assert type(err) is InternalError
    assert err.code == "internal_error"
    assert "disk_on_fire" in err.message
    assert "smoke" in err.message
    assert "disk_on_fire" in str(err)
    assert err.details == [ErrorDetail("hot", "a.py")]


def test_error_text_lists_every_detail() -> None:
    err = StaleBase("2 file(s) changed", [ErrorDetail("moved", "a.py"), ErrorDetail("gone")])
    assert str(err).splitlines() == ["2 file(s) changed", "  a.py: moved", "  gone"]
