"""The typed error round trip: every error class is registered under its own code, errors round trip
over the wire, an unknown code becomes ``internal_error`` keeping the code, and an error's text
lists every detail.
"""

from __future__ import annotations

import inspect

import msgspec
import pytest

from prewrite import errors
from prewrite.errors import (
    ERROR_CLASSES,
    ErrorDetail,
    InternalError,
    PrewriteError,
    StaleBase,
    error_from_code,
)
from prewrite.protocol import ErrorReply
from tests.unit.wire_samples import reply_decoder as _replies


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
