"""``run_captured``: a deadline kills the helper's whole process group, grandchildren included."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite.errors import CheckTimeout
from prewrite_daemon.backends.process import run_captured

if TYPE_CHECKING:
    from pathlib import Path


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _wait_gone(pid: int, timeout_s: float) -> bool:
    """Polled: the grandchild is not our child, so it cannot be waited for."""
    deadline = time.monotonic() + timeout_s
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _gone(pid)


async def test_a_grandchild_holding_the_pipes_is_killed_at_the_deadline(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild"
    script = f"sleep 60 & echo $! > {pidfile}; exit 0"  # the child exits, its child keeps stdout
    with pytest.raises(CheckTimeout):
        await run_captured(["sh", "-c", script], tmp_path, None, 1.0, "helper")
    assert await asyncio.to_thread(_wait_gone, int(pidfile.read_text()), 5.0)


async def test_a_finished_helper_answers(tmp_path: Path) -> None:
    assert await run_captured(["sh", "-c", "cat; exit 3"], tmp_path, "hi", 10, "x") == (3, "hi", "")
