"""Child on its own: a wait woken by the child's death, a deadline, a staged stop of the group.

The children are a few lines of Python, so each fault is exact and immediate; the backend's
part (its state deciding whether a loss was a failure) is played by ``Owner``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.child import Child, signal_group
from tests.faults.harness import is_gone
from tests.support.exits import exits_within

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

SLACK_S = 15.0
SLEEPER = "import os, time; print(os.getpid(), flush=True); time.sleep(600)"
# Ignores SIGTERM (so does its grandchild: exec keeps an ignored signal ignored), starts the
# grandchild in its group, names it, then waits forever: only SIGKILL to the group ends both.
STUBBORN = r"""
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
nul = subprocess.DEVNULL  # a grandchild holding our pipes would delay asyncio's wait()
grandchild = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(600)"], stdin=nul, stdout=nul, stderr=nul
)
print(grandchild.pid, flush=True)
time.sleep(600)
"""


def killed(pid: int) -> bool:
    """Gone, or a zombie: an orphaned grandchild is reaped by init, in its own time."""
    try:
        return psutil.Process(pid).status() in (psutil.STATUS_DEAD, psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


class Owner:
    """A backend's part: whether a loss is a failure is its call (here: unless stopping)."""

    def __init__(self) -> None:
        self.stopping = False
        self.losses: list[str] = []
        self.first_line: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.child = Child("the fake", self.on_lost)

    def on_lost(self, reason: str) -> bool:
        self.losses.append(reason)
        return not self.stopping

    async def read(self, stdout: asyncio.StreamReader) -> None:
        line = await stdout.readline()
        if not self.first_line.done():
            self.first_line.set_result(line.decode())
        while await stdout.read(65536):
            pass

    async def spawn(self, script: str, tmp_path: Path) -> int:
        """Spawn ``script``; the pid its first line names."""
        await self.child.spawn([sys.executable, "-c", script], tmp_path, None, self.read)
        return int(await asyncio.wait_for(self.first_line, SLACK_S))


@pytest.fixture
async def owner() -> AsyncIterator[Owner]:
    made = Owner()
    yield made
    made.stopping = True
    await made.child.stop(None, grace_s=0.2)


async def test_a_death_wakes_the_pending_wait_once_the_child_is_reaped(
    owner: Owner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    await owner.spawn(SLEEPER, tmp_path)
    assert owner.child.pid is not None
    os.kill(owner.child.pid, signal.SIGKILL)
    with pytest.raises(BackendFailed, match=r"the fake failed \(it exited with code -9\)"):
        await owner.child.wait(asyncio.Event().wait(), SLACK_S, "an answer")
    assert is_gone(owner.child.pid)
    assert owner.losses[-1] == "it exited with code -9"
    assert "exited with code -9" in caplog.text  # unexpected: a warning


async def test_a_deadline_is_a_timeout_and_the_child_lives(owner: Owner, tmp_path: Path) -> None:
    await owner.spawn(STUBBORN, tmp_path)
    with pytest.raises(CheckTimeout, match=r"no an answer from the fake within 0\.2s"):
        await owner.child.wait(asyncio.Event().wait(), 0.2, "an answer")
    assert owner.child.alive
    assert await owner.child.wait(asyncio.sleep(0, "done"), SLACK_S, "an answer") == "done"


async def test_stop_escalates_to_sigkill_and_wakes_pending_calls(
    owner: Owner, tmp_path: Path
) -> None:
    grandchild = await owner.spawn(STUBBORN, tmp_path)
    pending = asyncio.ensure_future(owner.child.wait(asyncio.Event().wait(), 60.0, "an answer"))
    graceful_called = asyncio.Event()

    async def graceful() -> None:  # the protocol's shutdown, which this child ignores
        graceful_called.set()

    owner.stopping = True
    await owner.child.stop(graceful, grace_s=0.2)
    assert graceful_called.is_set()
    assert owner.child.pid is not None
    assert is_gone(owner.child.pid)
    assert exits_within(grandchild, SLACK_S)  # the SIGKILL is delivered asynchronously
    assert killed(grandchild)
    with pytest.raises(BackendFailed, match="before an answer"):
        await asyncio.wait_for(pending, SLACK_S)


async def test_a_spawn_that_cannot_start_is_backend_failed(tmp_path: Path) -> None:
    child = Child("the fake", lambda _reason: True)

    async def read(_stdout: asyncio.StreamReader) -> None:
        return None

    with pytest.raises(BackendFailed, match="cannot start /nonexistent"):
        await child.spawn(["/nonexistent"], tmp_path, None, read)
    await child.stop(None, grace_s=0.2)  # nothing to stop
    assert child.pid is None


def test_signal_group_of_a_gone_group_is_a_no_op() -> None:
    signal_group(2**22 + 12345, signal.SIGKILL)  # beyond any pid in use: no such group


async def test_an_exit_is_noticed_before_its_watcher_reports_it(
    owner: Owner, tmp_path: Path
) -> None:
    """A caller about to use the child (``LspProcess.exited``) learns of an exit at once."""
    pid = await owner.spawn(SLEEPER, tmp_path)
    os.kill(pid, signal.SIGKILL)
    assert exits_within(pid, SLACK_S)  # blocking: the event loop has not run since the kill
    assert not owner.child.gone.is_set()
    owner.child.notice_exit()
    assert owner.child.gone.is_set()
    assert owner.losses == ["it exited"]
    owner.child.notice_exit()  # once lost, noticed once
    assert owner.losses == ["it exited"]
