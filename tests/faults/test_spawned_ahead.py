"""A child spawned ahead (``backends.spawned_ahead``) and the ``Child`` that adopts it.

The children are a few lines of Python that echo stdin, so adoption is seen working end to end:
the same pid, the pipes driven from the event loop, the exit seen through the pidfd, the staged
stop. Anything that does not match exactly is not adopted, and nothing spawned ahead outlives
``discard``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.backends import spawned_ahead
from prewrite_daemon.backends.child import Child
from tests.faults.harness import is_gone
from tests.support.exits import exits_within

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

SLACK_S = 15.0
ECHO = (
    "import os, sys\nprint(os.getpid(), flush=True)\n"
    "for line in sys.stdin:\n    print('echo ' + line.strip(), flush=True)\n"
)
ARGV = [sys.executable, "-c", ECHO]


@pytest.fixture(autouse=True)
def nothing_left() -> Iterator[None]:
    yield
    spawned_ahead.discard()


class Reader:
    def __init__(self) -> None:
        self.lines: asyncio.Queue[str] = asyncio.Queue()

    async def read(self, stdout: asyncio.StreamReader) -> None:
        while line := await stdout.readline():
            await self.lines.put(line.decode().strip())

    async def next(self) -> str:
        return await asyncio.wait_for(self.lines.get(), SLACK_S)


def env() -> dict[str, str]:
    return dict(os.environ, PREWRITE_TEST_AHEAD="1")


async def test_the_same_command_adopts_the_process_and_drives_it(tmp_path: Path) -> None:
    ahead = spawned_ahead.spawn_ahead(ARGV, tmp_path / "cwd", env())
    assert ahead is not None
    child, reader = Child("the echo", lambda _reason: True), Reader()
    stdin = await child.spawn(ARGV, tmp_path / "cwd", env(), reader.read)
    try:
        assert child.pid == ahead
        assert await reader.next() == str(ahead)
        stdin.write(b"hello\n")
        await stdin.drain()
        assert await reader.next() == "echo hello"
        os.kill(ahead, signal.SIGKILL)  # its exit is seen: pending calls wake
        with pytest.raises(BackendFailed, match=r"the echo failed \(it exited with code -9\)"):
            await child.wait(asyncio.Event().wait(), SLACK_S, "an answer")
        assert is_gone(ahead)
    finally:
        await child.stop(None, grace_s=0.2)


async def test_an_adopted_child_is_stopped_in_stages(tmp_path: Path) -> None:
    ahead = spawned_ahead.spawn_ahead(ARGV, tmp_path, env())
    assert ahead is not None
    lost: list[str] = []

    def on_lost(reason: str) -> bool:
        lost.append(reason)
        return False  # stopping: expected

    child = Child("the echo", on_lost)
    await child.spawn(ARGV, tmp_path, env(), Reader().read)
    assert child.pid == ahead
    await child.stop(None, grace_s=0.5)
    assert is_gone(ahead)
    assert lost == ["it was stopped"] or lost[0].startswith("it exited with code")


@pytest.mark.parametrize("differs", ["environment", "directory"])
async def test_the_same_command_elsewhere_discards_it_and_starts_its_own(
    tmp_path: Path, differs: str
) -> None:
    ahead = spawned_ahead.spawn_ahead(ARGV, tmp_path, env())
    assert ahead is not None
    child, reader = Child("the echo", lambda _reason: True), Reader()
    where, how = (tmp_path, None) if differs == "environment" else (tmp_path / "other", env())
    where.mkdir(exist_ok=True)
    await child.spawn(ARGV, where, how, reader.read)
    try:
        assert child.pid != ahead
        assert await reader.next() == str(child.pid)
        assert exits_within(ahead, SLACK_S)  # killed, not left waiting
    finally:
        await child.stop(None, grace_s=0.2)


async def test_another_command_leaves_it_waiting_until_discarded(tmp_path: Path) -> None:
    ahead = spawned_ahead.spawn_ahead(ARGV, tmp_path, env())
    assert ahead is not None
    child = Child("the other", lambda _reason: True)
    other = [sys.executable, "-c", "import sys; sys.stdin.read()"]
    await child.spawn(other, tmp_path, env(), Reader().read)
    try:
        assert child.pid != ahead
        assert not is_gone(ahead)
    finally:
        await child.stop(None, grace_s=0.2)
    spawned_ahead.discard()
    assert is_gone(ahead)


async def test_one_that_exited_before_adoption_is_replaced(tmp_path: Path) -> None:
    argv = [sys.executable, "-c", "pass"]
    ahead = spawned_ahead.spawn_ahead(argv, tmp_path, env())
    assert ahead is not None
    assert exits_within(ahead, SLACK_S)
    child = Child("the short one", lambda _reason: True)
    await child.spawn(argv, tmp_path, env(), Reader().read)
    try:
        assert child.pid != ahead
    finally:
        await child.stop(None, grace_s=0.2)


def test_a_command_that_cannot_start_spawns_nothing(tmp_path: Path) -> None:
    assert spawned_ahead.spawn_ahead(["/nonexistent"], tmp_path, env()) is None


def test_the_launcher_loads_no_daemon_dependency() -> None:
    """The ready pyright is spawned before pygls and lsprotocol load (that is its point)."""
    import subprocess

    probe = (
        "import sys, prewrite_daemon.launch\n"
        "print(sorted(m for m in ('pygls', 'lsprotocol', 'watchfiles', 'psutil') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "[]"
