"""A real daemon process's runtime dir, lock and stopping: the dir is 0700 and the socket 0600, a
second daemon exits quietly while the first keeps serving, ``stop`` removes the status file before
answering, SIGTERM stops it cleanly.
"""

from __future__ import annotations

import signal
import stat
import subprocess
import sys

from prewrite.protocol import StopReply, StopRequest
from prewrite.runtime import read_status
from tests.faults.raw_daemon import (
    IO_TIMEOUT_S,
    DaemonProc,
    RawConnection,
    expect,
    running_daemon,
    short_runtime_dir,
)


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
