"""The private daemon the live-daemon fuzz test (``test_daemon_fuzz.py``) drives: ``Site`` (the
process and the tree it serves), writing that tree, raw connections and one request's reply, and
stopping it by request (terminate, then kill, only if that fails).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.framing import recv_frame, send_frame
from prewrite.protocol import Reply, Request, StopRequest
from tests.fuzz.daemon_traffic import HELLO, REPO
from tests.fuzz.wire import REPLY_DECODER

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.runtime import RuntimePaths


IO_TIMEOUT_S = 30.0


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


def write_tree(base: Path) -> None:
    template = base / "template"
    for rel, text in REPO.items():
        (template / rel).parent.mkdir(parents=True, exist_ok=True)
        (template / rel).write_bytes(text.encode())
    (template / "link_in").symlink_to("pkg")
    (template / "link_out").symlink_to("../outside")
    (base / "outside").mkdir()
    (base / "outside" / "secret.py").write_text("SECRET = 1\n")
    shutil.copytree(template, base / "repo", symlinks=True)


def stop(proc: subprocess.Popen[bytes], paths: RuntimePaths) -> None:
    """Stop by request (the reply must come); terminate, then kill, only if that fails."""
    if proc.poll() is None:
        try:
            with connect(paths) as sock:
                ask(sock, HELLO)
                ask(sock, StopRequest())
            proc.wait(IO_TIMEOUT_S)
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(IO_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def connect(paths: RuntimePaths) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(IO_TIMEOUT_S)
    sock.connect(str(paths.socket))
    return sock


def ask(sock: socket.socket, request: Request) -> Reply:
    send_frame(sock, request)
    return recv_frame(sock, REPLY_DECODER)
