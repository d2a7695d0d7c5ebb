"""Which other files a patch can change the diagnostics of: dependencies per name, not per module.

``NameGraph`` is a drop-in for ``imports.ImportGraph`` (``update``, ``importers``, ``files``)
with ``affected(changes)``: the files other than the changed ones whose pyright diagnostics may
differ. It is a superset of the truth, always; every rule below says why. The result is never
larger than the transitive importers of the changed files (``ImportGraph``'s answer): a file
that imports none of them, at any depth, cannot see them.

Whole importers (every transitive importer of the file; the ``fallback``):
- a module added, deleted or renamed, or a ``.pyi`` stub (module resolution moves);
- a file that does not parse, before or after (its symbols cannot be listed);
- a file-level ``# pyright:`` comment (strict inference settings change every declaration);
- the module's ``__getattr__`` (it answers for every name the module lacks);
- its star imports, or an ``__all__`` pyright cannot read as a list of strings (the names a
  star import binds become unknown);
- an import edge that closes or opens an import cycle (the cycle is reported in every member);
- anything else that is not a ``.py`` source (``py.typed``, configuration): every file;
- an importer that does not parse (pyright still checks it, with error recovery).

Otherwise each module-level symbol and each class member has a region (``symbols``); the
*changed names* are those whose region's fingerprint differs (``symbol_changes``). They spread:
- **strong** ``(file, name)``: the name's type may differ. Every file whose code mentions it
  (``from m import x [as y]``, ``m.x`` through ``import m``/``import a.b as m``/``from pkg import
  m``, relative imports, a star import of ``m``, ``getattr(m, …)`` or ``m`` passed around) may
  see a difference. Every region mentioning it changes too, annotations included (a changed type
  alias changes every signature that names it): an importer's symbol becomes strong, and so on,
  to a fixpoint. This is why pyright's inference is covered: an unannotated return, an
  unannotated variable, a ``self.x`` inferred from a method body, a default that types a
  parameter, a re-export (an import is a binding whose region is its target) all are regions
  that mention the names they are inferred from.
- **member** ``C.m`` of a plain class: every file that spells the attribute ``m`` (``x.m``,
  ``getattr(x, "m")``, ``case C(m=…)``) may see it: without the name no code can reach the
  member. Regions that spell ``m`` change (``def f(c): return c.m()`` is strong). Subclasses
  of ``C`` (found through re-exports, aliases and further subclasses: the **weak** flavour) are
  rechecked: their overrides are checked against ``C.m``, and their parameter types may be
  inferred from it.
- a member is instead a change of its whole class (strong ``C``: values of ``C`` reach code
  only through symbols whose regions mention ``C``, so those are followed) when: it is a dunder
  (used by syntax, not by name: ``C()``, ``==``, ``for``, ``with``); its name is a member of a
  Protocol anywhere (structural matching: the project's own, typeshed's stdlib, and the
  libraries' given to the constructor; when none are given, every member counts); the class is
  a Protocol or an Enum, or has type parameters (inferred variance); the class or a base is
  dataclass-like (any decorator or class keyword but ``final``/``total_ordering``), a
  NamedTuple, TypedDict, ABC, or a class from outside the workspace, and the member is a field
  (an assignment) or was added or removed (synthesized ``__init__``, abstractness); the member
  is or was abstract; it is a nested class; the class is generic and a TypeVar somewhere infers
  its variance. A class header change is a strong change of the class too.
- a strong change reaching a class header makes that class strong (a subclass's members and MRO
  follow its bases); a strong ``__all__`` or ``__getattr__`` reached this way falls back.

What is never narrowed: names are matched, not types, so a local variable that shadows an
import still counts; any chain through a module reaches all its prefixes; a name bound nowhere
in a file with star imports may come from any of them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.imports import module_names
from prewrite_daemon.name_propagation import Propagation
from prewrite_daemon.name_summary import Summary, summarize
from prewrite_daemon.symbol_changes import STDLIB_PROTOCOL_MEMBERS, ModuleChange, diff_modules

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from prewrite_daemon.symbols import Collected

Change = tuple[str, str | None, str | None]  # (rel, old text or None if new, new text or None)


@dataclass(frozen=True)
class Narrowing:
    """The answer of ``NameGraph.narrow``, with what led to it (for logs and the bench)."""

    files: frozenset[str]
    fallbacks: dict[str, str]  # file -> why every importer of it is included
    names: frozenset[tuple[str, str]]  # (file, name) whose type may differ
    attrs: frozenset[str]  # attribute names whose type may differ


class NameGraph:
    """Name-level dependencies between the workspace's Python files (see the module doc)."""

    def __init__(self, library_protocol_members: Iterable[str] | None = None) -> None:
        """``library_protocol_members``: the non-dunder member names of the Protocols of the
        libraries the workspace can import (``symbol_changes.protocol_members_in``). None: not
        known, so every member change is taken as a change of its class."""
        self._summaries: dict[str, Summary] = {}
        self._index: dict[str, set[str]] = defaultdict(set)  # tag -> files (not l: tags)
        self._by_module: dict[str, set[str]] = defaultdict(set)  # dotted name -> files
        self._protocols = (
            None
            if library_protocol_members is None
            else STDLIB_PROTOCOL_MEMBERS | frozenset(library_protocol_members)
        )

    def update(self, rel: str, source: str | None) -> None:
        """Record (or, with ``None``, forget) one file: parsed once, summarised, indexed."""
        old = self._summaries.pop(rel, None)
        if old is not None:
            for tag in old.tags or ():
                files = self._index.get(tag)
                if files is not None:
                    files.discard(rel)
                    if not files:
                        del self._index[tag]
            for name in module_names(rel):
                self._by_module[name].discard(rel)
        if source is None:
            return
        summary, _ = summarize(rel, source)
        self._summaries[rel] = summary
        for tag in summary.tags or ():
            if not tag.startswith("l:"):
                self._index[tag].add(rel)
        for name in module_names(rel):
            self._by_module[name].add(rel)

    def files(self) -> set[str]:
        return set(self._summaries)

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        """Files that import any of ``rels`` (transitively), excluding ``rels`` (as ImportGraph)."""
        imports = {rel: s.imports for rel, s in self._summaries.items()}
        return transitive_importers(set(rels), imports, transitive)

    def affected(self, changes: Sequence[Change]) -> set[str]:
        """Files (other than the changed ones) whose diagnostics may differ after ``changes``
        (rel, old text or None if new, new text or None if deleted): a superset of the truth."""
        return set(self.narrow(changes).files)

    def narrow(self, changes: Sequence[Change]) -> Narrowing:
        changed = {rel for rel, _, _ in changes}
        for rel, _, _ in changes:
            if not rel.endswith((".py", ".pyi")) or rel.endswith("__builtins__.pyi"):
                return Narrowing(frozenset(self.files() - changed), {rel: "not a module"},
                                 frozenset(), frozenset())  # fmt: skip
        views = {rel: [summarize(rel, t) for t in (old, new) if t is not None]
                 for rel, old, new in changes}  # fmt: skip
        imports = {rel: s.imports for rel, s in self._summaries.items() if rel not in changed}
        for rel, parsed in views.items():
            imports[rel] = frozenset[str]().union(*(s.imports for s, _ in parsed))
        scope = transitive_importers(changed, imports)
        summaries: dict[str, list[Summary]] = {r: [s] for r, s in self._summaries.items()}
        summaries.update({rel: [s for s, _ in parsed] for rel, parsed in views.items()})
        prop = Propagation(summaries, self._index, self._by_module, scope, changed,
                           self._protocols)  # fmt: skip
        for rel, old, new in changes:
            change = self._change(rel, old, new, views[rel], imports)
            if change.fallback is None:
                prop.seed(rel, change)
            else:
                prop.fallback[rel] = change.fallback
        prop.run()
        for rel in scope:
            if any(s.opaque for s in summaries.get(rel, ())):
                prop.files.add(rel)
                prop.fallback.setdefault(rel, "does not parse")
        reached = prop.files | set(prop.fallback)
        reached |= transitive_importers(set(prop.fallback), imports)
        return Narrowing(frozenset(reached & scope), dict(prop.fallback),
                         frozenset(prop.strong), frozenset(prop.attrs))  # fmt: skip

    def _change(
        self,
        rel: str,
        old: str | None,
        new: str | None,
        parsed: list[tuple[Summary, Collected | None]],
        imports: Mapping[str, frozenset[str]],
    ) -> ModuleChange:
        """What importers may see of one changed file (a fallback when no rule narrows it)."""
        if old is None or new is None:
            return ModuleChange(fallback="module added" if old is None else "module deleted")
        if rel.endswith(".pyi"):
            return ModuleChange(fallback="a stub changed")
        (before, old_col), (after, new_col) = parsed
        if old_col is None or new_col is None:
            return ModuleChange(fallback="does not parse")
        moved = before.imports ^ after.imports
        if moved:
            upstream = transitive_importers({rel}, imports) | {rel}
            if any(f in upstream for name in moved for f in self._by_module.get(name, ())):
                return ModuleChange(fallback="an import cycle appears or disappears")
        return diff_modules(old_col, new_col, old, new)


def transitive_importers(
    rels: set[str], imports: Mapping[str, frozenset[str]], transitive: bool = True
) -> set[str]:
    """Files whose imports name any of ``rels`` (by dotted suffix), at any depth; ``rels``
    excluded. The same over-approximation as ``ImportGraph.importers``."""
    frontier = set(rels)
    found: set[str] = set()
    while frontier:
        names: set[str] = set()
        for rel in frontier:
            names |= module_names(rel)
        frontier = {
            f
            for f, imported in imports.items()
            if f not in found and f not in rels and not imported.isdisjoint(names)
        }
        found |= frontier
        if not transitive:
            break
    return found
