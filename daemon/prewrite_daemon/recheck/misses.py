"""What follows a narrowing miss: recorded, narrowing off for the workspace, the clients told.

A miss is a green the idle re-check found wrong (``recheck/pending.py``): the planner pruned an
importer whose diagnostics the patch did change. The planner is then not to be trusted on that
workspace: narrowing stays off there (for every checker of that root and language, also one started
again after the LRU stopped it) until the daemon restarts. The miss is kept in the verdict record
(``prewrite stats`` lists it: the patch's files and the diagnostics) and logged, and the late
finding rides on the next reply about that root, whichever client asks — once. Once a patch is
written, its error is part of the base and no later check would ever report it.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING

import msgspec

from prewrite.protocol import CheckReply, LateFinding
from prewrite_daemon.recheck.pending import now

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.ladder.record import VerdictRecord
    from prewrite_daemon.recheck.pending import PendingRecheck
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

MAX_UNTOLD = 20  # late findings kept per root until a reply carries them


class NarrowingMisses:
    def __init__(self, record: VerdictRecord) -> None:
        self.record = record
        self._off: dict[tuple[Path, str], str] = {}  # (root, language) -> why narrowing is off
        self._untold: dict[Path, list[LateFinding]] = {}

    def found(self, ws: Workspace, item: PendingRecheck, missed: list[Diagnostic]) -> None:
        """The idle re-check of ``item`` found ``missed`` in files its plan had pruned."""
        miss = LateFinding(str(ws.root), item.files, missed, item.checked_at, now(),
                           ws.language.name)  # fmt: skip
        shown = "; ".join(f"{d.path}:{d.line}: {d.message}" for d in missed[:5])
        log.warning(
            "narrowing miss in %s: the green of %s (%s) missed %d diagnostic(s) in pruned "
            "importers: %s; narrowing is off for this workspace until the daemon restarts",
            ws.root, ", ".join(item.files), item.checked_at, len(missed), shown,
        )  # fmt: skip
        try:
            self.record.add_miss(miss)
        except sqlite3.Error:
            log.exception("could not record the narrowing miss in %s", ws.root)
        note = (
            f"narrowing is off in this workspace since a miss was found at {miss.found_at}: "
            "every importer compared"
        )
        self._off[(ws.root, ws.language.name)] = note
        self.apply(ws)
        untold = self._untold.setdefault(ws.root, [])
        untold.append(miss)
        del untold[:-MAX_UNTOLD]

    def apply(self, ws: Workspace) -> None:
        """Turn narrowing off in ``ws`` if a miss was found for its root and language."""
        note = self._off.get((ws.root, ws.language.name))
        if note is not None:
            ws.narrowing, ws.narrowing_note = False, note

    def tell(self, root: Path, reply: CheckReply) -> CheckReply:
        """``reply`` with the late findings about ``root`` not yet told (then they are told)."""
        untold = self._untold.pop(root, [])
        if not untold:
            return reply
        return msgspec.structs.replace(reply, late_findings=[*reply.late_findings, *untold])
