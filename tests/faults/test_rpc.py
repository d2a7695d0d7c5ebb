"""Protocol abuse on a raw socket against a real daemon process (no checker ever starts).

Each daemon runs in its own short runtime dir under /tmp (Unix socket paths are limited to ~107
bytes) with ``PREWRITE_PYRIGHT_DIST`` pointing nowhere, so a check that got as far as starting
a checker would fail with ``backend_failed`` instead of starting pyright.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgspec
import pytest

from prewrite.errors import ErrorDetail
from prewrite.framing import (
    HEADER,
    MAX_FRAME_BYTES,
    body_length,
    encode_frame,
    recv_frame,
    send_frame,
)
from prewrite.protocol import (
    PROTOCOL_VERSION,
    CheckRequest,
    ErrorReply,
    FileChange,
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
    WorkspaceStatus,
)
from prewrite.runtime import RuntimePaths, read_status
from prewrite_daemon.rpc import serve_unix

if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterator

R = TypeVar("R")
_replies: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)
IO_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class DaemonProc:
    proc: subprocess.Popen[bytes]
    paths: RuntimePaths
    env: dict[str, str]


class RawConnection:
    """One client connection, spoken frame by frame with no handshake done for us."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(IO_TIMEOUT_S)
        self.sock.connect(str(path))

    def ask(self, request: Request) -> Reply:
        send_frame(self.sock, request)
        return self.recv()

    def ask_raw(self, body: bytes) -> Reply:
        self.sock.sendall(HEADER.pack(len(body)) + body)
        return self.recv()

    def recv(self) -> Reply:
        return recv_frame(self.sock, _replies)

    def hello(self) -> HelloReply:
        return expect(self.ask(Hello(PROTOCOL_VERSION, "test")), HelloReply)

    def close(self) -> None:
        self.sock.close()


def expect(reply: Reply, kind: type[R]) -> R:
    assert isinstance(reply, kind), reply
    return reply


def error_code(reply: Reply) -> str:
    return expect(reply, ErrorReply).code


