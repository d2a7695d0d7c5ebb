"""Which other files a patch can change the diagnostics of: dependencies per name, not per module.

``NameGraph`` is a drop-in for ``imports.ImportGraph`` (``update``, ``importers``, ``files``)
with ``affected(changes)``: the files other than the changed ones whose pyright diagnostics may
differ. It is a superset of the truth, always; every rule below says why. The result is never
larger than the transitive importers of the changed files (``ImportGraph``'s answer): a file
that imports none of them, at any depth, cannot see them.

Whole importers (every transitive importer of the file; the ``fallback``):
- a ``.pyi`` stub changed, added or deleted (it shadows the module's source for importers; a
  ``<name>-stubs`` folder is the module ``<name>``);
- a file that does not parse, before or after, in the newest grammar (``newer_syntax``);
- a statement kind the summary does not model (a newer Python's: never silently nothing);
- a file-level ``# pyright:`` comment (strict inference settings change every declaration), or
  a ``__future__`` import (``annotations`` changes how every annotation resolves);
- the module's ``__getattr__`` (it answers for every name the module lacks);
- a star import of a module outside the workspace added or removed, or an ``__all__`` pyright
  cannot read as a list of strings (the names a star import binds become unknown); otherwise a
  changed star import changes every name its modules export;
- an import edge that closes or opens an import cycle, when ``reportImportCycles`` may be on
  (the cycle is reported in every member);
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
  a Protocol or an Enum, has type parameters (inferred variance), or its kind is **unknown**; the
  class or a base is dataclass-like (a decorator or class keyword not resolved to one that
  synthesizes nothing), a NamedTuple or a TypedDict, and the member is a field (an assignment)
  or was added or removed (synthesized ``__init__``, abstractness); a base is ``abc.ABC`` or
  another stdlib class and the member was added or removed (abstractness: no stdlib class
  synthesizes fields); it implements an abstract member of a typing ABC
  (``MutableSequence.insert``) and was added or removed; the member is or was abstract (by its
  spelling, or, in a class that is not plain, by a decorator not resolved to a plain one); it
  is a nested class; the class is generic and a TypeVar somewhere infers its variance. A class
  header change is a strong change of the class too.
- **class kinds by resolution, or unknown** (default-keep): a base is followed through the
  file's imports, aliases and star imports to a workspace class (its kind, recursively) or to a
  name outside the workspace: builtins and the stdlib's ``typing``/``abc``/``enum``/``collections
  .abc`` forms are known by table, another stdlib class is ``abc``, anything else (a library's
  class, a variable, a call, a star import that binds nothing the graph can see) is unknown.
  Decorators are judged by what they resolve to, never by their last name (a local ``final`` may
  be a ``dataclass_transform``).
- a subclass that is not plain (an Enum taking ``_generate_next_value_`` from a plain mixin, a
  dataclass, an ABC that a mixin's method made concrete) becomes strong when a base's member
  changes: what it inherits shows wherever it goes. A class defined in a function or nested in
  another class is a subclass the rules do not model: a file whose such class names a changed
  class is rechecked and the region holding it is strong.
- a strong change reaching a class header makes that class strong (a subclass's members and MRO
  follow its bases); a strong ``__all__`` or ``__getattr__`` reached this way falls back.

A function renamed together with every call of it in the patch (``name_renames``, whose
docstring has the conditions) is compared under its new name: the regions that only call it
are unchanged (a call's result does not depend on the callee's name), and the changed names are
the old and the new name in every patched file that binds them.

A module added, deleted (or renamed: both) changes what resolves through its names: every file
that imports one of them or spells a chain through one is affected, its regions that mention
them change (strong), and a star import of it gains or loses the names it exports.

What is never narrowed: names are matched, not types, so a local variable that shadows an
import still counts; any chain through a module reaches all its prefixes; a name bound nowhere
in a file with star imports may come from any of them.

Where this departs from issue 12's starting point, and why: propagation follows annotations too,
not only inferred types (a changed alias or class changes every signature naming it); a class
header change, a dunder, a Protocol member name or a special class's member is a strong change
of the class rather than a fallback (the flow argument above covers every holder of a value);
an added or deleted module is narrowed to what names it; Protocol member names include private
ones (typeshed's asyncio has ``_state``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from prewrite_daemon.languages.python.names.imports import module_names, transitive_importers
from prewrite_daemon.languages.python.names.propagation import Propagation
from prewrite_daemon.languages.python.names.renames import Renames, find_renames
from prewrite_daemon.languages.python.names.summary import Summary, summarize
from prewrite_daemon.languages.python.names.symbol_changes import (
    STDLIB_PROTOCOL_MEMBERS,
    ModuleChange,
    diff_modules,
)
from prewrite_daemon.languages.python.protocols.names import (
    SEED,
    LibraryProtocolSet,
    ProtocolFacts,
    closure,
    merge,
    protocol_members,
    reachable_protocols,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from prewrite_daemon.languages.python.names.symbols import Collected

Change = tuple[str, str | None, str | None]  # (rel, old text or None if new, new text or None)


@runtime_checkable
class ProtocolSource(Protocol):
    """Where the libraries' Protocols come from (``library_protocols.LibraryProtocols``)."""

    def get(self) -> LibraryProtocolSet | None:
        """The answer for the environment, or None while it is not known (never blocks)."""
        ...


