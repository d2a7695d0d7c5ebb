"""What the live-daemon fuzz test (``test_daemon_fuzz.py``) sends: the temporary repository the
daemon serves (its ``[tool.prewrite]`` turns the typecheck and the tests off) and the paths its
patches name, and the generated steps — valid requests of every kind but ``stop`` (``check`` and
``apply`` with generated patches), near-valid and random bodies, sometimes two in flight on two
connections at once — with the ways a conversation ends.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import msgspec
from hypothesis import strategies as st

from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyRequest,
    CheckRequest,
    Edit,
    EditorAttach,
    FileChange,
    Hello,
    Request,
    StopRequest,
)
from tests.fuzz.wire import (
    PATH_PIECES,
    REQUEST_DECODER,
    msgpack_values,
    near_valid_bodies,
    requests,
)

PYPROJECT = """\
[project]
name = "fuzzed"
version = "0"

[tool.prewrite]
typecheck = false
tests = false
"""
REPO = {
    "pyproject.toml": PYPROJECT,
    "a.py": "A = 1\nB = 2\n",
    "crlf.py": "x = 1\r\ny = 2\r\n",
    "pkg/__init__.py": "",
    "pkg/m.py": "from a import A\n\n\ndef f() -> int:\n    return A\n",
    "data.json": '{"k": 1}\n',
    "conf.toml": "k = 1\n",
    "README.md": "# fuzzed\n",
    ".git/config": "[core]\n",
}
# pyproject.toml is left out on purpose: an `apply` that rewrote [tool.prewrite] would turn the
# typecheck back on for every later example (and it has tests of its own elsewhere).
PATCH_PATHS = (
    *(p for p in REPO if p != "pyproject.toml"),
    "new.py",
    "pkg/new.py",
    "link_out/secret.py",
    "link_in/m.py",
    "../outside/secret.py",
)


# --- what a client sends ----------------------------------------------------------------------


@dataclass(frozen=True)
class Body:
    """A frame body; ``base`` says how to fill each change's ``base_sha256`` at send time."""

    data: bytes | Request
    base: str = "as-is"  # "disk": the hash of the file there now; "as-is": as generated


@dataclass(frozen=True)
class Step:
    """One or two frames, each on its own connection, all sent before any reply is read."""

    sends: tuple[tuple[int, Body], ...]


ROOTS = ("repo", "repo/pkg", "outside", "/nonexistent/prewrite-root", "relative/root", "")
PYTHONS = (None, None, sys.executable, "/nonexistent/python", "relative/python")


live_edits = st.builds(
    Edit,
    find=st.sampled_from(["A = 1", "return A", "x = 1\n", "k = 1", '"k": 1', "def  f()"])
    | st.text(max_size=10),
    replace=st.sampled_from(["A = 2", "return 2", "x = 'y'\n", "k = [", '"k": 2', ""]),
)


@st.composite
def live_changes(draw: st.DrawFn) -> FileChange:
    """Mostly changes to the repository's own files, some with hostile paths or odd shapes."""
    path = draw(st.sampled_from(PATCH_PATHS * 3 + PATH_PIECES))
    form = draw(st.sampled_from(["content", "content", "edits", "edits", "delete", "none"]))
    contents = ["", "A = 3\n", "def (:\n", "x: int = 'a'\n", "{}\n", "import os\n", "[t]\nk=1\n"]
    return FileChange(
        path=path,
        base_sha256=None,
        content=draw(st.sampled_from(contents)) if form == "content" else None,
        delete=form == "delete",
        edits=draw(st.lists(live_edits, min_size=1, max_size=2)) if form == "edits" else None,
    )


change_lists = st.lists(live_changes(), min_size=1, max_size=3)
live_roots = st.sampled_from(["repo"] * 8 + list(ROOTS))
live_pythons = st.sampled_from([None] * 6 + [sys.executable] * 3 + list(PYTHONS))
live_timeouts = st.sampled_from([30.0, 30.0, 30.0, 0.0, -1.0, float("nan")])
checks = st.builds(
    CheckRequest,
    root=live_roots,
    changes=change_lists,
    python=live_pythons,
    timeout_s=live_timeouts,
)
applies = st.builds(
    ApplyRequest,
    root=live_roots,
    changes=change_lists,
    python=live_pythons,
    timeout_s=live_timeouts,
    finish=st.booleans(),
)
# Mostly the requests that do work (check, apply); the other kinds and odd fields too.
_kinds: dict[str, st.SearchStrategy[Request]] = {
    "check": checks,
    "apply": applies,
    "other": requests(
        roots=live_roots, changes=live_changes(), pythons=live_pythons, with_stop=False
    ),
}
live_requests = st.sampled_from(["check"] * 4 + ["apply"] * 3 + ["other"] * 2).flatmap(
    _kinds.__getitem__
)
HELLO = Hello(PROTOCOL_VERSION, "fuzz")


def _not_stop(body: bytes) -> bool:
    """A generated body may well spell a valid ``stop`` (tested on its own, last) or an
    ``editor_attach``, after which the connection speaks LSP (tests/e2e/test_editor.py)."""
    try:
        return not isinstance(REQUEST_DECODER.decode(body), StopRequest | EditorAttach)
    except msgspec.DecodeError:
        return True


raw_bodies = st.one_of(
    msgpack_values().map(msgspec.msgpack.encode), near_valid_bodies(), st.binary(max_size=24)
).filter(_not_stop)
bodies = st.one_of(
    st.builds(Body, live_requests, st.sampled_from(["disk", "disk", "as-is"])),
    st.builds(Body, live_requests, st.sampled_from(["disk", "disk", "as-is"])),
    st.builds(Body, raw_bodies),
)


@st.composite
def steps(draw: st.DrawFn) -> Step:
    first = draw(st.integers(0, 1))
    sends = [(first, draw(bodies))]
    if draw(st.booleans()):  # a second request in flight at once, on the other connection
        sends.append((1 - first, draw(bodies)))
    return Step(tuple(sends))


ENDINGS = ("hang-up", "hang-up", "oversize", "truncated", "hang-up-mid-request")