def wait_until(condition: Callable[[], bool], timeout_s: float = IO_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("condition not reached in time")
        time.sleep(0.01)


def listening(daemon: DaemonProc) -> bool:
    """The status file is there (written once the socket listens) and the socket accepts."""
    if daemon.proc.poll() is not None:
        pytest.fail(f"the daemon exited with code {daemon.proc.returncode}")
    if not daemon.paths.status_file.exists():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        return probe.connect_ex(str(daemon.paths.socket)) == 0


@contextmanager
def short_runtime_dir() -> Generator[Path]:
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        yield Path(d) / "run"


def spawn(runtime_dir: Path) -> DaemonProc:
    env = dict(
        os.environ,
        PREWRITE_RUNTIME_DIR=str(runtime_dir),
        PREWRITE_PYRIGHT_DIST=str(runtime_dir / "no-pyright-here"),
    )
    env.pop("PREWRITE_DAEMON_CMD", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "prewrite_daemon", "--log-level", "DEBUG"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return DaemonProc(proc, RuntimePaths(runtime_dir), env)


@contextmanager
def running_daemon(runtime_dir: Path) -> Generator[DaemonProc]:
    daemon = spawn(runtime_dir)
    try:
        wait_until(lambda: listening(daemon), 30.0)
        yield daemon
    finally:
        if daemon.proc.poll() is None:
            daemon.proc.send_signal(signal.SIGTERM)
            try:
                daemon.proc.wait(IO_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                daemon.proc.kill()
                daemon.proc.wait()


@pytest.fixture(scope="module")
def shared() -> Iterator[DaemonProc]:
    """One daemon for the tests that leave it running; its runtime dir starts too open (0755)."""
    with short_runtime_dir() as runtime_dir:
        runtime_dir.mkdir(mode=0o755)
        runtime_dir.chmod(0o755)
        with running_daemon(runtime_dir) as daemon:
            yield daemon


@pytest.fixture
def conn(shared: DaemonProc) -> Iterator[RawConnection]:
    c = RawConnection(shared.paths.socket)
    try:
        yield c
    finally:
        c.close()


# --- handshake and malformed input ----------------------------------------------------------


def test_hello_names_the_daemon(conn: RawConnection, shared: DaemonProc) -> None:
    reply = conn.hello()
    assert reply.protocol_version == PROTOCOL_VERSION
    assert reply.pid == shared.proc.pid


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\xc1", id="never-used-byte"),
        pytest.param(b"\x92\x01", id="truncated-array"),
        pytest.param(msgspec.msgpack.encode(42), id="not-a-map"),
        pytest.param(msgspec.msgpack.encode({"type": "format_disk"}), id="unknown-tag"),
        pytest.param(msgspec.msgpack.encode({"type": "hello"}), id="missing-fields"),
        pytest.param(msgspec.msgpack.encode(StopReply()), id="a-reply"),
    ],
)
def test_garbage_body_is_bad_request_and_the_connection_keeps_serving(
    conn: RawConnection, body: bytes
) -> None:
    assert error_code(conn.ask_raw(body)) == "bad_request"
    conn.hello()
    assert error_code(conn.ask_raw(body)) == "bad_request"
    expect(conn.ask(StatusRequest()), StatusReply)


@pytest.mark.parametrize("request_", [StatusRequest(), StopRequest()], ids=["status", "stop"])
def test_a_request_before_hello_is_refused(
    conn: RawConnection, shared: DaemonProc, request_: Request
) -> None:
    assert error_code(conn.ask(request_)) == "bad_request"
    assert shared.proc.poll() is None  # an ungreeted stop stopped nothing
    assert shared.paths.status_file.exists()
    conn.hello()
    expect(conn.ask(StatusRequest()), StatusReply)


def test_a_wrong_protocol_version_is_refused(conn: RawConnection) -> None:
    reply = conn.ask(Hello(PROTOCOL_VERSION + 1, "from-the-future"))
    assert error_code(reply) == "version_mismatch"
    assert error_code(conn.ask(StatusRequest())) == "bad_request"  # still not greeted


def test_an_oversized_frame_header_is_answered_then_closed(conn: RawConnection) -> None:
    conn.hello()
    conn.sock.sendall(HEADER.pack(MAX_FRAME_BYTES + 1))
    assert error_code(conn.recv()) == "frame_too_large"
    assert conn.sock.recv(1) == b""  # the daemon hung up: the stream cannot be resynchronised


def test_pipelined_frames_are_answered_in_order_and_the_connection_serves_on(
    conn: RawConnection,
) -> None:
    """A client that sends its next frame before the reply (here: in the same write as hello).

    Both are answered, in order, and the stream stays in step: the byte the daemon's hang-up
    probe reads while hello is handled is the start of the status frame, and is kept.
    """
    conn.sock.sendall(encode_frame(Hello(PROTOCOL_VERSION, "t")) + encode_frame(StatusRequest()))
    expect(conn.recv(), HelloReply)
    expect(conn.recv(), StatusReply)
    three = [StatusRequest(), StatsRequest(), StatusRequest()]
    conn.sock.sendall(b"".join(encode_frame(r) for r in three))
    assert [type(conn.recv()) for _ in three] == [StatusReply, StatsReply, StatusReply]
    expect(conn.ask(StatusRequest()), StatusReply)


def test_status_describes_the_daemon(conn: RawConnection, shared: DaemonProc) -> None:
    conn.hello()
    reply = expect(conn.ask(StatusRequest()), StatusReply)
    assert reply.pid == shared.proc.pid
    assert reply.socket == str(shared.paths.socket)
    assert reply.uptime_s >= 0
    status_file = read_status(shared.paths)
    assert status_file is not None
    assert (status_file.pid, status_file.socket) == (shared.proc.pid, str(shared.paths.socket))


def test_connections_are_served_independently(shared: DaemonProc) -> None:
    idle, busy = RawConnection(shared.paths.socket), RawConnection(shared.paths.socket)
    try:
        idle.hello()
        busy.hello()
        expect(busy.ask(StatusRequest()), StatusReply)
        expect(idle.ask(StatusRequest()), StatusReply)
    finally:
        idle.close()
        busy.close()


# --- checks that fail before any checker is involved ----------------------------------------


@pytest.mark.parametrize("root", ["relative/root", "/no/such/prewrite/root"])
def test_a_bad_root_is_invalid_workspace(conn: RawConnection, root: str) -> None:
    conn.hello()
    reply = conn.ask(CheckRequest(root=root, changes=[FileChange("a.py", None, "x = 1\n")]))
    assert error_code(reply) == "invalid_workspace"
    expect(conn.ask(StatusRequest()), StatusReply)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (FileChange("../escape.py", None, "x = 1\n"), "path_outside_workspace"),
        (FileChange(".git/config", None, "x"), "forbidden_path"),
        (FileChange("a.py", "0" * 64, "x = 2\n"), "stale_base"),
        (FileChange("a.py", None), "bad_request"),
    ],
    ids=["outside", "git", "stale", "shape"],
)
def test_patch_errors_come_before_starting_a_checker(
    conn: RawConnection, tmp_path: Path, change: FileChange, code: str
) -> None:
    """The checker cannot start here; a patch that is wrong anyway must say why it is wrong."""
    (tmp_path / "a.py").write_text("x = 1\n")
    conn.hello()
    reply = conn.ask(CheckRequest(root=str(tmp_path), changes=[change], python=sys.executable))
    assert error_code(reply) == code


