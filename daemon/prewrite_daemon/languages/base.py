"""What the core asks of a language: its files, its checker, its configuration, its graph.

The workspace, the shadow, the overlay check and the cold path know nothing about Python,
TypeScript, pyright or tsc: they ask the workspace's ``Language`` (the registry hands each
workspace its own, as esbonio hands its children a client factory), and the language hands the
workspace an ``Environment``: where the checker reads from outside the sources, and what must
not move while a verdict is computed. A fake language tests the core on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.backends.base import Backend, RawDiagnostic
    from prewrite_daemon.backends.ready import ReadyChecker
    from prewrite_daemon.languages.fingerprint import Fingerprint


class DependencyGraph(Protocol):
    """Which files may see a change to another file (over-approximated, never under)."""

    def update(self, rel: str, source: str | None) -> None:
        """Record (or, with ``None``, forget) what one file depends on."""
        ...

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        """Files that depend on any of ``rels`` (transitively), ``rels`` excluded."""
        ...

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        """Files other than the changed ones whose diagnostics may differ after ``changes``
        (path, old text or None if new, new text or None if deleted), each of which changes
        what its dependents can see: a superset of the truth, never smaller. ``deadline``
        (``time.monotonic()``): past it, raise ``PlanningBudgetExceeded`` (the caller then
        takes every importer, which is always sound)."""
        ...

    def files(self) -> set[str]:
        """Every file recorded (what "the whole project" means to a change that reaches all)."""
        ...

    def order_sensitive(self) -> bool:
        """Whether a file's diagnostics may depend on which other files the checker had open
        when it was checked (pyright's import cycle report follows open files only): then the
        patched files are checked again once the importers are open (``checker.run_check``)."""
        ...


class PlanningBudgetExceeded(Exception):
    """Narrowing ran past its budget; the plan falls back to every importer (sound)."""


class Scope(Protocol):
    def covers(self, rel: str) -> bool:
        """Whether the project's cold checker reports diagnostics of the file ``rel``."""
        ...


class CheckerLayout(Protocol):
    """The checker's settings and reach as one value, taken with the fingerprint."""

    @property
    def config(self) -> object:
        """The effective settings; equal values check alike (compared, never read here)."""
        ...

    @property
    def scope(self) -> Scope: ...

    @property
    def outside(self) -> tuple[Path, ...]:
        """Directories outside the root the checker reads sources from (watched, stamped)."""
        ...

    @property
    def config_text(self) -> str | None:
        """The shadow's generated configuration file (``Language.config_name``), if any."""
        ...

    def with_config(self, root: Path, read: Callable[[str], str | None]) -> CheckerLayout:
        """The same environment under the configuration ``read`` shows (a patch's candidate)."""
        ...


class Environment(Protocol):
    """One workspace's setup outside its sources, as its language sees it."""

    @property
    def checker(self) -> str:
        """The checker and its version ("pyright 1.1.414"): part of every fingerprint."""
        ...

    @property
    def site_dirs(self) -> list[Path]:
        """Package directories watched recursively (in-place edits count into ``libraries``)."""
        ...

    def layout(self) -> CheckerLayout:
        """The layout as the disk has it now."""
        ...

    def fingerprint(self, outside: list[Path], libraries: int) -> Fingerprint:
        """Everything outside the sources that can change a verdict, now."""
        ...

    def links(self) -> dict[str, Path]:
        """Root entries the shadow links rather than copies (a venv, ``node_modules``)."""
        ...

    def untrusted_note(self) -> str:
        """What an untrusted workspace's check used in place of the workspace's own tools."""
        ...


class Language(Protocol):
    name: str  # "python", "typescript": how replies, logs and the registry name it
    config_name: str  # the root file of the shadow that ``CheckerLayout.config_text`` writes

    def is_source(self, rel: str) -> bool:
        """A file the checker checks (``.py``/``.pyi`` for Python)."""
        ...

    def is_mirrored(self, name: str) -> bool:
        """Whether the shadow copies a file of this name (sources, markers, configuration)."""
        ...

    def is_checker_config(self, rel: str) -> bool:
        """A file holding the checker's settings (a patch to it may take the cold path)."""
        ...

    def applies_to(self, root: Path) -> bool:
        """Whether ``root`` is a workspace of this language at all."""
        ...

    def environment(
        self, root: Path, python: str, run_python: str | None, trusted: bool
    ) -> Environment:
        """``run_python`` None: the interpreter is the workspace's and may not be run;
        ``trusted`` False: nothing of the workspace may be run (``prewrite.trust``)."""
        ...

    def make_backend(
        self,
        shadow_root: Path,
        env: Environment,
        run_python: str | None,
        ready: Backend | None = None,
    ) -> Backend:
        """A warm checker over the shadow tree; ``ready``: one ``make_ready`` made and started,
        bound to the tree now (a language without ready checkers never gets one)."""
        ...

    def make_ready(self, cwd: Path) -> ReadyChecker | None:
        """A checker to start ahead of need, bound to a tree later (``backends.ready``); None:
        this language's checker depends on the workspace (TypeScript's own version)."""
        ...

    async def cold_check(
        self, tree: Path, env: Environment, run_python: str | None, timeout_s: float
    ) -> dict[str, list[RawDiagnostic]]:
        """The cold CLI (the oracle) on ``tree``: diagnostics per root-relative path."""
        ...

    def new_graph(
        self,
        root: Path,
        layout: CheckerLayout | None,
        env: Environment | None = None,
        links: Mapping[str, str] | None = None,
    ) -> DependencyGraph:
        """An empty graph for ``root`` (the workspace fills it); ``layout`` and ``env`` None:
        not known yet, so the graph assumes the least. ``links``: the shadow's links (a
        root-relative name -> where it points), whose sources outside the root count too."""
        ...

    def interface_changed(
        self, rel: str, old: str | None, new: str | None, env: Environment | None = None
    ) -> bool:
        """Whether importers can see a difference between two texts of the module ``rel``;
        ``env``: the checker's environment, where a rule depends on which checker judges
        (None: not known, so the rule assumes the least)."""
        ...

    def reaches_everything(self, rel: str, old: str | None, new: str | None) -> bool:
        """Whether a change to ``rel`` can reach files with no import edge to it."""
        ...

    def needs_cold(self, introduced: list[Diagnostic]) -> bool:
        """Whether a warm verdict with these new diagnostics must be redone by the cold CLI
        (what they say depends on the whole program in a way the warm checker cannot show)."""
        ...

    def normalize(self, raw: RawDiagnostic) -> RawDiagnostic:
        """The server's diagnostic as the cold CLI prints it (message, rule)."""
        ...
