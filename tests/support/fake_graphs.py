"""Planners that misbehave on purpose, wrapped around a workspace's real graph.

``PruningGraph`` is deliberately unsound: ``affected`` prunes every importer, so each narrowed
verdict is blind to importers — what the narrowing-off switch and the idle re-check must catch.
``SpinningGraph`` never narrows in time: ``affected`` burns the CPU until its deadline, then
raises ``PlanningBudgetExceeded`` — what planning off the event loop, with a budget, must
survive. Injected into a warm workspace: ``ws.graph = PruningGraph(ws.graph)`` (a checker
restart builds a fresh graph).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from prewrite_daemon.languages.base import PlanningBudgetExceeded

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from prewrite_daemon.languages.base import DependencyGraph

SPIN_CAP_S = 60.0  # a spinner given no deadline still stops (a test must stay bounded)


class PruningGraph:
    def __init__(self, real: DependencyGraph) -> None:
        self.real = real
        self.narrowed = 0  # calls to ``affected``

    def update(self, rel: str, source: str | None) -> None:
        self.real.update(rel, source)

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        return self.real.importers(rels, transitive)

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        del changes, deadline
        self.narrowed += 1
        return set()

    def files(self) -> set[str]:
        return self.real.files()

    def order_sensitive(self) -> bool:
        return self.real.order_sensitive()


class SpinningGraph(PruningGraph):
    def __init__(self, real: DependencyGraph, started: Callable[[], object]) -> None:
        """``started`` is called (from the planning thread) when the spinning begins."""
        super().__init__(real)
        self.started = started

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        del changes
        self.narrowed += 1
        self.started()
        end = time.monotonic() + SPIN_CAP_S if deadline is None else deadline
        while time.monotonic() < end:
            pass  # CPU-bound, as a planner lost in a large package is
        raise PlanningBudgetExceeded("spun until the deadline")
