"""The warm ``ruff server``s of one workspace's ruff, or ``None``: "ask the CLI".

Started on first use, kept warm, stopped with the workspace. Two servers at most, because the
CLI runs two kinds of command: one with no settings of ours, for formatting and for lint under a
project configuration; one with ``lint.select`` = the breakage rules as its editor settings, for
lint where no configuration exists (the CLI adds ``--select`` there; an editor ``select`` would
be combined under a configuration that does not set its own, so that server never judges a
configured file).

Every answer is the CLI's or nothing: a server that cannot start, is too old, crashes or times
out gives ``None`` and the caller runs the CLI, whose answer is the reference. A server is
restarted when the configurations it read no longer hold (``ruff_trust``) and given up after
``MAX_FAILURES`` crashes or timeouts.
"""

from __future__ import annotations

import asyncio
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.process import run_captured
from prewrite_daemon.ladder.ruff_server import RuffServer
from prewrite_daemon.ladder.ruff_trust import ConfigTrust, start_stamp
from prewrite_daemon.languages.python.syntax.parse_child import syntax_error

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.ladder.ruff_server import Finding

log = logging.getLogger(__name__)

MIN_VERSION = (0, 9, 0)  # older servers resolve settings differently: the CLI judges there
MAX_FAILURES = 3
CALL_S = 5.0  # at most this, and half the caller's budget, for one call: the CLI gets the rest
START_S = 10.0
FAILED_STOP_S = 0.2  # a server that failed gets little grace: the caller's CLI run is waiting


@dataclass(frozen=True)
class WarmStatistics:
    served: int  # answers the server gave
    fallbacks: int  # answers left to the CLI
    starts: int
    failures: int
    disabled: str  # why the server is no longer used, or ""


@dataclass
class _Slot:
    server: RuffServer
    trust: ConfigTrust


class WarmRuff:
    """The warm servers for ``exe`` in ``root``; ``None`` from any call means "use the CLI"."""

    def __init__(self, exe: str, root: Path, breakage_rules: str) -> None:
        self.exe = exe
        self.root = root
        self._breakage = breakage_rules.split(",")
        self._slots: dict[bool, _Slot] = {}  # by "bare": the server for unconfigured files
        self._lock = asyncio.Lock()
        self._checked_version = False
        self._disabled = ""
        self._served = self._fallbacks = self._starts = self._failures = 0

    def statistics(self) -> WarmStatistics:
        return WarmStatistics(
            self._served, self._fallbacks, self._starts, self._failures, self._disabled
        )

    async def format(self, path: Path, text: str, timeout_s: float) -> str | None:
        """``text`` as ``ruff format`` formats ``path``, or None: ask the CLI."""
        server = await self._server(path, False, timeout_s)
        if server is None:
            return None
        try:
            out = await server.format(str(path), text, _call_s(timeout_s))
        except (BackendFailed, CheckTimeout) as exc:
            await self._failed(server, exc)
            return None
        if out == text and not await _parses_off_loop(text):
            # The server answers "no edits" for a text it cannot parse, as for one already
            # formatted; the CLI tells the two apart (and words the error).
            self._fallbacks += 1
            return None
        self._served += 1
        return out

    async def lint(
        self, path: Path, text: str, timeout_s: float, configured: bool
    ) -> list[Finding] | None:
        """What ``ruff check`` finds in ``text`` at ``path``, or None: ask the CLI."""
        server = await self._server(path, not configured, timeout_s)
        if server is None:
            return None
        try:
            found = await server.lint(str(path), text, _call_s(timeout_s))
        except (BackendFailed, CheckTimeout) as exc:
            await self._failed(server, exc)
            return None
        self._served += 1
        return found

    async def stop(self) -> None:
        async with self._lock:
            slots, self._slots = list(self._slots.values()), {}
        for slot in slots:
            await slot.server.stop()

    async def _server(self, path: Path, bare: bool, timeout_s: float) -> RuffServer | None:
        server = await self._trusted(path, bare, timeout_s)
        if server is None:
            self._fallbacks += 1
        return server

    async def _trusted(self, path: Path, bare: bool, timeout_s: float) -> RuffServer | None:
        if self._disabled:
            return None
        async with self._lock:
            slot = self._slots.get(bare)
            if slot is not None and (slot.server.exited or not slot.trust.holds(path)):
                del self._slots[bare]  # read the configurations afresh: a new server
                await slot.server.stop()
                slot = None
            if slot is None:
                slot = await self._start(bare, timeout_s)
            if slot is None or not slot.trust.holds(path):
                return None  # touched as the server started: the CLI this time
            if bare and slot.trust.has_user_config():
                return None  # the CLI's --select overrides it; the editor's select would not
            return slot.server

    async def _start(self, bare: bool, timeout_s: float) -> _Slot | None:
        if not self._checked_version:
            self._checked_version = True
            if not await self._version_ok(timeout_s):
                return None
        started = start_stamp()
        server = RuffServer(self.exe, self.root, self._breakage if bare else None)
        self._starts += 1
        try:
            await server.start(min(START_S, timeout_s / 2))
        except (BackendFailed, CheckTimeout) as exc:
            await self._failed(server, exc, starting=True)
            return None
        slot = self._slots[bare] = _Slot(server, ConfigTrust(self.root, self.exe, started))
        log.info("ruff server pid %s warm for %s", server.pid, self.root)
        return slot

    async def _version_ok(self, timeout_s: float) -> bool:
        try:
            code, out, _err = await run_captured(
                [self.exe, "--version"], self.root, None, min(5.0, timeout_s / 2), "ruff"
            )
        except (BackendFailed, CheckTimeout):
            code, out = 1, ""
        found = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
        version = tuple(int(n) for n in found.groups()) if found else ()
        if code != 0 or version < MIN_VERSION:
            self._disabled = f"ruff {out.strip() or '(unknown version)'} has no usable server"
            return False
        return True

    async def _failed(self, server: RuffServer, exc: Exception, starting: bool = False) -> None:
        """A crash or timeout of the current server counts; a call on one retired does not."""
        self._fallbacks += 1
        current = [bare for bare, slot in self._slots.items() if slot.server is server]
        if not current and not starting:
            return  # stopped by us (its configurations changed) while the call was under way
        for bare in current:
            del self._slots[bare]
        await server.stop(FAILED_STOP_S)
        self._failures += 1
        log.warning("ruff server failed (%s): the CLI answers", exc)
        if self._failures >= MAX_FAILURES:
            self._disabled = f"ruff server failed {self._failures} times"
            log.warning("%s: no longer used for %s", self._disabled, self.root)


def _call_s(timeout_s: float) -> float:
    return min(CALL_S, timeout_s / 2)


# One parse at a time, off the loop (issue 20, item 8): a 1 MiB file takes ~0.5 s holding the
# GIL, and a patch's files come back from the server together; on the loop, or in parallel
# threads, their parses add up to seconds no other client is served in.
_PARSER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ruff-parse-check")


async def _parses_off_loop(text: str) -> bool:
    return await asyncio.get_running_loop().run_in_executor(_PARSER, _parses, text)


def _parses(text: str) -> bool:
    return syntax_error(text) is None  # a large text in a child (parse_child)