@dataclass(frozen=True)
class Narrowing:
    """The answer of ``NameGraph.narrow``, with what led to it (for logs and the bench)."""

    files: frozenset[str]
    fallbacks: dict[str, str]  # file -> why every importer of it is included
    names: frozenset[tuple[str, str]]  # (file, name) whose type may differ
    attrs: frozenset[str]  # attribute names whose type may differ


class NameGraph:
    """Name-level dependencies between the workspace's Python files (see the module doc)."""

    def __init__(
        self,
        library: ProtocolSource | Iterable[str] | None = None,
        report_import_cycles: bool = True,
    ) -> None:
        """``library``: the Protocols of what the workspace can import outside itself
        (``library_protocols.LibraryProtocols``, asked at each plan; a fixed set of member
        names in tests). None, or an answer not ready yet: every member change is taken as a
        change of its class. ``report_import_cycles``: the checker's ``reportImportCycles`` is
        on (or not known): an import edge that closes or opens a cycle then reaches every
        importer."""
        self._cycles = report_import_cycles
        self._summaries: dict[str, Summary] = {}
        self._index: dict[str, set[str]] = defaultdict(set)  # tag -> files (not l: tags)
        self._by_module: dict[str, set[str]] = defaultdict(set)  # dotted name -> files
        if library is None or isinstance(library, ProtocolSource):
            self._library = library
        else:
            self._library = _Fixed(LibraryProtocolSet(frozenset(library), frozenset()))
        self._facts: ProtocolFacts | None = None  # the workspace's, merged (until an update)
        self._imported: frozenset[str] = frozenset()  # top-level modules the workspace imports

    def protocols(self, extra: Iterable[Summary] = ()) -> frozenset[str] | None:
        """Every Protocol member name the checker can see: typeshed's stdlib, the libraries',
        each bundled stub that a file imports (``reachable_protocols``), and the workspace's
        (``extra``: the patched versions' summaries), whatever name or depth they are declared
        at; None when the libraries' are not known yet."""
        found = self._library.get() if self._library is not None else None
        if found is None:
            return None
        if self._facts is None:
            self._facts = merge(s.protocol_facts for s in self._summaries.values())
            self._imported = frozenset(
                i.partition(".")[0] for s in self._summaries.values() for i in s.imports
            )
        extra = list(extra)
        imported = self._imported | {i.partition(".")[0] for s in extra for i in s.imports}
        library = reachable_protocols(found, imported)
        facts = [self._facts, *(s.protocol_facts for s in extra)]
        aliases = closure(facts, SEED | library.aliases)
        return STDLIB_PROTOCOL_MEMBERS | library.members | protocol_members(facts, aliases)

    def update(self, rel: str, source: str | None) -> None:
        """Record (or, with ``None``, forget) one file: parsed once, summarised, indexed."""
        old = self._summaries.pop(rel, None)
        self._facts = None
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
        if "reportImportCycles" in source:
            self._cycles = True  # a file's own ``# pyright:`` comment may turn the rule on
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
        """Files that import any of ``rels`` (transitively), excluding ``rels`` (as ImportGraph),
        and the files at the same module path (``m.py`` beside ``m/__init__.py`` or ``m.pyi``:
        which one the name resolves to, and so their own diagnostics, may change)."""
        rels = set(rels)
        imports = {rel: s.imports for rel, s in self._summaries.items()}
        return transitive_importers(rels, imports, transitive) | self._siblings(rels)

    def _siblings(self, rels: Iterable[str]) -> set[str]:
        paths = {module_path(rel) for rel in rels}
        return {f for f in self._summaries if module_path(f) in paths} - set(rels)

    def affected(self, changes: Sequence[Change], deadline: float | None = None) -> set[str]:
        """Files (other than the changed ones) whose diagnostics may differ after ``changes``
        (rel, old text or None if new, new text or None if deleted): a superset of the truth.
        Past ``deadline`` (``time.monotonic()``), ``PlanningBudgetExceeded``."""
        return set(self.narrow(changes, deadline).files)

    def narrow(self, changes: Sequence[Change], deadline: float | None = None) -> Narrowing:
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
        reached = (reached & scope) | self._siblings(moved)
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
                           lambda: self.protocols(patched), renames.hidden, deadline)  # fmt: skip
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
        a renamed function is compared under its new name (``name_renames``)."""
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


class _Fixed:
    """A library answer known in advance (tests, and callers that computed it themselves)."""

    def __init__(self, found: LibraryProtocolSet) -> None:
        self._found = found

    def get(self) -> LibraryProtocolSet | None:
        return self._found


def module_path(rel: str) -> str:
    """``pkg/m`` for ``pkg/m.py``, ``pkg/m.pyi`` and ``pkg/m/__init__.py``: one module name."""
    stem = rel.removesuffix(".pyi").removesuffix(".py")
    return stem.removesuffix("/__init__") if stem.endswith("/__init__") else stem


def _under(tag: str, modules: Iterable[str]) -> bool:
    """Whether ``tag`` (k: or m:) refers to one of ``modules`` or to something in it."""
    kind, _, dotted = tag.partition(":")
    return kind in ("k", "m") and any(dotted == m or dotted.startswith(f"{m}.") for m in modules)
