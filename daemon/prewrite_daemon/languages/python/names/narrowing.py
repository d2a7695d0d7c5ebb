"""One answer of ``NameGraph.narrow``: how each changed file seeds the propagation, and what
the fixpoint's result comes to (the rules are in ``prewrite_daemon.languages.python.names.deps``).

Each changed file seeds ``Propagation`` one way: a module added or deleted spreads to the files
that name it (``_moved_module``); otherwise its two versions are diffed symbol by symbol
(``symbol_changes``), a function renamed with its calls compared under its new name
(``renames``), and a changed star import widened to every name its modules export; a stub, a
file that does not parse, or an import cycle opened or closed falls back to every importer. When
a renamed function mentions a changed name, the propagation runs again without renames. The
answer is cut to the changed files' transitive importers, plus the files at a moved module's
path (``siblings``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.imports import module_names, transitive_importers
from prewrite_daemon.languages.python.names.propagation import Propagation
from prewrite_daemon.languages.python.names.renames import Renames, find_renames
from prewrite_daemon.languages.python.names.summary import summarize
from prewrite_daemon.languages.python.names.symbol_changes import ModuleChange, diff_modules

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from prewrite_daemon.languages.python.names.summary import Summary
    from prewrite_daemon.languages.python.names.symbols import Collected

Change = tuple[str, str | None, str | None]  # (rel, old text or None if new, new text or None)


@dataclass(frozen=True)
class Narrowing:
    """The answer of ``NameGraph.narrow``, with what led to it (for logs and the bench)."""

    files: frozenset[str]
    fallbacks: dict[str, str]  # file -> why every importer of it is included
    names: frozenset[tuple[str, str]]  # (file, name) whose type may differ
    attrs: frozenset[str]  # attribute names whose type may differ


class Narrower:
    """One narrowing over the graph's summaries and indexes (``NameGraph``'s, not copied)."""

    def __init__(
        self,
        summaries: Mapping[str, Summary],
        index: Mapping[str, set[str]],
        by_module: Mapping[str, set[str]],
        cycles: bool,
        protocols: Callable[[Iterable[Summary]], frozenset[str] | None],
        dead_stores: bool = False,
    ) -> None:
        """``index``: tag -> files (not l: tags); ``by_module``: dotted name -> files;
        ``cycles``: ``reportImportCycles`` may be on; ``protocols``: ``NameGraph.protocols``."""
        self._summaries = summaries
        self._index = index
        self._by_module = by_module
        self._cycles = cycles
        self._protocols = protocols
        self._dead_stores = dead_stores

    def narrow(self, changes: Sequence[Change], deadline: float | None) -> Narrowing:
        changed = {rel for rel, _, _ in changes}
        for rel, _, _ in changes:
            if not rel.endswith((".py", ".pyi")) or rel.endswith("__builtins__.pyi"):
                return Narrowing(frozenset(set(self._summaries) - changed), {rel: "not a module"},
                                 frozenset(), frozenset())  # fmt: skip
        views = {rel: [summarize(rel, t, self._dead_stores) for t in (old, new) if t is not None]
                 for rel, old, new in changes}  # fmt: skip
        imports = {rel: s.imports for rel, s in self._summaries.items() if rel not in changed}
        for rel, parsed in views.items():
            imports[rel] = frozenset[str]().union(*(s.imports for s, _ in parsed))
        scope = transitive_importers(changed, imports)
        summaries: dict[str, list[Summary]] = {r: [s] for r, s in self._summaries.items()}
        summaries.update({rel: [s for s, _ in parsed] for rel, parsed in views.items()})
        renames = find_renames(
            changes,
            lambda name: self._by_module.get(name, set()),
            {rel: [c for _, c in parsed] for rel, parsed in views.items()},
        )
        prop = self._propagate(changes, views, imports, scope, summaries, renames, deadline)
        if any(prop.touched & {(rel, n) for rel, ns in renames.names.items() for n in ns}):
            # the renamed function mentions a changed name: its type may differ, calls too
            prop = self._propagate(changes, views, imports, scope, summaries, Renames(), deadline)
        for rel in scope:
            if any(s.opaque for s in summaries.get(rel, ())):
                prop.files.add(rel)
                prop.fallback.setdefault(rel, "does not parse")
        reached = prop.files | set(prop.fallback)
        reached |= transitive_importers(set(prop.fallback), imports)
        moved = {rel for rel, old, new in changes if old is None or new is None}
        reached = (reached & scope) | siblings(moved, self._summaries)
        return Narrowing(frozenset(reached - changed), dict(prop.fallback),
                         frozenset(prop.strong), frozenset(prop.attrs))  # fmt: skip

    def _propagate(
        self,
        changes: Sequence[Change],
        views: Mapping[str, list[tuple[Summary, Collected | None]]],
        imports: Mapping[str, frozenset[str]],
        scope: set[str],
        summaries: Mapping[str, list[Summary]],
        renames: Renames,
        deadline: float | None,
    ) -> Propagation:
        changed = {rel for rel, _, _ in changes}
        patched = [s for rel in changed for s in summaries.get(rel, ())]
        prop = Propagation(summaries, self._index, self._by_module, scope, changed,
                           lambda: self._protocols(patched), renames.hidden, deadline,
                           lambda rels: transitive_importers(rels, imports))  # fmt: skip
        for rel, old, new in changes:
            parsed = views[rel]
            if (old is None) != (new is None) and self._moved_module(rel, parsed, imports, prop):
                continue
            change = self._change(rel, old, new, parsed, imports, renames)
            if change.fallback is None and change.star_sources:
                change = self._star_names(change, summaries, changed)
            if change.fallback is None:
                prop.seed(rel, change)
            else:
                prop.fallback[rel] = change.fallback
        prop.run()
        return prop

    def _moved_module(
        self,
        rel: str,
        parsed: list[tuple[Summary, Collected | None]],
        imports: Mapping[str, frozenset[str]],
        prop: Propagation,
    ) -> bool:
        """A module added or deleted: what resolved through its names resolves differently.
        False when no rule narrows it (a stub, a file that does not parse, an import cycle)."""
        (summary, col), *_ = parsed
        if rel.endswith(".pyi") or col is None:
            return False
        if self._closes_cycle(rel, summary.imports, imports):
            return False
        names = module_names(rel)
        naming = transitive_importers({rel}, imports, transitive=False)
        for tag, files in self._index.items():
            if _under(tag, names):
                naming |= files
        for other, versions in prop.changed_views().items():
            if any(_under(t, names) for s in versions for t in s.tags or ()):
                naming.add(other)
        # A module of the same name elsewhere (``m.py`` beside a new ``m/``) is what the name
        # resolved to before, or will after: a star import of it gains or loses its names too.
        exports = summary.exports
        for other in {f for n in names for f in self._by_module.get(n, ())} - {rel}:
            found = self._summaries.get(other)
            if found is None:
                continue
            if exports is None or found.exports is None:
                exports = None
                break
            exports |= found.exports
        prop.module_moved(names, naming - {rel}, exports)
        return True

    def _change(
        self,
        rel: str,
        old: str | None,
        new: str | None,
        parsed: list[tuple[Summary, Collected | None]],
        imports: Mapping[str, frozenset[str]],
        renames: Renames,
    ) -> ModuleChange:
        """What importers may see of one changed file (a fallback when no rule narrows it);
        a renamed function is compared under its new name (``names.renames``)."""
        if old is None or new is None:
            return ModuleChange(fallback="module added" if old is None else "module deleted")
        if rel.endswith(".pyi"):
            return ModuleChange(fallback="a stub changed")
        (before, old_col), (after, new_col) = parsed
        if old_col is None or new_col is None:
            return ModuleChange(fallback="does not parse")
        # every edge, not only the new ones: pyright's cycle report follows edges the graph's do
        # not (``import pkg.m`` imports ``pkg/__init__.py`` for it, ``from .m import x`` not)
        if self._closes_cycle(rel, before.imports | after.imports, imports):
            return ModuleChange(fallback="an import cycle appears or disappears")
        change = diff_modules(renames.old_views.get(rel, old_col), new_col, old, new)
        if change.fallback is None and rel in renames.names:
            change = replace(change, names=change.names | renames.names[rel])
        return change

    def _star_names(
        self, change: ModuleChange, summaries: Mapping[str, list[Summary]], changed: set[str]
    ) -> ModuleChange:
        """The names star imports may bind differently: every name the star-imported modules
        export (a fallback when one is not a workspace module or its exports are unknown)."""
        names = set(change.names)
        for module in change.star_sources:
            files = set(self._by_module.get(module, ()))
            files |= {rel for rel in changed if module in module_names(rel)}
            if not files:
                return replace(change, fallback=f"star-imports {module}, not in the workspace")
            for versions in (summaries.get(f, ()) for f in files):
                for s in versions:
                    if s.exports is None:
                        return replace(change, fallback=f"star-imports {module}: exports unknown")
                    names |= s.exports
        return replace(change, names=frozenset(names))

    def _closes_cycle(
        self, rel: str, edges: Iterable[str], imports: Mapping[str, frozenset[str]]
    ) -> bool:
        """Whether an import of ``rel`` (one of ``edges``) leads to a file importing ``rel``."""
        edges = set(edges)
        if not self._cycles or not edges:
            return False
        upstream = transitive_importers({rel}, imports)  # (a package "importing" itself: no)
        return any(f in upstream for name in edges for f in self._by_module.get(name, ()))


def siblings(rels: Iterable[str], files: Iterable[str]) -> set[str]:
    """The ``files`` at the same module path as one of ``rels`` (``m.py`` beside
    ``m/__init__.py`` or ``m.pyi``), excluding ``rels``."""
    paths = {module_path(rel) for rel in rels}
    return {f for f in files if module_path(f) in paths} - set(rels)


def module_path(rel: str) -> str:
    """``pkg/m`` for ``pkg/m.py``, ``pkg/m.pyi`` and ``pkg/m/__init__.py``: one module name."""
    stem = rel.removesuffix(".pyi").removesuffix(".py")
    return stem.removesuffix("/__init__") if stem.endswith("/__init__") else stem


def _under(tag: str, modules: Iterable[str]) -> bool:
    """Whether ``tag`` (k: or m:) refers to one of ``modules`` or to something in it."""
    kind, _, dotted = tag.partition(":")
    return kind in ("k", "m") and any(dotted == m or dotted.startswith(f"{m}.") for m in modules)
