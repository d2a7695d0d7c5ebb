"""What bounds a request: its deadline, the size of its reply, a writable state directory.

A request's ``timeout_s`` bounds everything it waits for (``within`` around awaits, a
``Deadline`` passed down to calls that take their own timeout); a reply never exceeds the
frame limit (``ReplyLimits``: candidate contents by reference beyond a budget, an apply's room
for its disk rungs decided before it writes); a state directory the daemon cannot write is one
clear error naming it, not an internal error per check.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import CheckTimeout, FrameTooLarge, StateDirUnwritable
from prewrite.framing import MAX_FRAME_BYTES

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator
    from pathlib import Path

    from prewrite.protocol import CandidateFile, CheckReply, DiskResult

INLINE_CONTENT_BYTES = 8 * 1024 * 1024  # candidate contents sent inline per reply, at most
DISK_RESERVE_BYTES = 1024 * 1024  # room kept in an apply's reply for the disk rungs' results


def check_state_dir(state_dir: Path) -> None:
    """Refuse to work with a state directory the daemon cannot write; the error names it."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A real write, not os.access: it also sees read-only mounts, quotas, a full inode table.
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=state_dir)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise StateDirUnwritable(unwritable_message(state_dir, exc)) from exc


def unwritable_message(state_dir: Path, exc: OSError) -> str:
    reason = f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc.strerror or exc)
    return (
        f"the daemon's state directory {state_dir} is not writable ({reason}); it holds the "
        "checkers' shadow trees, write journals and the verdict record: make it writable, or "
        "move it (PREWRITE_RUNTIME_DIR, else XDG_CACHE_HOME)"
    )


class Deadline:
    """A budget passed down to calls that take their own timeout: ``left()`` of it, or
    ``timeout`` once it is spent."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        left = self._end - time.monotonic()
        if left <= 0:
            raise CheckTimeout(f"no verdict within {self.seconds:.1f}s")
        return left


@contextlib.asynccontextmanager
async def within(timeout_s: float, what: str) -> AsyncGenerator[None]:
    """Bound everything inside by ``timeout_s``: running out is ``timeout``, never a verdict."""
    deadline = asyncio.timeout(timeout_s)
    try:
        async with deadline:
            yield
    except TimeoutError:
        if not deadline.expired():
            raise
        raise CheckTimeout(f"no verdict within {timeout_s:.1f}s ({what})") from None


@dataclass(frozen=True)
class ReplyLimits:
    """What a reply may hold: ``frame_bytes`` in all, ``inline_bytes`` of candidate contents."""

    frame_bytes: int = MAX_FRAME_BYTES
    inline_bytes: int = INLINE_CONTENT_BYTES

    @property
    def disk_bytes(self) -> int:
        """Room an apply keeps for its disk rungs' results (decided before it writes)."""
        return min(DISK_RESERVE_BYTES, self.frame_bytes // 4)

    def by_reference(self, reply: CheckReply, return_contents: bool) -> CheckReply:
        """Contents inline while they fit the budget (none unless asked for); the rest by
        reference: path and sha256, ``content_omitted``."""
        budget = self.inline_bytes
        files: list[CandidateFile] = []
        for f in reply.files:
            if f.content is None:
                files.append(f)
                continue
            # A str has at most as many characters as its UTF-8 has bytes: no need to encode
            # one that cannot fit anyway.
            size = len(f.content) if len(f.content) > budget else len(f.content.encode())
            if return_contents and size <= budget:
                budget -= size
                files.append(f)
            else:
                files.append(msgspec.structs.replace(f, content=None, content_omitted=True))
        return msgspec.structs.replace(reply, files=files)

    def check_fits(self, message: object, reserve: int, what: str) -> None:
        """``FrameTooLarge`` unless ``message`` plus ``reserve`` bytes fit in one frame."""
        size = len(msgspec.msgpack.encode(message)) + reserve
        if size > self.frame_bytes:
            raise FrameTooLarge(
                f"{what} would be {size} bytes, over the frame limit of {self.frame_bytes}; "
                "nothing was written"
            )

    def fit_disk(self, results: list[DiskResult]) -> list[DiskResult]:
        """The disk rungs' results cut to their reserved room: output tails, then the lists
        (command, failed tests), halved until they fit."""
        fitted = results
        chars = max((len(r.output) for r in results), default=0)
        items = max((max(len(r.command), len(r.failed)) for r in results), default=0)
        while len(msgspec.msgpack.encode(fitted)) > self.disk_bytes and (chars or items):
            chars, items = chars // 2, items // 2
            fitted = [
                msgspec.structs.replace(
                    r,
                    command=r.command[:items],
                    failed=r.failed[:items],
                    output=r.output[-chars:] if chars else "",
                )
                for r in results
            ]
        return fitted
