"""A live daemon under generated traffic: it never dies and every request gets exactly one reply.

One private daemon for the module, in its own short runtime dir, serving a temporary repository
whose ``[tool.prewrite]`` turns the typecheck (and the tests after ``apply``) off, so no pyright
is involved and each request is quick. Each example opens two raw connections and sends a
generated sequence — valid requests of every kind but ``stop`` (``check`` and ``apply`` with
generated patches), near-valid and random bodies, sometimes two requests in flight on the two
connections at once — then ends with a clean hang-up, an oversize header, a frame cut short or a
hang-up in the middle of a request. Every whole frame must get exactly one reply, of the kind
its request asks for or a typed error (never ``internal_error``); nothing more may arrive before
the daemon closes; the process must still be alive and answer ``status``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prewrite.daemon_start import wait_for_daemon
from prewrite.errors import ERROR_CLASSES, InternalError
from prewrite.framing import HEADER, MAX_FRAME_BYTES, recv_frame, send_frame
from prewrite.protocol import (
    PROTOCOL_VERSION,
    ApplyReply,
    ApplyRequest,
    CheckReply,
    CheckRequest,
    Edit,
    EditorAttach,
    ErrorReply,
    FileChange,
    FinishReply,
    FinishRequest,
    Hello,
    HelloReply,
    Reply,
    Request,
    StatsReply,
    StatsRequest,
    StatusReply,
    StatusRequest,
    StopReply,
    StopRequest,
)
from prewrite.runtime import RuntimePaths
from tests.fuzz.bounds import bounded
from tests.fuzz.wire import (
    PATH_PIECES,
    REPLY_DECODER,
    REQUEST_DECODER,
    frame,
    msgpack_values,
    near_valid_bodies,
    requests,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.fuzz

IO_TIMEOUT_S = 30.0
START_TIMEOUT_S = 30.0

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

REPLY_FOR: dict[type[Request], type[Reply]] = {
    Hello: HelloReply,
    CheckRequest: CheckReply,
    ApplyRequest: ApplyReply,
    FinishRequest: FinishReply,
    StatusRequest: StatusReply,
    StatsRequest: StatsReply,
    StopRequest: StopReply,
}


@dataclass(frozen=True)
class Site:
    """The daemon under test and the tree it serves."""

    proc: subprocess.Popen[bytes]
    paths: RuntimePaths
    base: Path  # holds repo/, outside/, a pristine template/ and the daemon's log

    @property
    def repo(self) -> Path:
        return self.base / "repo"

    def reset_repo(self) -> None:
        """Every example starts from the same tree (an earlier ``apply`` may have written)."""
        shutil.rmtree(self.repo)
        shutil.copytree(self.base / "template", self.repo, symlinks=True)

    def alive(self) -> bool:
        return self.proc.poll() is None


def _write_tree(base: Path) -> None:
    template = base / "template"
    for rel, text in REPO.items():
        (template / rel).parent.mkdir(parents=True, exist_ok=True)
        (template / rel).write_bytes(text.encode())
    (template / "link_in").symlink_to("pkg")
    (template / "link_out").symlink_to("../outside")
    (base / "outside").mkdir()
    (base / "outside" / "secret.py").write_text("SECRET = 1\n")
    shutil.copytree(template, base / "repo", symlinks=True)


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with tempfile.TemporaryDirectory(prefix="pwfz-", dir="/tmp") as d:  # short socket path
        base = Path(d).resolve()
        _write_tree(base)
        paths = RuntimePaths(base / "run")
        env = dict(
            os.environ,
            PREWRITE_RUNTIME_DIR=str(paths.runtime_dir),
            PREWRITE_PYRIGHT_DIST=str(base / "no-pyright-here"),  # a checker would fail fast
        )
        env.pop("PREWRITE_DAEMON_CMD", None)
        with (base / "daemon.log").open("wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "prewrite_daemon", "--log-level", "INFO"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        try:
            wait_for_daemon(paths, START_TIMEOUT_S).close()
            yield Site(proc, paths, base)
        finally:
            _stop(proc, paths)


def _stop(proc: subprocess.Popen[bytes], paths: RuntimePaths) -> None:
    """Stop by request (the reply must come); terminate, then kill, only if that fails."""
    if proc.poll() is None:
        try:
            with _connect(paths) as sock:
                _ask(sock, HELLO)
                _ask(sock, StopRequest())
            proc.wait(IO_TIMEOUT_S)
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(IO_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _connect(paths: RuntimePaths) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(IO_TIMEOUT_S)
    sock.connect(str(paths.socket))
    return sock


def _ask(sock: socket.socket, request: Request) -> Reply:
    send_frame(sock, request)
    return recv_frame(sock, REPLY_DECODER)


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


# --- what must come back ------------------------------------------------------------------------


def _absolute(site: Site, root: str) -> str:
    return str(site.base / root) if root in ("repo", "repo/pkg", "outside") else root


def _disk_hash(root: str, path: str) -> str | None:
    """The base hash an honest client would send: the file's bytes now, None if it is absent."""
    candidate = Path(root) / path
    try:
        if "\x00" in path or not candidate.is_file():
            return None
        return hashlib.sha256(candidate.read_bytes()).hexdigest()
    except OSError:
        return None


