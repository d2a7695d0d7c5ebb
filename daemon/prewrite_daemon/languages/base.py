"""What the core asks of a language: its files, its checker, its configuration, its graph.

The workspace, the shadow, the overlay check and the cold path know nothing about Python or
pyright: they ask the workspace's ``Language`` (the registry hands each workspace its own, as
esbonio hands its children a client factory). A second language implements this Protocol; a fake
one tests the core on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from prewrite_daemon.backends.base import Backend


class DependencyGraph(Protocol):
    """Which files may see a change to another file (over-approximated, never under)."""

    def update(self, rel: str, source: str | None) -> None:
        """Record (or, with ``None``, forget) what one file depends on."""
        ...

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        """Files that depend on any of ``rels`` (transitively), ``rels`` excluded."""
        ...


class Language(Protocol):
    name: str  # "python": the wire's and the registry's name for it

    def is_source(self, rel: str) -> bool:
        """A file the checker checks (``.py``/``.pyi`` for Python)."""
        ...

    def is_mirrored(self, name: str) -> bool:
        """Whether the shadow copies a file of this name (sources, markers, configuration)."""
        ...

    def is_checker_config(self, rel: str) -> bool:
        """A root file holding the checker's settings (a patch to it may take the cold path)."""
        ...

    def is_graph_file(self, rel: str) -> bool:
        """A root file whose change can move the dependency graph (fingerprinted)."""
        ...

    def checker_version(self) -> str: ...

    def make_backend(self, root: Path, python: str | None) -> Backend:
        """A warm checker over the tree at ``root``; ``python`` None: run no interpreter."""
        ...

    def cold_argv(self, python: str | None) -> list[str]:
        """The cold CLI (the oracle) reporting JSON for the project in its working directory."""
        ...

    def new_graph(self) -> DependencyGraph: ...

    def interface_changed(self, old: str | None, new: str | None) -> bool:
        """Whether importers can see a difference between two texts of one module."""
        ...

    def normalize_message(self, message: str) -> str:
        """The server's message as the cold CLI prints it."""
        ...
