"""One preparer at a time per cached item, across processes (pytest-xdist workers, a bench run).

Two workers asking for the same uncached workload on a clean clone would both download and
unpack into the same folder: one finds the other's half-built tree (``File exists``), the other
a venv being rebuilt under it. An exclusive ``flock`` on ``<item>.lock`` serialises them; the
second finds the ``.ready`` marker written by the first and reuses the result. The lock file is
left in place (removing it would race a third waiter); the kernel drops the lock if the holder
dies, so an interrupted preparation never blocks the next run.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Generator
    from pathlib import Path


@contextmanager
def cache_lock(item: Path) -> Generator[None]:
    """Hold an exclusive lock on ``item`` (a cache entry that may not exist yet)."""
    item.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(item.with_name(item.name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