def test_a_checker_that_cannot_start_is_backend_failed(conn: RawConnection, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    conn.hello()
    request = CheckRequest(
        root=str(tmp_path), changes=[FileChange("b.py", None, "y = 2\n")], python=sys.executable
    )
    assert error_code(conn.ask(request)) == "backend_failed"
    expect(conn.ask(StatusRequest()), StatusReply)


# --- the runtime dir, the lock and stopping -------------------------------------------------


def test_runtime_dir_is_0700_and_socket_0600(shared: DaemonProc) -> None:
    assert stat.S_IMODE(shared.paths.runtime_dir.stat().st_mode) == 0o700
    st = shared.paths.socket.stat()
    assert stat.S_ISSOCK(st.st_mode)
    assert stat.S_IMODE(st.st_mode) == 0o600


def test_a_second_daemon_exits_quietly_and_the_first_keeps_serving(shared: DaemonProc) -> None:
    second = subprocess.run(
        [sys.executable, "-m", "prewrite_daemon"],
        env=shared.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert second.returncode == 0
    status_file = read_status(shared.paths)
    assert status_file is not None
    assert status_file.pid == shared.proc.pid
    c = RawConnection(shared.paths.socket)
    try:
        assert c.hello().pid == shared.proc.pid
    finally:
        c.close()


def test_stop_removes_the_status_file_before_answering() -> None:
    with short_runtime_dir() as runtime_dir, running_daemon(runtime_dir) as daemon:
        c = RawConnection(daemon.paths.socket)
        try:
            c.hello()
            expect(c.ask(StopRequest()), StopReply)
            assert not daemon.paths.status_file.exists()
        finally:
            c.close()
        assert daemon.proc.wait(IO_TIMEOUT_S) == 0
        assert not daemon.paths.socket.exists()


def test_sigterm_stops_the_daemon_cleanly() -> None:
    with short_runtime_dir() as runtime_dir, running_daemon(runtime_dir) as daemon:
        daemon.proc.send_signal(signal.SIGTERM)
        assert daemon.proc.wait(IO_TIMEOUT_S) == 0
        assert not daemon.paths.status_file.exists()
        assert not daemon.paths.socket.exists()


# --- bounds: long paths, replies over the frame limit ----------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("pkg/" + "n" * 300 + ".py", id="component-300-bytes"),
        pytest.param("/".join(["d" * 200] * 25) + "/a.py", id="path-5000-bytes"),
        pytest.param("é" * 130 + ".py", id="component-263-utf8-bytes"),
    ],
)
def test_a_path_the_filesystem_cannot_hold_is_bad_request(
    conn: RawConnection, tmp_path: Path, path: str
) -> None:
    conn.hello()
    request = CheckRequest(str(tmp_path), [FileChange(path, None, "x = 1\n")], sys.executable)
    reply = expect(conn.ask(request), ErrorReply)
    assert reply.code == "bad_request", reply.message
    assert [d.path for d in reply.details] == [path]  # named as given
    expect(conn.ask(StatusRequest()), StatusReply)


def _status_of_size(n: int) -> StatusReply:
    ws = WorkspaceStatus("/w" * 50, "python", "running", 1, 1)
    return StatusReply(1, "v", "/s", 0.0, [ws] * n)


async def _ask(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: Request
) -> Reply:
    writer.write(encode_frame(request))
    await writer.drain()
    length = body_length(await reader.readexactly(HEADER.size))
    return _replies.decode(await reader.readexactly(length))


async def test_a_reply_over_the_frame_limit_is_a_typed_error_and_the_connection_serves_on(
    tmp_path: Path,
) -> None:
    limit = 4096
    big_error = ErrorReply("stale_base", "m" * 5000, [ErrorDetail("x" * 200, "p")] * 500)

    async def handler(request: Request) -> Reply:
        match request:
            case Hello():
                return HelloReply(PROTOCOL_VERSION, "test", os.getpid())
            case StatsRequest():
                return big_error
            case _:
                return _status_of_size(1 if isinstance(request, StopRequest) else 1000)

    sent: list[Reply] = []
    path = Path(tempfile.mkdtemp(prefix="pw-", dir="/tmp")) / "s.sock"
    server = await serve_unix(str(path), handler, sent.append, max_frame_bytes=limit)
    try:
        reader, writer = await asyncio.open_unix_connection(str(path))
        try:
            expect(await _ask(reader, writer, Hello(PROTOCOL_VERSION, "t")), HelloReply)
            too_big = expect(await _ask(reader, writer, StatusRequest()), ErrorReply)
            assert too_big.code == "frame_too_large"
            assert "status_reply" in too_big.message
            error = expect(await _ask(reader, writer, StatsRequest()), ErrorReply)
            assert error.code == "stale_base"  # an error keeps its code, cut to fit
            assert 0 < len(error.details) < 500
            assert "more details left out" in error.message
            small = expect(await _ask(reader, writer, StopRequest()), StatusReply)
            assert len(small.workspaces) == 1  # the connection kept serving
        finally:
            writer.close()
            await writer.wait_closed()
    finally:
        server.close()
        await server.wait_closed()
        path.unlink(missing_ok=True)
        path.parent.rmdir()
    assert len(sent) == 4  # every request got exactly one reply
