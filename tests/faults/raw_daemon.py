"""A real daemon process spoken to on a raw socket, for the protocol abuse tests
(``tests/faults/rpc/``) and the deadline tests: spawning one in its own short runtime dir under /tmp
(Unix socket paths are limited to ~107 bytes) with ``PREWRITE_PYRIGHT_DIST`` pointing nowhere, so a
check that got as far as starting a checker would fail with ``backend_failed`` instead of starting
pyright; a connection spoken frame by frame with no handshake done for us; and typed reading of its
replies.
"""

from __future__ import annotations

import os
import signal
import socket
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

from prewrite.framing import HEADER, recv_frame, send_frame
from prewrite.protocol import PROTOCOL_VERSION, ErrorReply, Hello, HelloReply, Reply, Request
from prewrite.runtime import RuntimePaths

if TYPE_CHECKING:
    from collections.abc import Callable, Generator


R = TypeVar("R")
replies: msgspec.msgpack.Decoder[Reply] = msgspec.msgpack.Decoder(Reply)
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
        return recv_frame(self.sock, replies)

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
