"""A daemon of one test module's own (its memory and its stop are that module's to measure),
started as the CLI starts it, optionally under an address-space limit."""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.client import Client
from prewrite.errors import PrewriteError
from prewrite.runtime import RuntimePaths, read_status
from tests.cli.test_cli_e2e import wait_gone

if TYPE_CHECKING:
    from collections.abc import Generator

DAEMON_AS = 6_000_000_000  # the daemon's address space (pyright and node are children)


def bounded_daemon_command() -> str:
    return f"prlimit --as={DAEMON_AS} -- {sys.executable} -I -m prewrite_daemon"


def stop_daemon(paths: RuntimePaths) -> None:
    """Stop the daemon; one that does not answer is killed (it is the module's own)."""
    status = read_status(paths)
    if status is None:
        return
    try:
        with Client(paths=paths, autostart=False, call_timeout_s=10.0) as c:
            c.stop()
    except PrewriteError:
        os.kill(status.pid, 9)
    assert wait_gone(status.pid, 30.0)


@contextmanager
def private_daemon(*, bounded: bool) -> Generator[RuntimePaths]:
    """A started daemon in a runtime dir of its own (``bounded``: under ``DAEMON_AS``), stopped
    on the way out."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d) / "run")
        with pytest.MonkeyPatch.context() as mp:
            if bounded:
                mp.setenv("PREWRITE_DAEMON_CMD", bounded_daemon_command())
            Client(paths=paths).close()
        try:
            yield paths
        finally:
            stop_daemon(paths)


def peak_rss(paths: RuntimePaths) -> int:
    """The daemon's peak resident memory so far (``VmHWM``), in bytes."""
    status = read_status(paths)
    assert status is not None, "the daemon is gone"
    text = Path(f"/proc/{status.pid}/status").read_text()
    line = next(x for x in text.splitlines() if x.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024
