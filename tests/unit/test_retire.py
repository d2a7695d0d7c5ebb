"""``retire.Retiring``: an entry superseded (its trust changed) is stopped once idle, and one
superseded while another eviction is stopping entries is not lost (it would never be stopped)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from prewrite_daemon import retire

if TYPE_CHECKING:
    import pytest


def fake_entry(root: str, trusted: bool, idle: bool) -> Any:
    workspace = SimpleNamespace(trusted=trusted, root=Path(root), backend=None)
    return SimpleNamespace(workspace=workspace, idle=idle, closed=False, root_gone=lambda: False)


async def test_an_entry_superseded_during_another_eviction_is_kept_to_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = asyncio.Event()
    stopped: list[str] = []

    async def stop_entry(entry: Any) -> None:
        await release.wait()  # the first eviction is stopping its entry meanwhile
        stopped.append(str(entry.workspace.root))

    def is_idle(entry: Any) -> bool:
        return bool(entry.idle)

    monkeypatch.setattr(retire, "stop_entry", stop_entry)
    monkeypatch.setattr(retire, "is_idle", is_idle)
    retiring = retire.Retiring()
    first = fake_entry("/a", trusted=True, idle=True)
    second = fake_entry("/b", trusted=True, idle=False)  # in use: stopped on a later turn

    def untrusted(_root: Path) -> bool:
        return False  # trust revoked for both roots

    evicting = asyncio.create_task(retiring.evict({"a": first}, [], untrusted, 10))
    await asyncio.sleep(0)  # the first eviction now waits in stop_entry
    await retiring.evict({"b": second}, [], untrusted, 10)
    release.set()
    await evicting
    assert stopped == ["/a"]
    assert retiring.superseded == [second]  # not dropped by the first eviction's result

    second.idle = True
    await retiring.evict({}, [], untrusted, 10)
    assert stopped == ["/a", "/b"]
    assert retiring.superseded == []
