"""The warm checkers' memory budget (``memory``, ``retire.Retiring``): sizes read, RSS measured
on real processes, the least recently used idle workspaces stopped past the budget, a checker
holding more than its share restarted at its next check (and not again right away)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import psutil
import pytest

from prewrite_daemon import memory, retire

if TYPE_CHECKING:
    from collections.abc import Iterator

MIB = 2**20


def test_a_budget_is_a_size_or_a_share_of_the_ram() -> None:
    ram = psutil.virtual_memory().total
    assert memory.parse_budget("2G") == 2 * 2**30
    assert memory.parse_budget("1500M") == 1500 * MIB
    assert memory.parse_budget("1.5GiB") == int(1.5 * 2**30)
    assert memory.parse_budget("25%") == int(ram * 0.25)
    assert memory.default_budget() == int(ram * memory.DEFAULT_SHARE)
    for bad in ("lots", "-1G", "2X", ""):
        with pytest.raises(ValueError, match="memory budget"):
            memory.parse_budget(bad)
    with pytest.raises(ValueError, match="keeps nothing warm"):
        memory.parse_budget("100M")


@pytest.fixture
def holder() -> Iterator[subprocess.Popen[bytes]]:
    """A process with a child that holds ~64 MiB resident (a checker and what it runs)."""
    code = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', "
        "'import time; b = bytearray(64 * 2**20); time.sleep(60)'])\n"
        "print('up', flush=True); time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"up"
        yield proc
    finally:
        try:
            for child in psutil.Process(proc.pid).children(recursive=True):
                child.kill()
        except psutil.NoSuchProcess:
            pass  # the test killed it, its child first
        proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()


def test_a_process_trees_rss_counts_its_children(holder: subprocess.Popen[bytes]) -> None:
    own = psutil.Process(holder.pid).memory_info().rss
    for _ in range(100):  # the child may still be allocating
        if memory.tree_rss(holder.pid) > own + 60 * MIB:
            break
        time.sleep(0.05)
    assert memory.tree_rss(holder.pid) > own + 60 * MIB
    assert memory.tree_rss(None) == 0
    for child in psutil.Process(holder.pid).children(recursive=True):
        child.kill()
    holder.kill()
    holder.wait(timeout=10)
    assert memory.tree_rss(holder.pid) == 0  # gone: nothing


def _entry(root: str, rss: int, idle: bool = True) -> Any:
    ws = SimpleNamespace(
        root=Path(root), trusted=True, backend=SimpleNamespace(pid=1), rss=rss,
        resync_needed=False, resync_reason="",
    )  # fmt: skip

    def request_resync(reason: str) -> None:
        ws.resync_needed, ws.resync_reason = True, reason

    ws.request_resync = request_resync
    return SimpleNamespace(workspace=ws, idle=idle, closed=False, root_gone=lambda: False)


@pytest.fixture
def stopped(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    out: list[str] = []

    async def stop_entry(entry: Any) -> None:
        out.append(str(entry.workspace.root))

    monkeypatch.setattr(retire, "stop_entry", stop_entry)

    def is_idle(entry: Any) -> bool:
        return bool(entry.idle)

    def workspace_rss(ws: Any) -> int:
        return int(ws.rss)

    monkeypatch.setattr(retire, "is_idle", is_idle)
    monkeypatch.setattr(retire, "workspace_rss", workspace_rss)
    return out


def _trusted(_root: Path) -> bool:
    return True


async def test_past_the_budget_the_least_recently_used_idle_ones_stop(stopped: list[str]) -> None:
    old, busy, recent, mine = (
        _entry("/old", 600 * MIB), _entry("/busy", 600 * MIB, idle=False),
        _entry("/recent", 600 * MIB), _entry("/mine", 600 * MIB),
    )  # fmt: skip
    entries = {"old": old, "busy": busy, "recent": recent, "mine": mine}  # LRU order
    await retire.Retiring().evict(entries, [mine], _trusted, 10, budget=1500 * MIB)
    assert stopped == ["/old", "/recent"]  # 2400 -> 1200 MiB; the busy one and mine stay
    assert list(entries) == ["busy", "mine"]


async def test_within_the_budget_nothing_stops(stopped: list[str]) -> None:
    entries = {"a": _entry("/a", 300 * MIB), "b": _entry("/b", 300 * MIB)}
    await retire.Retiring().evict(entries, [], _trusted, 10, budget=1024 * MIB)
    assert stopped == []
    assert not any(e.workspace.resync_needed for e in entries.values())


async def test_a_checker_past_its_share_restarts_at_its_next_check_once(
    stopped: list[str],
) -> None:
    big = _entry("/big", 900 * MIB)
    retiring = retire.Retiring()
    await retiring.evict({"big": big}, [big], _trusted, 10, budget=800 * MIB)
    assert stopped == []  # in use: never stopped; restarted at its next check instead
    assert big.workspace.resync_needed
    assert "grew to 900 MiB, past its share of the memory budget (800 MiB)" in (
        big.workspace.resync_reason
    )
    big.workspace.resync_needed = False  # the check restarted it; it grows back at once
    await retiring.evict({"big": big}, [big], _trusted, 10, budget=800 * MIB)
    assert not big.workspace.resync_needed  # not again within RECYCLE_EVERY_S: no thrashing


async def test_a_checkers_size_is_measured_at_most_once_a_second(
    stopped: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measuring reads every process's /proc entry: not before every check of agents checking
    back to back, but again once ``SIZE_EVERY_S`` has passed or the checker is a new process."""
    measured: list[str] = []

    def workspace_rss(ws: Any) -> int:
        measured.append(str(ws.root))
        return int(ws.rss)

    clock = [1000.0]
    monkeypatch.setattr(retire, "workspace_rss", workspace_rss)
    monkeypatch.setattr(retire.time, "monotonic", lambda: clock[0])
    a = _entry("/a", 300 * MIB)
    retiring = retire.Retiring()
    for _ in range(3):
        await retiring.evict({"a": a}, [a], _trusted, 10, budget=1024 * MIB)
        clock[0] += 0.3
    assert measured == ["/a"]
    clock[0] += retire.SIZE_EVERY_S
    await retiring.evict({"a": a}, [a], _trusted, 10, budget=1024 * MIB)
    assert measured == ["/a", "/a"]
    a.workspace.backend = SimpleNamespace(pid=2)  # restarted: its size is the new process's
    await retiring.evict({"a": a}, [a], _trusted, 10, budget=1024 * MIB)
    assert measured == ["/a", "/a", "/a"]
    assert stopped == []
