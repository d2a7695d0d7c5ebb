"""The tagged-union wire schema: the samples cover every request and reply type, each round trips, a
reply is not a request, unknown tags are rejected, the tag field is ``op`` as documented, later
fields have defaults; and the patch JSON format.
"""

from __future__ import annotations

import typing

import msgspec
import pytest

from prewrite.protocol import (
    ApplyRequest,
    CandidateFile,
    CheckRequest,
    FileChange,
    Patch,
    Reply,
    Request,
)
from tests.unit.wire_samples import REPLIES, REQUESTS
from tests.unit.wire_samples import reply_decoder as _replies
from tests.unit.wire_samples import request_decoder as _requests


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
