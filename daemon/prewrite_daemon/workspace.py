"""One workspace: its shadow, import graph, warm checker and environment fingerprint.

This is the one owner of a workspace's mutable state; everything changes under ``lock``. What
differs between languages (files, checker, configuration, graph) comes from its ``Language``.
Freshness: a check is admitted against a fingerprint and a shadow generation, and its verdict is
only sent if both are unchanged when it is done (``freshness.py``). A changed environment
(config, installed packages, interpreter) restarts the checker: restart is the policy because
pyright applies such changes asynchronously, so no pull could prove it saw them (the policy, its
crash count and where a new checker comes from: ``checker_start.py``). A green whose
plan pruned importers is remembered (``rechecks``) and compared again without narrowing when the
workspace is idle (``recheck/pending.py``, ``recheck/idle.py``). The graph is rebuilt at each
checker start, off the event loop, once a plan needs it or a check has answered
(``check/graph_keeper.py``): a body-only edit's check never waits for it.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from prewrite.protocol import Diagnostic, WorkspaceStatus
from prewrite_daemon.backends.base import Backend, BackendState, FileEvent
from prewrite_daemon.check.activity import Activity
from prewrite_daemon.check.checker_start import Crashes, new_backend, restart_reason
from prewrite_daemon.check.freshness import check_fresh
from prewrite_daemon.check.graph_keeper import GraphKeeper
from prewrite_daemon.check.planning import DEFAULT_PLANNING_BUDGET_S, pruned_importers
from prewrite_daemon.concurrency.preemptible_lock import PreemptibleLock
from prewrite_daemon.editor.layer import EditorLayer
from prewrite_daemon.memory import workspace_rss
from prewrite_daemon.recheck.pending import PendingRecheck, RecheckQueue
from prewrite_daemon.shadow.tree import ShadowTree

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from prewrite.protocol import CheckReply
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.languages.base import CheckerLayout, DependencyGraph, Language
    from prewrite_daemon.languages.fingerprint import Fingerprint

log = logging.getLogger(__name__)


class Workspace:
    """One workspace; ``trusted`` False: nothing inside the root is run (``prewrite.trust``);
    ``may_run`` False: the interpreter is a repository's code, read and never run
    (``interpreter_trust``)."""

    def __init__(
        self,
        root: Path,
        python: str,
        shadow_root: Path,
        trusted: bool,
        language: Language,
        *,
        may_run: bool,
    ) -> None:
        self.language = language
        # Held by every check, editor request and watcher batch; editors go first (fast lane);
        # the idle re-check holds it only while nobody else asks.
        self.lock = PreemptibleLock()
        self.root = root
        self.python = python
        self.trusted = trusted
        # An untrusted repository's interpreter is read, never run (its .pth files are code).
        self.run_python: str | None = python if may_run else None
        self.env = language.environment(root, python, self.run_python, trusted)
        self.shadow = ShadowTree(
            root, shadow_root, language.is_mirrored, language.config_name, self.env.links()
        )
        # Rebuilt at each checker start, off the loop, when first needed (``ready_graph``).
        self._graphs = GraphKeeper(self.language.new_graph(root, None), self._graph_built)
        self.backend: Backend | None = None
        self.backend_env: Fingerprint | None = None
        self.base_cache: dict[str, list[Diagnostic]] = {}
        self.cold_base: dict[str, list[Diagnostic]] | None = None
        self.whole_base: dict[str, list[Diagnostic]] | None = None  # a whole-program checker's
        self.generation = 0
        self.checks = 0
        self.restarts = 0
        self.last_restart: str | None = None
        self.last_restart_reason: str | None = None
        self.resync_needed = False  # set when watching failed: rebuild everything next time
        self.resync_reason = "file watching failed"
        # False: checks plan without narrowing, every transitive importer of a patched file
        # (``checker.plan_check``); a test (or a differential fuzzer) may flip it in-process.
        self.narrowing = True
        self.narrowing_note: str | None = None  # why it is off, for the receipt
        self.planning_budget_s = DEFAULT_PLANNING_BUDGET_S
        self.rechecks = RecheckQueue()  # narrowed greens to compare again, unnarrowed, when idle
        self._unbuilt = RecheckQueue()  # narrowed greens whose pruned files the graph will say
        self.before_answer: Callable[[], None] | None = None  # test hook
        # A checker started ahead of need (``backends.ready``), given by the registry.
        self.take_ready: Callable[[Language], Awaitable[Backend | None]] | None = None
        self.crashes = Crashes()  # the checker's, within a window (``checker_start``)
        self._backend_ran = False  # the current checker finished starting
        self.site_dirs = self.env.site_dirs
        self.library_events = 0  # in-place edits under the package dirs (the watcher counts)
        self.activity = Activity()  # what it is doing now, for status (``check/activity.py``)
        # Whose unsaved buffers the checker holds open now (one editor at a time, under the lock).
        self.editor_layer = EditorLayer(self.shadow.shadow_path)
        self.listeners: set[Callable[[], None]] = set()  # told when the view moves (editors)
        # told of the files each sync moved, as real paths (an editor's spare checker)
        self.file_listeners: set[Callable[[list[FileEvent]], None]] = set()
        self._seen_layout: CheckerLayout | None = None  # taken with the latest fingerprint
        self.layout: CheckerLayout | None = None  # the layout the running checker started with

    def environment(self) -> Fingerprint:
        """The fingerprint now; the layout it covers is kept for the next checker start."""
        layout = self.env.layout()
        self._seen_layout = layout
        return self._fingerprint(layout)

    def peek_environment(self) -> Fingerprint:
        """The fingerprint now, changing nothing (for readers without the lock)."""
        return self._fingerprint(self.env.layout())

    def _fingerprint(self, layout: CheckerLayout) -> Fingerprint:
        outside = [*layout.outside, *self.shadow.outside_targets]
        return self.env.fingerprint(outside, self.library_events)

    def watched_outside(self) -> list[Path]:
        """Directories outside the root whose sources the checker reads (for the watcher)."""
        layout = self.layout or self._seen_layout
        found = [*(layout.outside if layout else ()), *self.shadow.outside_targets]
        return [p for p in dict.fromkeys(found) if p.is_dir()]

    def status(self) -> WorkspaceStatus:
        backend = self.backend
        state = backend.state.value if backend else "not started"
        pid = backend.pid if backend and backend.state is BackendState.RUNNING else None
        activity, activity_s = self.activity.describe()
        return WorkspaceStatus(
            root=str(self.root),
            python=self.python,
            backend_state=state,
            generation=self.generation,
            checks=self.checks,
            server_pid=pid,
            environment=self.backend_env.digest if self.backend_env else "",
            restarts=self.restarts,
            last_restart=self.last_restart,
            last_restart_reason=self.last_restart_reason,
            language=self.language.name,
            checker=self.env.checker,
            busy=self.lock.held_by_normal() and not self.lock.held_in_background,
            trusted=self.trusted,
            activity=activity,
            activity_s=activity_s,
            rss_bytes=workspace_rss(self),
        )

    async def check(self, patch: PreparedPatch, timeout_s: float) -> CheckReply:
        """Type-check a validated patch (``freshness.check_fresh``). Under the workspace lock."""
        return await check_fresh(self, patch, timeout_s)

    async def prepare(self) -> None:
        """Start the checker for the environment now, ahead of the check that will need it
        (the entry's warm-up, while the ladder's cheap rungs run). Under the workspace lock;
        the check still fingerprints, syncs and restarts at its own admission."""
        await self.ensure_backend(self.environment())

    @property
    def graph(self) -> DependencyGraph:
        """The complete dependency graph (waits, blocking, for a rebuild under way)."""
        return self._graphs.current

    @graph.setter
    def graph(self, graph: DependencyGraph) -> None:
        self._graphs.replace(graph)

    def built_graph(self) -> DependencyGraph | None:
        """The dependency graph if it is built now, else None (``ready_graph`` waits)."""
        return self._graphs.built

    def build_graph(self) -> None:
        """Build the graph now if it is pending (a check answered without needing it)."""
        self._graphs.start()

    def recheck_later(self, item: PendingRecheck) -> None:
        """A green planned without the graph: re-checked idle once the graph says what it
        pruned (every importer of its files), unless the tree moves first."""
        self._unbuilt.add(item)

    def _graph_built(self, graph: DependencyGraph) -> None:
        scope = self.layout.scope if self.layout is not None else None
        while (item := self._unbuilt.first()) is not None:
            self._unbuilt.done(item)
            item.pruned = pruned_importers(item.files, graph, scope)
            if item.pruned:
                self.rechecks.add(item)
        if len(self.rechecks) and not self.lock.locked() and self.lock.on_free is not None:
            self.lock.on_free()  # background work to do while the lock is free: the re-checker

    async def ready_graph(self) -> DependencyGraph:
        """The complete dependency graph, once built (a rebuild pending starts now); a rebuild
        that failed fails the check, and the next one starts everything afresh."""
        try:
            return await self._graphs.ready()
        except Exception:
            self.request_resync("the graph could not be built")
            raise

    def request_resync(self, reason: str = "file watching failed") -> None:
        """Watching failed (or the graph): the next check rebuilds shadow, graph and checker."""
        self.resync_needed, self.resync_reason = True, reason

    def sync(self, backend: Backend) -> list[str]:
        """Bring the shadow, the import graph and the checker up to date with the workspace."""
        scan = self.shadow.sync()
        if not scan.changed:
            return []
        for rel in scan.changed:
            if self.language.is_source(rel):
                text = self.shadow.read_text(rel) if rel in self.shadow.files else None
                self._graphs.update(rel, text)
        self.rechecks.tree_moved(scan.changed)
        self._unbuilt.tree_moved(scan.changed)
        backend.files_changed(scan.events)
        if self.file_listeners:
            prefix, real = str(self.shadow.shadow_root), str(self.root)
            moved = [FileEvent(real + e.path.removeprefix(prefix), e.kind) for e in scan.events]
            for listener in list(self.file_listeners):
                listener(moved)
        self._invalidate()
        return scan.changed

    def refresh(self) -> None:
        """Sync the view with the disk; without a checker, rebuild the shadow and graph."""
        if self.backend is not None and not self.backend.exited:
            self.sync(self.backend)
            return
        self._recreate(self.env.layout(), "the checker stopped")

    def _recreate(self, layout: CheckerLayout, why: str) -> None:
        """A fresh shadow and graph for ``layout``: nothing of an earlier overlay survives."""
        self.layout = layout
        self.shadow.config_text = layout.config_text
        self.shadow.create()
        self._rebuild_graph()
        self._invalidate()
        self.rechecks.clear(why)
        self._unbuilt.clear(why)

    def _rebuild_graph(self) -> None:
        """A fresh graph of the shadow's sources (the texts read now), made when needed."""
        read = self.shadow.read_text
        texts = [(rel, read(rel)) for rel in self.shadow.files if self.language.is_source(rel)]
        root, layout, env, language = self.root, self.layout, self.env, self.language
        self._graphs.rebuild(lambda: language.new_graph(root, layout, env), texts)

    def _invalidate(self) -> None:
        self.base_cache.clear()
        self.cold_base = self.whole_base = None
        self.generation += 1
        for listener in list(self.listeners):
            listener()

    def checker_running(self) -> bool:
        backend = self.backend
        return backend is not None and backend.state is BackendState.RUNNING and not backend.exited

    async def ensure_backend(self, env: Fingerprint) -> Backend:
        """The running checker for ``env``: started, or restarted if it died or env moved."""
        backend = self.backend
        healthy = self.checker_running()
        if healthy and self.backend_env == env and not self.resync_needed:
            assert backend is not None
            return backend
        if backend is not None and not self._backend_ran:
            await backend.stop()  # a start cut short (a deadline, a hang-up): no crash, no restart
        elif backend is not None:
            reason = restart_reason(self, backend, healthy, env)  # a crash counted
            await backend.stop()
            self.restarts += 1
            self.last_restart = time.strftime("%Y-%m-%d %H:%M:%S")
            self.last_restart_reason = reason
            log.info("restarting the checker of %s: %s", self.root, reason)
        self.resync_needed = False
        verb = "restarting" if self.restarts else "starting"
        with self.activity.step(f"{verb} {self.env.checker or 'the checker'}"):
            # A fresh checker gets a fresh shadow: nothing of an earlier overlay can survive.
            self._recreate(self._seen_layout or self.env.layout(), "the checker (re)started")
            backend = await new_backend(self)
            self.backend, self.backend_env = backend, env
            self.editor_layer.clear(None)  # the new checker holds no buffers
            self._backend_ran = False
            await backend.start()
        self._backend_ran = True
        return backend

    async def stop(self) -> None:
        self._graphs.stop()
        if self.backend is not None:
            await self.backend.stop()
