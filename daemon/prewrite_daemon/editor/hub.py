"""The daemon's attached editors: numbered sessions, counted as activity, closed on stop."""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING

import msgspec

from prewrite.protocol import EditorAttached, WorkspaceStatus
from prewrite_daemon.editor.session import EditorSession
from prewrite_daemon.editor.spare import SparePool

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable

    from prewrite_daemon.session import Registry

log = logging.getLogger(__name__)


class EditorHub:
    def __init__(
        self, registry: Registry, busy: Callable[[int], None], spare_idle_s: float
    ) -> None:
        """``busy(+1/-1)``: an attached editor keeps the daemon from stopping as idle.
        ``spare_idle_s``: how long an unused spare checker lives (0: no spares)."""
        self.registry = registry
        self.spares = SparePool(spare_idle_s)
        self.busy = busy
        self.sessions: dict[int, EditorSession] = {}
        self._numbers = itertools.count(1)

    def attach(self) -> EditorAttached:
        number = next(self._numbers)
        self.sessions[number] = EditorSession(self.registry, self.spares, number)
        return EditorAttached(number)

    async def serve(
        self, reply: EditorAttached, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        session = self.sessions[reply.session]
        log.info("editor %s attached", reply.session)
        self.busy(+1)
        try:
            await session.serve(reader, writer)
        finally:
            self.busy(-1)
            self.sessions.pop(reply.session, None)
            log.info("editor %s detached", reply.session)

    def statuses(self) -> list[WorkspaceStatus]:
        """The registry's workspaces, each with its editors' spare checker."""
        found: list[WorkspaceStatus] = []
        for entry in self.registry.all_entries():
            ws = entry.workspace
            spare = self.spares.spare_of(ws)
            pid = spare.backend.pid if spare is not None and spare.ready.is_set() else None
            served = self.spares.served.get(id(ws), 0)
            pending = self.registry.trusted(ws.root) != ws.trusted  # trusted since, or no more
            found.append(
                msgspec.structs.replace(
                    ws.status(), spare_pid=pid, spare_served=served, trust_pending=pending
                )
            )
        return found

    async def stop(self) -> None:
        """Daemon shutdown: every editor session ends (its buffers leave the checkers)."""
        for session in list(self.sessions.values()):
            session.done.set()
            await session.close()
        await self.spares.stop()
