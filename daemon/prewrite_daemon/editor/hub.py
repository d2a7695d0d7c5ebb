"""The daemon's attached editors: numbered sessions, counted as activity, closed on stop."""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING

from prewrite.protocol import EditorAttached
from prewrite_daemon.editor.session import EditorSession

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable

    from prewrite_daemon.session import Registry

log = logging.getLogger(__name__)


class EditorHub:
    def __init__(self, registry: Registry, busy: Callable[[int], None]) -> None:
        """``busy(+1/-1)``: an attached editor keeps the daemon from stopping as idle."""
        self.registry = registry
        self.busy = busy
        self.sessions: dict[int, EditorSession] = {}
        self._numbers = itertools.count(1)

    def attach(self) -> EditorAttached:
        number = next(self._numbers)
        self.sessions[number] = EditorSession(self.registry, number)
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

    async def stop(self) -> None:
        """Daemon shutdown: every editor session ends (its buffers leave the checkers)."""
        for session in list(self.sessions.values()):
            session.done.set()
            await session.close()
