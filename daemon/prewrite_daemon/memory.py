"""The warm checkers' memory budget: what each workspace's processes hold, and what goes when
they hold too much.

Warm checkers are the daemon's cost: pyright holds 0.5 to 1.4 GB on a real repository and grows
over hours, and a user may have several workspaces warm plus an editor's spare. The budget
(``--memory-budget``; default ``DEFAULT_SHARE`` of the machine's RAM) bounds their sum, measured
as the resident set of each checker's process tree (the server and the children it runs): past
it, the least recently used idle workspaces stop (``retire.Retiring.evict``), and a checker that
alone holds more than its share (the budget over the workspaces warm) is restarted at its next
check (``recycle``). Measuring is a few ``/proc`` reads per process; a process gone meanwhile
counts nothing.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite_daemon.workspace import Workspace

DEFAULT_SHARE = 0.25  # of the machine's RAM, for every warm checker together
MIN_BUDGET = 256 * 2**20  # below this no pyright could stay warm: a budget is refused
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def ram_bytes() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def default_budget() -> int:
    return int(ram_bytes() * DEFAULT_SHARE)


def parse_budget(text: str) -> int:
    """``"25%"`` (of the RAM), ``"2G"``, ``"1500M"`` or bytes; ``ValueError`` if unreadable or
    under ``MIN_BUDGET``."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(%|[KMGT]?)I?B?\s*", text.upper())
    if found is None:
        raise ValueError(f"a memory budget is a size (2G, 1500M) or a share (25%), not {text!r}")
    number, unit = float(found.group(1)), found.group(2)
    budget = int(ram_bytes() * number / 100) if unit == "%" else int(number * _UNITS[unit])
    if budget < MIN_BUDGET:
        raise ValueError(f"a memory budget under {MIN_BUDGET // 2**20} MiB keeps nothing warm")
    return budget


def tree_rss(pid: int | None) -> int:
    """Bytes resident in ``pid`` and every process below it (0 if it is gone)."""
    # Here, not at the top: the launcher reads the budget (above) before it spawns the ready
    # pyright, and loads none of the daemon's dependencies until then.
    import psutil

    if pid is None:
        return 0
    try:
        top = psutil.Process(pid)
        processes = [top, *top.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except psutil.Error:
            continue  # exited meanwhile
    return total


def workspace_rss(ws: Workspace) -> int:
    """What the workspace's warm checker holds now (0 when none runs)."""
    backend = ws.backend
    return tree_rss(backend.pid) if backend is not None else 0


def recycle(ws: Workspace, rss: int, share: int) -> bool:
    """Restart ``ws``'s checker at its next check if it holds more than ``share``."""
    if rss <= share or ws.resync_needed:
        return False
    ws.request_resync(
        f"its checker grew to {rss // 2**20} MiB, past its share of the memory budget "
        f"({share // 2**20} MiB)"
    )
    return True
