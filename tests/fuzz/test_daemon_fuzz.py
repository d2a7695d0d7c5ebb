"""A live daemon under generated traffic: it never dies and every request gets exactly one reply.

One private daemon for the module, in its own short runtime dir, serving a temporary repository
whose ``[tool.prewrite]`` turns the typecheck (and the tests after ``apply``) off, so no pyright
is involved and each request is quick. Each example opens two raw connections and sends a
generated sequence (``daemon_traffic.py``) — valid requests of every kind but ``stop`` (``check``
and ``apply`` with generated patches), near-valid and random bodies, sometimes two requests in
flight on the two connections at once — then ends with a clean hang-up, an oversize header, a
frame cut short or a hang-up in the middle of a request. Every whole frame must get exactly one
reply, of the kind its request asks for or a typed error (never ``internal_error``); nothing more
may arrive before the daemon closes; the process must still be alive and answer ``status``.
"""

from __future__ import annotations

import hashlib
import os
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
    ApplyReply,
    ApplyRequest,
    CheckReply,
    CheckRequest,
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
from tests.fuzz.daemon_site import IO_TIMEOUT_S, Site
from tests.fuzz.daemon_site import ask as _ask
from tests.fuzz.daemon_site import connect as _connect
from tests.fuzz.daemon_site import stop as _stop
from tests.fuzz.daemon_site import write_tree as _write_tree
from tests.fuzz.daemon_traffic import ENDINGS, HELLO, Body, Step, steps
from tests.fuzz.wire import REPLY_DECODER, REQUEST_DECODER, frame

if TYPE_CHECKING:
    from collections.abc import Iterator


pytestmark = pytest.mark.fuzz


START_TIMEOUT_S = 30.0


REPLY_FOR: dict[type[Request], type[Reply]] = {
    Hello: HelloReply,
    CheckRequest: CheckReply,
    ApplyRequest: ApplyReply,
    FinishRequest: FinishReply,
    StatusRequest: StatusReply,
    StatsRequest: StatsReply,
    StopRequest: StopReply,
}


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
