"""Waiting for a process that is not our child to die, on the event itself (a pidfd)."""

from __future__ import annotations

import os
import select


def exits_within(pid: int, timeout_s: float) -> bool:
    """Whether ``pid`` is dead or dies within ``timeout_s``: a pidfd turns readable on exit (a
    zombie counts: dead, its parent not having reaped it yet). A SIGKILL is delivered
    asynchronously, so "killed" is only observable after the kernel has run the exit."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout_s)[0])
    finally:
        os.close(fd)
