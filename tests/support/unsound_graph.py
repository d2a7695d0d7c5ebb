"""A deliberately unsound planner: the workspace's real graph, except that ``affected`` prunes
every importer. Injected into a warm workspace (``ws.graph = PruningGraph(ws.graph)``) it makes
every narrowed verdict blind to importers, which is what the narrowing-off switch and the idle
re-check must catch."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from prewrite_daemon.languages.base import DependencyGraph


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
