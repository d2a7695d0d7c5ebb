"""Retiring a registry's entries: which ones go, and stopping their processes (checker, warm-up,
re-checker, watcher, ruff).

An entry goes when its trust no longer holds (the root was trusted, or no longer is: stopped
once idle, so a root never keeps a trusted and an untrusted checker), when its root was deleted
or moved (released at once), or when it is among the least recently used warm checkers beyond
``max_warm`` (memory is finite). Only those nobody is using are stopped: an entry a request holds
is left for the next turn (the request gets its answer, or its own error).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, TypeVar

from prewrite_daemon.memory import recycle, workspace_rss

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite_daemon.entry import Entry
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

RECYCLE_EVERY_S = 600.0  # a workspace's checker is restarted for its size at most this often
# A checker's size is measured at most this often: measuring reads every process's /proc entry
# (psutil finds the children through them), ~3-5 ms on the event loop at 114 processes, and
# came before every check (agents checking back to back: 6-7 times a second).
SIZE_EVERY_S = 1.0

K = TypeVar("K")  # the registry's key of an entry


def is_idle(entry: Entry) -> bool:
    """No request holds the entry and nobody waits for its lock."""
    stats = entry.statistics()
    return not (stats.locked or stats.users)


async def stop_entry(entry: Entry) -> None:
    """Stop everything the entry runs; the next check that needs its root starts afresh."""
    await entry.stop_prewarm()
    await entry.stop_warm_up()
    await entry.rechecker.stop()
    if entry.watcher is not None:
        await entry.watcher.stop()
    await entry.workspace.stop()
    await entry.ruff.stop()  # its warm ruff server


async def stop_idle(entries: list[Entry], why: str) -> list[Entry]:
    """Close and stop the idle ones of ``entries``; returns those still in use."""
    busy: list[Entry] = []
    for entry in entries:
        if entry.closed:
            continue  # another eviction is stopping it
        if not is_idle(entry):
            busy.append(entry)
            continue
        entry.closed = True
        log.info("stopping the checker of %s: %s", entry.workspace.root, why)
        await stop_entry(entry)
    return busy


class Retiring:
    """The entries on their way out of a registry's table (``entries``: key to entry, least
    recently used first), and which of the table's go (``evict``)."""

    def __init__(self) -> None:
        self.releasing: set[Entry] = set()  # gone roots whose checker is being stopped
        self.superseded: list[Entry] = []  # of a trust that no longer holds: stopped when idle
        self._recycled: dict[int, float] = {}  # id(workspace) -> when it was last recycled
        # id(workspace) -> (when measured, its checker's pid, bytes)
        self._sized: dict[int, tuple[float, int | None, int]] = {}

    def leaving(self) -> list[Entry]:
        """The entries out of the table not stopped yet (stopped with the registry)."""
        return [*self.releasing, *self.superseded]

    async def release(self, entries: dict[K, Entry], key: K, entry: Entry) -> None:
        """Forget a workspace whose root is gone and stop its checker (its watcher is ending
        by itself). Requests that still hold it get ``invalid_workspace`` at their turn."""
        ws = entry.workspace
        entry.closed = True
        if entries.get(key) is entry:
            del entries[key]
        self.releasing.add(entry)
        try:
            await entry.stop_warm_up()
            await entry.rechecker.stop()
            async with ws.lock:
                await ws.stop()
                await entry.ruff.stop()
        finally:
            self.releasing.discard(entry)
        log.info("released the workspace %s: its root was deleted or moved", ws.root)

    async def evict(
        self,
        entries: dict[K, Entry],
        keep: list[Entry],
        trusted: Callable[[Path], bool],
        max_warm: int,
        budget: int | None = None,
    ) -> None:
        """Take out of ``entries`` (and stop, when idle) those of a trust that no longer holds,
        of a root gone, the least recently used beyond ``max_warm`` and, while the warm ones
        hold more than ``budget`` bytes, beyond it (``memory``); never one of ``keep``."""
        # A trust that no longer holds (the root was trusted, or no longer is): its checker goes.
        for key, entry in list(entries.items()):
            if entry not in keep and entry.workspace.trusted != trusted(entry.workspace.root):
                self.superseded.append(entries.pop(key))
        # Only those stopped leave the list: another evict may add to it during the awaits.
        stopping = list(self.superseded)
        busy = await stop_idle(stopping, "its trust changed")
        stopped = {id(e) for e in stopping} - {id(e) for e in busy}
        self.superseded = [e for e in self.superseded if id(e) not in stopped]
        # Roots gone that no watcher reported (none runs, or it has not ticked yet).
        for key, entry in [(k, e) for k, e in entries.items() if e not in keep and e.root_gone()]:
            if not is_idle(entry):
                continue  # whoever holds it gets invalid_workspace or its own error
            if entry.watcher is not None:
                await entry.watcher.stop()
            await self.release(entries, key, entry)
        others = [
            (k, e) for k, e in entries.items() if e not in keep and e.workspace.backend is not None
        ]
        excess = len(others) + len(keep) - max_warm
        for key, entry in others:
            if excess <= 0:
                break
            if not is_idle(entry):
                continue
            ws = entry.workspace
            log.info("stopping the idle checker of %s (more than %d warm)", ws.root, max_warm)
            del entries[key]
            await stop_entry(entry)
            excess -= 1
        if budget is not None:
            await self._within_budget(entries, keep, budget)

    async def _within_budget(self, entries: dict[K, Entry], keep: list[Entry], budget: int) -> None:
        """Stop the least recently used idle workspaces while the warm ones hold more than
        ``budget``; a checker holding more than its share is restarted at its next check."""
        warm = [(k, e) for k, e in entries.items() if e.workspace.backend is not None]
        now = time.monotonic()
        sizes = {id(e): self._size(e.workspace, now) for _, e in warm}
        self._sized = {id(e.workspace): self._sized[id(e.workspace)] for _, e in warm}
        total = sum(sizes.values())
        for key, entry in warm:
            if total <= budget:
                break
            if entry in keep or not is_idle(entry):
                continue
            mib = sizes[id(entry)] // 2**20
            log.info(
                "stopping the idle checker of %s (%d MiB; over the budget)",
                entry.workspace.root,
                mib,
            )
            del entries[key]
            await stop_entry(entry)
            total -= sizes.pop(id(entry))
        share = budget // max(1, len(sizes))
        for _, entry in warm:
            ws = entry.workspace
            if (
                id(entry) not in sizes
                or now - self._recycled.get(id(ws), -RECYCLE_EVERY_S) < RECYCLE_EVERY_S
            ):
                continue
            if recycle(ws, sizes[id(entry)], share):
                self._recycled[id(ws)] = now
                log.info("%s: %s", ws.root, ws.resync_reason)

    def _size(self, ws: Workspace, now: float) -> int:
        """``workspace_rss(ws)``, measured again when ``SIZE_EVERY_S`` has passed since the
        last time or its checker is another process."""
        pid = ws.backend.pid if ws.backend is not None else None
        seen = self._sized.get(id(ws))
        if seen is not None and seen[1] == pid and now - seen[0] < SIZE_EVERY_S:
            return seen[2]
        rss = workspace_rss(ws)
        self._sized[id(ws)] = (now, pid, rss)
        return rss
