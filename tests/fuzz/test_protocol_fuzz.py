"""The request schema on generated msgpack: a typed request, or a decode error (``bad_request``).

The daemon decodes every frame body with one ``Decoder(Request)`` and answers a decode error with
``bad_request`` (``test_framing_fuzz_daemon`` drives the real ``rpc.Connection`` with these
bodies); here the schema itself: what decodes is a complete typed request that round-trips,
unknown fields are ignored on a request (new fields only ever come with defaults) but refused
inside a patch.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prewrite.protocol import (
    ApplyRequest,
    CheckRequest,
    FileChange,
    FinishRequest,
    Hello,
    Patch,
    Request,
    StatsRequest,
    StatusRequest,
    StopRequest,
)
from tests.fuzz.bounds import bounded
from tests.fuzz.wire import (
    REQUEST_DECODER,
    file_changes,
    msgpack_values,
    near_valid_bodies,
    requests,
)

pytestmark = pytest.mark.fuzz

REQUEST_TYPES = (
    Hello,
    CheckRequest,
    ApplyRequest,
    FinishRequest,
    StatusRequest,
    StatsRequest,
    StopRequest,
)
FIELD_NAMES = frozenset(
    name for cls in (*REQUEST_TYPES, FileChange) for name in cls.__struct_fields__
)


def _decode(body: bytes) -> Request | None:
    try:
        return REQUEST_DECODER.decode(body)
    except msgspec.DecodeError:
        return None


@bounded(200)
@given(
    body=st.one_of(
        msgpack_values().map(msgspec.msgpack.encode),
        near_valid_bodies(),
        st.binary(max_size=64),
    )
)
def test_a_body_decodes_to_a_typed_request_or_a_decode_error(body: bytes) -> None:
    request = _decode(body)  # any other exception fails the test
    if request is None:
        return
    assert isinstance(request, REQUEST_TYPES)
    again = msgspec.msgpack.encode(request)
    assert msgspec.msgpack.encode(REQUEST_DECODER.decode(again)) == again
    if isinstance(request, CheckRequest | ApplyRequest):
        assert all(isinstance(c, FileChange) for c in request.changes)


@bounded(150)
@given(request=requests())
def test_every_request_round_trips(request: Request) -> None:
    body = msgspec.msgpack.encode(request)
    assert msgspec.msgpack.encode(REQUEST_DECODER.decode(body)) == body


@bounded(150)
@given(
    request=requests(),
    key=st.text(max_size=12).filter(lambda k: k not in FIELD_NAMES and k != "op"),
    value=msgpack_values(),
)
def test_an_unknown_request_field_is_ignored(request: Request, key: str, value: Any) -> None:
    body: dict[str, Any] = msgspec.to_builtins(request)
    body[key] = value
    decoded = REQUEST_DECODER.decode(msgspec.msgpack.encode(body))
    assert msgspec.msgpack.encode(decoded) == msgspec.msgpack.encode(request)


@bounded(150)
@given(
    change=file_changes(),
    key=st.text(max_size=12).filter(lambda k: k not in FileChange.__struct_fields__),
    value=msgpack_values(),
)
def test_an_unknown_field_in_a_change_is_refused(change: FileChange, key: str, value: Any) -> None:
    body: dict[str, Any] = msgspec.to_builtins(CheckRequest(root="/r", changes=[change]))
    body["changes"][0][key] = value
    assert _decode(msgspec.msgpack.encode(body)) is None


@bounded(150)
@given(request=requests(), field_=st.sampled_from(sorted({*FIELD_NAMES, "op"})))
def test_a_missing_field_is_refused_exactly_when_it_is_required(
    request: Request, field_: str
) -> None:
    info = msgspec.inspect.type_info(type(request))
    assert isinstance(info, msgspec.inspect.StructType)
    required = {"op", *(f.encode_name for f in info.fields if f.required)}
    body: dict[str, Any] = msgspec.to_builtins(request)
    body.pop(field_, None)
    decoded = _decode(msgspec.msgpack.encode(body))
    assert (decoded is None) == (field_ in required)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["changes", "path", "content"]) | st.text(max_size=6), inner
        )
    ),
    max_leaves=12,
)


@st.composite
def patch_texts(draw: st.DrawFn) -> str:
    """A patch file: a valid one with one value swapped, any JSON value, or any text."""
    patch: dict[str, Any] = msgspec.to_builtins(
        Patch(changes=draw(st.lists(file_changes(), max_size=3)))
    )
    target: dict[str, Any] = patch["changes"][0] if patch["changes"] else patch
    target[draw(st.sampled_from([*sorted(target), "extra"]))] = draw(json_values)
    choices = [msgspec.json.encode(patch).decode(), msgspec.json.encode(draw(json_values)).decode()]
    return draw(st.sampled_from(choices) | st.text(max_size=40))


@bounded(150)
@given(text=patch_texts())
def test_a_patch_file_decodes_or_fails_with_a_decode_error(text: str) -> None:
    """``prewrite check --patch`` reads JSON; it turns a decode error into a usage error."""
    try:
        patch = msgspec.json.decode(text, type=Patch)
    except msgspec.DecodeError:
        return
    assert all(isinstance(c, FileChange) for c in patch.changes)
