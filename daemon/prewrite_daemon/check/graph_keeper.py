"""A workspace's dependency graph, built off the event loop when first needed, never half-built.

A checker (re)start rebuilds the graph from every source file (``DependencyGraph.update``
parses and summarises each: httpx's 60 files take about a second of CPU), yet a check needs it
only to plan an interface change; a body-only edit's verdict needs no graph at all. So a rebuild
is only *pending* until someone needs it (``ready``, ``current``) or the workspace asks for it
once a check has answered (``start``); then the empty graph is made (for Python that starts the
Protocol caches' lookup, a process of its own) and filled in a thread of its own
(``InterruptibleThread``), from a snapshot of the texts taken on the loop, and a task of the
keeper's publishes it when it is done (``on_built`` is told).

**Never a partial graph**: the graph being filled is private to its thread until it is complete.
Changes that reach the workspace meanwhile (a sync) are queued and applied in order, on the loop,
before anyone sees it. ``ready`` is the way in for a check; ``current`` (a workspace's
``graph``) waits for the thread too, blocking the loop, which only a reader outside a check
does (a write's affected tests): a graph late is slow, a graph half-built would be wrong. A newer
rebuild supersedes one under way (which is interrupted and dropped).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed
from prewrite_daemon.concurrency.interruptible import InterruptibleThread

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.languages.base import DependencyGraph

log = logging.getLogger(__name__)

STRAY_GRACE_S = 1.0  # a superseded build is interrupted this often until it has stopped


class _Build:
    """One rebuild: a graph ``make`` gives, filled from ``texts`` in a thread, then the queued
    changes."""

    def __init__(
        self, make: Callable[[], DependencyGraph], texts: list[tuple[str, str | None]]
    ) -> None:
        self.make = make
        self.graph: DependencyGraph | None = None  # made when the build starts
        self.texts = texts
        self.queued: list[tuple[str, str | None]] = []
        self.job: InterruptibleThread[None] | None = None  # once started
        self.done = threading.Event()  # set by the thread once ``graph`` is filled (or failed)
        self.error: BaseException | None = None
        self.settled = asyncio.Event()  # published, or failed (on the loop)
        self.started = 0.0

    def start(self) -> None:
        graph = self.graph = self.make()

        def fill() -> None:
            try:
                for rel, text in self.texts:
                    graph.update(rel, text)
            except BaseException as exc:  # a summariser's bug (or the interruption): kept
                self.error = exc
                raise
            finally:
                self.done.set()

        self.started = time.monotonic()
        self.job = InterruptibleThread(fill, "prewrite graph build")


class GraphKeeper:
    """The graph a workspace plans with (see the module doc); changed on the loop only."""

    def __init__(
        self, graph: DependencyGraph, on_built: Callable[[DependencyGraph], None] | None = None
    ) -> None:
        self._graph = graph
        self._build: _Build | None = None
        self._publisher: asyncio.Task[None] | None = None
        self._stopped = False
        self.on_built = on_built

    @property
    def built(self) -> DependencyGraph | None:
        """The graph if it is complete now (no rebuild pending or under way), else None."""
        return self._graph if self._build is None else None

    def rebuild(
        self, make: Callable[[], DependencyGraph], texts: list[tuple[str, str | None]]
    ) -> None:
        """From now on the graph is an empty one from ``make`` filled with ``texts`` (path,
        text), both when first needed (making one may start work of its own: a Python graph
        asks the Protocol caches). Must be called on the event loop."""
        self._drop()
        self._build = _Build(make, texts)

    def start(self) -> None:
        """Start the pending rebuild, if any, in its thread (a no-op once started)."""
        build = self._build
        if build is None or build.job is not None:
            return
        build.start()
        self._publisher = asyncio.create_task(self._publish_when_done(build), name="graph build")

    def update(self, rel: str, text: str | None) -> None:
        """Record one file's change: now, or after the rebuild pending or under way."""
        if self._build is not None:
            self._build.queued.append((rel, text))
        else:
            self._graph.update(rel, text)

    def replace(self, graph: DependencyGraph) -> None:
        """Use ``graph`` from now on (a test's wrapper around ``current``)."""
        self._drop()
        self._graph = graph

    async def ready(self) -> DependencyGraph:
        """The complete graph, once the rebuild pending or under way (if any) has ended; a
        rebuild that failed raises its error here."""
        while (build := self._build) is not None:
            self.start()
            await build.settled.wait()
            if build is self._build and build.error is not None:
                raise build.error
        if self._stopped:
            raise BackendFailed("the workspace was stopped while its graph was being built")
        return self._graph

    @property
    def current(self) -> DependencyGraph:
        """The complete graph; a rebuild is waited for here, blocking (see the module doc)."""
        build = self._build
        if build is not None:
            self.start()
            log.info("the graph is still being built: waiting for it outside a check")
            build.done.wait()
            self._settle(build)
            if build.error is not None:
                raise build.error
        return self._graph

    def stop(self) -> None:
        """The workspace stops: a rebuild under way is dropped, nobody waits for a graph."""
        self._drop()
        self._stopped = True

    def _drop(self) -> None:
        """Drop the rebuild pending or under way (its thread is interrupted until it stops);
        whoever waits for it wakes up to the keeper's new state."""
        build, self._build = self._build, None
        if self._publisher is not None:
            self._publisher.cancel()
            self._publisher = None
        if build is not None:
            build.settled.set()
            if build.job is not None:
                build.job.keep_interrupting(STRAY_GRACE_S)

    async def _publish_when_done(self, build: _Build) -> None:
        assert build.job is not None
        try:
            await build.job.wait(None)
        except Exception:  # kept in ``build.error``; raised to whoever waits for the graph
            log.exception("building the graph failed")
        if build is self._build:
            self._settle(build)

    def _settle(self, build: _Build) -> None:
        """Publish a finished build (or keep its error): on the loop, once."""
        if build.settled.is_set():
            return
        build.settled.set()
        if build.error is not None:
            return
        graph = build.graph
        assert graph is not None  # started
        for rel, text in build.queued:
            graph.update(rel, text)
        self._build, self._graph = None, graph
        ms = (time.monotonic() - build.started) * 1000
        log.info("graph of %d files built in %.0f ms (%d change(s) meanwhile)",
                 len(build.texts), ms, len(build.queued))  # fmt: skip
        if self.on_built is not None:
            self.on_built(graph)
