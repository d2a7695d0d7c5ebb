"""Stopping a registry entry's processes: its checker, warm-up, re-checker, watcher and ruff.

The registry decides which entries go (least recently used beyond ``max_warm``, a root gone, a
trust that no longer holds); this module stops them, and only those nobody is using: an entry a
request holds is left for the next turn (the request gets its answer, or its own error).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite_daemon.entry import Entry

log = logging.getLogger(__name__)


def is_idle(entry: Entry) -> bool:
    """No request holds the entry and nobody waits for its lock."""
    stats = entry.statistics()
    return not (stats.locked or stats.users)


async def stop_entry(entry: Entry) -> None:
    """Stop everything the entry runs; the next check that needs its root starts afresh."""
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
        if not is_idle(entry):
            busy.append(entry)
            continue
        entry.closed = True
        log.info("stopping the checker of %s: %s", entry.workspace.root, why)
        await stop_entry(entry)
    return busy
