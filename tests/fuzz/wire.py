"""Generators of wire input for the fuzz tests, and a reader of the replies a peer wrote.

``requests()`` builds well-formed requests of every kind; ``msgpack_values()`` anything msgpack
can carry; ``near_valid_bodies()`` a well-formed request with one thing wrong, which is where a
schema's holes are. Paths and roots are drawn from small hostile vocabularies rather than
uniform text, so ``..``, ``.git``, NUL and over-long components show up often.
"""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import strategies as st

from prewrite.framing import HEADER
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyRequest,
    CheckRequest,
    Edit,
    ErrorReply,
    FileChange,
    FinishRequest,
    Hello,
    HelloReply,
    Reply,
    Request,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopReply,
    StopRequest,
)

REQUEST_DECODER: msgspec.msgpack.Decoder[Request] = msgspec.msgpack.Decoder(Request)
REPLY_DECODER: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)

# Path pieces that have broken path validators before: traversal, the forbidden dir, NUL,
# separators of the wrong OS, a component over NAME_MAX (255 bytes), non-ASCII.
PATH_PIECES = (
    "a.py",
    "b.py",
    "pkg",
    "new.py",
    "..",
    ".",
    "",
    ".git",
    ".GIT",
    "config",
    "x\x00y.py",
    "\\",
    "C:",
    "~",
    " ",
    "ü.py",
    "名前.py",
    "x" * 256 + ".py",
    "é" * 200,
    "data.json",
    "conf.toml",
    "notes.txt",
)

_hex = "0123456789abcdef"
sha256s: st.SearchStrategy[str | None] = st.one_of(
    st.none(),
    st.text(_hex, min_size=64, max_size=64),
    st.text(max_size=70),
)


@st.composite
def _piece_paths(draw: st.DrawFn) -> str:
    path = "/".join(draw(st.lists(st.sampled_from(PATH_PIECES), min_size=1, max_size=4)))
    return draw(st.sampled_from([path, path, "/" + path, path + "/", "./" + path]))


def patch_paths() -> st.SearchStrategy[str]:
    """Paths built from hostile pieces (sometimes absolute or with a trailing slash), or text."""
    return _piece_paths() | st.text(max_size=12)


edits = st.builds(Edit, find=st.text(max_size=30), replace=st.text(max_size=30))


@st.composite
def file_changes(draw: st.DrawFn, paths: st.SearchStrategy[str] | None = None) -> FileChange:
    """A change of any shape, well-formed or not (several forms at once, none at all)."""
    return FileChange(
        path=draw(paths if paths is not None else patch_paths()),
        base_sha256=draw(sha256s),
        content=draw(st.none() | st.text(max_size=60)),
        delete=draw(st.booleans()),
        edits=draw(st.none() | st.lists(edits, max_size=3)),
    )


roots = st.sampled_from(["/nonexistent/prewrite-root", "relative/root", "", "/proc/self/root/x"])
pythons = st.none() | st.sampled_from(["/nonexistent/python", "python3", ""])
timeouts = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, -1.0, 5.0])


def requests(
    roots: st.SearchStrategy[str] = roots,
    changes: st.SearchStrategy[FileChange] | None = None,
    pythons: st.SearchStrategy[str | None] = pythons,
    with_stop: bool = True,
) -> st.SearchStrategy[Request]:
    """Well-formed requests of every kind (``stop`` only when ``with_stop``)."""
    change_lists = st.lists(changes if changes is not None else file_changes(), max_size=4)
    kinds: list[st.SearchStrategy[Request]] = [
        st.builds(
            Hello,
            protocol_version=st.sampled_from([PROTOCOL_VERSION, 0, PROTOCOL_VERSION + 1, -1]),
            client_version=st.text(max_size=10),
        ),
        st.builds(
            CheckRequest,
            root=roots,
            changes=change_lists,
            python=pythons,
            timeout_s=timeouts,
        ),
        st.builds(
            ApplyRequest,
            root=roots,
            changes=change_lists,
            python=pythons,
            timeout_s=timeouts,
            finish=st.booleans(),
        ),
        st.builds(FinishRequest, root=roots, python=pythons),
        st.just(StatusRequest()),
        st.builds(StatsRequest, root=st.none() | roots),
    ]
    if with_stop:
        kinds.append(st.just(StopRequest()))
    return st.one_of(kinds)


msgpack_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(),
    st.text(max_size=20),
    st.binary(max_size=20),
    st.builds(msgspec.msgpack.Ext, st.integers(-128, 127), st.binary(max_size=12)),
    st.sampled_from(["hello", "check", "apply", "finish", "status", "stats", "stop", "op"]),
)


def msgpack_values() -> st.SearchStrategy[Any]:
    """Anything msgpack can carry, nested, with map keys that look like our field names."""
    keys = st.sampled_from(["op", "root", "changes", "path", "protocol_version"]) | st.text(
        max_size=8
    )
    return st.recursive(
        msgpack_scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=12,
    )


@st.composite
def near_valid_bodies(draw: st.DrawFn) -> bytes:
    """A valid request as msgpack with one field dropped, added, retyped or its tag changed."""
    value: dict[str, Any] = msgspec.to_builtins(draw(requests()))
    changes: list[dict[str, Any]] = value.get("changes") or []
    target = value
    if changes and draw(st.booleans()):
        target = changes[draw(st.integers(0, len(changes) - 1))]
    key = draw(st.sampled_from([*sorted(target), "unknown_field", "op"]))
    match draw(st.sampled_from(["drop", "retype", "add"])):
        case "drop":
            target.pop(key, None)
        case "retype":
            target[key] = draw(msgpack_values())
        case _:
            target[draw(st.text(max_size=10))] = draw(msgpack_values())
    return msgspec.msgpack.encode(value)


replies = st.sampled_from(
    [
        HelloReply(PROTOCOL_VERSION, "0.1.0", 42),
        StopReply(),
        ErrorReply("stale_base", "x", []),
        StatusReply(1, "v", "/s", 0.5, []),
    ]
)


def frame(body: bytes) -> bytes:
    return HEADER.pack(len(body)) + body


def read_replies(data: bytes) -> list[Reply]:
    """Every reply frame in ``data``, which must hold whole frames and nothing else."""
    replies: list[Reply] = []
    while data:
        assert len(data) >= HEADER.size, f"a partial header trails the replies: {data!r}"
        (length,) = HEADER.unpack(data[: HEADER.size])
        body = data[HEADER.size : HEADER.size + length]
        assert len(body) == length, "a reply frame was cut short"
        replies.append(REPLY_DECODER.decode(body))
        data = data[HEADER.size + length :]
    return replies
