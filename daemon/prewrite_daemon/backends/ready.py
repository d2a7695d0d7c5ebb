"""Checkers started ahead of need: at most one per language, not yet given a tree.

A fresh pyright spends ~300 ms before it can take a request (node starting, pyright's code
compiled, the LSP handshake) — more than the cold CLI needs on a small project. So the daemon
starts one when it starts, and again (once quiet) after a reply took one, and a workspace's
first check (or its checker's restart) binds that server to its shadow tree
(``LspProcess.bind``: a workspace folder added, its settings asked for that folder) instead of
starting its own. What the check sees is the same server, the same settings and the same tree;
only the wait is gone.

- **Bounded**: a ready checker still starting when asked is waited for up to ``TAKE_WAIT_S``;
  one that fails or takes longer is stopped, and the workspace starts its own, as it would
  have without one. A language whose ready checker failed to start gets no other until the
  daemon restarts (a missing pyright fails every start alike).
- **Owned**: the starting task is held here and cancelled at ``stop``; a held checker is
  stopped with the registry.
- **Warmed when quiet**: a server that has analysed once analyses ~40% faster (its code is
  compiled by then), so once the daemon has had no request for a moment (``quiet``) the ready
  server checks a scratch document of its language (never written to disk) in its default
  workspace. A workspace that takes it while that runs cancels it (``$/cancelRequest``).
- **Nothing of a repository**: the unbound server is told the daemon's own interpreter for its
  default workspace; the repository's settings (trusted or not) reach it only with the tree.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prewrite.errors import PrewriteError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.languages.base import Language

log = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0
TAKE_WAIT_S = 10.0  # a start that has not ended by then is not waited for
WARM_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ReadyChecker:
    """What a language starts ahead of need: the checker, and the scratch document (a name in
    the ready directory, its text) it checks once the daemon is quiet, or None."""

    backend: Backend
    scratch: tuple[str, str] | None = None


@dataclass
class _Slot:
    started: asyncio.Task[Backend]
    warming: asyncio.Task[None] | None = None


class ReadyCheckers:
    """``enabled`` False (in-process tests, ``--no-ready-checker``): ``take`` is always None.
    ``quiet``: waits until the daemon has been idle a moment; None: no warm-up."""

    def __init__(
        self, cwd: Path, enabled: bool, quiet: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self.cwd = cwd
        self.enabled = enabled
        self.quiet = quiet
        self._slots: dict[str, _Slot] = {}
        self._languages: dict[str, Language] = {}  # every language filled once, to refill
        self._failed: set[str] = set()
        self._refilling: asyncio.Task[None] | None = None
        self._orphans: set[asyncio.Task[Backend]] = set()  # taken by a check cancelled meanwhile
        self._stopped = False

    def fill(self, language: Language) -> None:
        """Start ``language``'s ready checker unless one is held or starting."""
        name = language.name
        if not self.enabled or self._stopped or name in self._slots or name in self._failed:
            return
        self._languages[name] = language
        try:
            self.cwd.mkdir(parents=True, exist_ok=True, mode=0o700)
            ready = language.make_ready(self.cwd)
        except (PrewriteError, OSError) as exc:
            self._fail(name, exc)
            return
        if ready is None:
            return
        slot = _Slot(asyncio.create_task(self._start(ready.backend), name=f"ready {name}"))
        if ready.scratch is not None and self.quiet is not None:
            warming = self._warm(slot.started, *ready.scratch)
            slot.warming = asyncio.create_task(warming, name=f"warm ready {name}")
        self._slots[name] = slot

    def refill(self) -> None:
        """Replace what was taken (after a reply), once the daemon is quiet: the next request
        should not share the machine with a server starting for a later one."""
        missing = [lang for name, lang in self._languages.items() if name not in self._slots]
        if not missing or self._refilling is not None or self._stopped:
            return
        if self.quiet is None:
            for language in missing:
                self.fill(language)
            return
        self._refilling = asyncio.create_task(self._refill_when_quiet(), name="ready refill")

    async def _refill_when_quiet(self) -> None:
        assert self.quiet is not None
        try:
            await self.quiet()
            for language in list(self._languages.values()):
                self.fill(language)
        finally:
            self._refilling = None

    async def take(self, language: Language) -> Backend | None:
        """The ready checker of ``language``, started and unbound, or None."""
        slot = self._slots.pop(language.name, None)
        if slot is None:
            return None
        try:
            if slot.warming is not None:
                slot.warming.cancel()  # the server is told to drop the scratch check
                await asyncio.gather(slot.warming, return_exceptions=True)
            backend = await asyncio.wait_for(asyncio.shield(slot.started), TAKE_WAIT_S)
        except asyncio.CancelledError:
            self._orphans.add(slot.started)  # the check went away: ``stop`` ends this one
            raise
        except Exception as exc:  # whatever went wrong, the workspace starts its own
            slot.started.cancel()  # a start past TAKE_WAIT_S stops its child
            self._fail(language.name, exc)
            return None
        if backend.exited:  # it died while it waited: the next one may live
            log.warning("the ready %s checker (pid %s) had exited", language.name, backend.pid)
            await backend.stop()
            return None
        return backend

    async def wait_refilled(self) -> None:
        """Until a refill waiting for the daemon to be quiet has started its checkers."""
        if self._refilling is not None:
            await asyncio.wait([self._refilling])

    async def wait_started(self, language: Language, warmed: bool = False) -> int | None:
        """The pid of ``language``'s ready checker once it has started (and ``warmed``: once
        its warm-up ended), keeping it ready; None: there is none, or it failed (tests)."""
        slot = self._slots.get(language.name)
        if slot is None:
            return None
        await asyncio.wait([slot.started])
        if warmed and slot.warming is not None:
            await asyncio.wait([slot.warming])
        task = slot.started
        return None if task.cancelled() or task.exception() else task.result().pid

    async def stop(self) -> None:
        self._stopped = True
        slots = list(self._slots.values())
        self._slots.clear()
        starts = [slot.started for slot in slots] + list(self._orphans)
        self._orphans.clear()
        tasks: list[asyncio.Task[Any]] = [*starts]
        if self._refilling is not None:
            tasks.append(self._refilling)
        tasks += [slot.warming for slot in slots if slot.warming is not None]
        for task in tasks:
            task.cancel()  # a start under way stops its child (``LspProcess.start``)
        if tasks:
            await asyncio.wait(tasks)
        for task in tasks:
            if not task.cancelled():
                task.exception()  # retrieved: a failed warm-up or refill is nobody's error now
        for started in starts:
            if not started.cancelled() and started.exception() is None:
                await started.result().stop()

    async def _start(self, backend: Backend) -> Backend:
        await backend.start(START_TIMEOUT_S)  # a failed or cancelled start stops the child
        log.info("a ready checker (pid %s) waits for a workspace", backend.pid)
        return backend

    async def _warm(self, started: asyncio.Task[Backend], name: str, text: str) -> None:
        """Check the scratch document once the daemon is quiet; any failure is the next
        check's to find (``take`` sees a dead server), never this task's."""
        try:
            backend = await asyncio.shield(started)
            assert self.quiet is not None
            await self.quiet()
            began, path = time.perf_counter(), str(self.cwd / name)
            backend.open(path, text)
            try:
                await backend.diagnostics(path, WARM_TIMEOUT_S)
            finally:
                if not backend.exited:
                    backend.close(path)
        except (PrewriteError, OSError) as exc:
            log.info("a ready checker's warm-up ended early: %s", exc)
            return
        log.info("the ready checker (pid %s) warmed up in %.0f ms", backend.pid,
                 (time.perf_counter() - began) * 1000)  # fmt: skip

    def _fail(self, name: str, exc: BaseException) -> None:
        self._failed.add(name)
        log.warning("no ready %s checker until the daemon restarts: %s", name, exc)