def _materialize(site: Site, body: Body) -> tuple[bytes, Request | None]:
    """The bytes to send, and the request they decode to (None: undecodable)."""
    if isinstance(body.data, bytes):
        try:
            return body.data, REQUEST_DECODER.decode(body.data)
        except msgspec.DecodeError:
            return body.data, None
    request = body.data
    if isinstance(request, CheckRequest | ApplyRequest | FinishRequest):
        request = msgspec.structs.replace(request, root=_absolute(site, request.root))
    if isinstance(request, CheckRequest | ApplyRequest) and body.base == "disk":
        changes = [
            msgspec.structs.replace(c, base_sha256=_disk_hash(request.root, c.path))
            for c in request.changes
        ]
        request = msgspec.structs.replace(request, changes=changes)
    if isinstance(request, StatsRequest) and request.root is not None:
        request = StatsRequest(root=_absolute(site, request.root))
    return msgspec.msgpack.encode(request), request


@dataclass
class Peer:
    """One raw connection and what the daemon must do with its next frame."""

    sock: socket.socket
    greeted: bool = False

    def expect(self, request: Request | None, reply: Reply) -> None:
        """``reply`` is the one the daemon owes for ``request`` (None: an undecodable body)."""
        if isinstance(reply, ErrorReply):
            assert reply.code in ERROR_CLASSES, f"undocumented code {reply.code}"
            assert reply.code != InternalError.code, f"internal_error for {request!r}"
        if request is None:
            assert isinstance(reply, ErrorReply), reply
            assert reply.code == "bad_request"
        elif not self.greeted and not isinstance(request, Hello):
            assert isinstance(reply, ErrorReply), reply
            assert reply.code == "bad_request"
        else:
            assert isinstance(reply, ErrorReply | REPLY_FOR[type(request)]), (request, reply)
        if isinstance(reply, HelloReply):
            self.greeted = True

    def recv(self) -> Reply:
        return recv_frame(self.sock, REPLY_DECODER)

    def hang_up_cleanly(self) -> None:
        """Close our side; the daemon must close too, with no further reply on the way."""
        self.sock.shutdown(socket.SHUT_WR)
        assert _read_to_end(self.sock) == b"", "a reply nobody asked for"


def _read_to_end(sock: socket.socket) -> bytes:
    chunks: list[bytes] = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _end(site: Site, peer: Peer, ending: str) -> None:
    match ending:
        case "oversize":
            peer.sock.sendall(HEADER.pack(MAX_FRAME_BYTES + 1))
            reply = peer.recv()
            assert isinstance(reply, ErrorReply), reply
            assert reply.code == "frame_too_large"
            assert _read_to_end(peer.sock) == b"", "the stream cannot resynchronise: closed"
        case "truncated":
            whole = frame(msgspec.msgpack.encode(StatusRequest()))
            peer.sock.sendall(whole[:-1])
            peer.hang_up_cleanly()  # no reply to a frame that never completed
        case "hang-up-mid-request":
            request = CheckRequest(
                root=str(site.repo), changes=[FileChange("new.py", None, "N = 1\n")]
            )
            send_frame(peer.sock, request)
            peer.sock.close()  # the daemon cancels it; the status check below shows it is fine
        case _:
            peer.hang_up_cleanly()


def _status_is_answered(site: Site) -> None:
    assert site.alive(), f"the daemon died (exit code {site.proc.returncode})"
    with _connect(site.paths) as sock:
        assert isinstance(_ask(sock, HELLO), HelloReply)
        assert isinstance(_ask(sock, StatusRequest()), StatusReply)


@bounded(50)
@given(
    greet=st.tuples(*[st.sampled_from([True] * 7 + [False])] * 2),
    script=st.lists(steps(), max_size=6),
    endings=st.tuples(st.sampled_from(ENDINGS), st.sampled_from(ENDINGS)),
)
def test_every_request_gets_exactly_one_reply_and_the_daemon_lives(
    site: Site, greet: tuple[bool, bool], script: list[Step], endings: tuple[str, str]
) -> None:
    site.reset_repo()
    peers = [Peer(_connect(site.paths)), Peer(_connect(site.paths))]
    try:
        for index, peer in enumerate(peers):
            if greet[index]:
                peer.expect(HELLO, _ask(peer.sock, HELLO))
        for step in script:
            sent: list[tuple[Peer, Request | None]] = []
            for index, body in step.sends:
                data, request = _materialize(site, body)
                peers[index].sock.sendall(frame(data))
                sent.append((peers[index], request))
            for peer, request in sent:
                peer.expect(request, peer.recv())
        for peer, ending in zip(peers, endings, strict=True):
            _end(site, peer, ending)
    finally:
        for peer in peers:
            peer.sock.close()
    _status_is_answered(site)


@pytest.mark.parametrize("python", ["/bin/true", "/bin/echo"])
def test_an_interpreter_that_is_not_python_is_invalid_workspace(site: Site, python: str) -> None:
    site.reset_repo()
    with _connect(site.paths) as sock:
        _ask(sock, HELLO)
        request = CheckRequest(
            root=str(site.repo), changes=[FileChange("new.py", None, "N = 1\n")], python=python
        )
        reply = _ask(sock, request)
    assert isinstance(reply, ErrorReply), reply
    assert reply.code == "invalid_workspace", reply


def test_the_daemon_still_stops_cleanly_after_the_fuzzing(site: Site) -> None:
    """Last in the module: ``stop`` is answered and the process exits 0."""
    _status_is_answered(site)
    with _connect(site.paths) as sock:
        _ask(sock, HELLO)
        assert isinstance(_ask(sock, StopRequest()), StopReply)
    assert site.proc.wait(IO_TIMEOUT_S) == 0
    assert not site.paths.status_file.exists()
