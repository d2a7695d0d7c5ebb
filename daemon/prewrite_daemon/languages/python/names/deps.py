"""Which other files a patch can change the diagnostics of: dependencies per name, not per module.

``NameGraph`` is a drop-in for ``imports.ImportGraph`` (``update``, ``importers``, ``files``)
with ``affected(changes)``: the files other than the changed ones whose pyright diagnostics may
differ. It is a superset of the truth, always; every rule below says why. The result is never
larger than the transitive importers of the changed files (``ImportGraph``'s answer): a file
that imports none of them, at any depth, cannot see them. The graph's summaries and indexes live
here; one narrowing runs in ``narrowing``, its fixpoint in ``propagation``, with the kinds of
classes from ``class_kinds``.

Whole importers (every transitive importer of the file; the ``fallback``):
- a ``.pyi`` stub changed, added or deleted (it shadows the module's source for importers; a
  ``<name>-stubs`` folder is the module ``<name>``);
- a file that does not parse, before or after, in the newest grammar (``syntax.newer``);
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

A function renamed together with every call of it in the patch (``names.renames``, whose
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
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from prewrite_daemon.languages.python.names.imports import module_names, transitive_importers
from prewrite_daemon.languages.python.names.narrowing import Narrower, siblings
from prewrite_daemon.languages.python.names.summary import summarize
from prewrite_daemon.languages.python.names.symbol_changes import STDLIB_PROTOCOL_MEMBERS
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
    from collections.abc import Iterable, Sequence

    from prewrite_daemon.languages.python.names.narrowing import Change, Narrowing
    from prewrite_daemon.languages.python.names.summary import Summary


@runtime_checkable
class ProtocolSource(Protocol):
    """Where the libraries' Protocols come from (``protocols.library.LibraryProtocols``)."""

    def get(self) -> LibraryProtocolSet | None:
        """The answer for the environment, or None while it is not known (never blocks)."""
        ...


class NameGraph:
    """Name-level dependencies between the workspace's Python files (see the module doc)."""

    def __init__(
        self,
        library: ProtocolSource | Iterable[str] | None = None,
        report_import_cycles: bool = True,
        dead_stores: bool = False,
    ) -> None:
        """``library``: the Protocols of what the workspace can import outside itself
        (``protocols.library.LibraryProtocols``, asked at each plan; a fixed set of member
        names in tests). None, or an answer not ready yet: every member change is taken as a
        change of its class. ``report_import_cycles``: the checker's ``reportImportCycles`` is
        on (or not known): an import edge that closes or opens a cycle then reaches every
        importer. ``dead_stores``: the checker's code-flow complexity is modelled
        (``names.dead_stores``): a dead store then reaches no importer where it provably
        crosses no limit."""
        self.dead_stores = dead_stores
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
        summary, _ = summarize(rel, source, self.dead_stores)
        self._summaries[rel] = summary
        for tag in summary.tags or ():
            if not tag.startswith("l:"):
                self._index[tag].add(rel)
        for name in module_names(rel):
            self._by_module[name].add(rel)

    def files(self) -> set[str]:
        return set(self._summaries)

    def order_sensitive(self) -> bool:
        return self._cycles  # ``reportImportCycles`` may be on

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        """Files that import any of ``rels`` (transitively), excluding ``rels`` (as ImportGraph),
        and the files at the same module path (``m.py`` beside ``m/__init__.py`` or ``m.pyi``:
        which one the name resolves to, and so their own diagnostics, may change)."""
        rels = set(rels)
        imports = {rel: s.imports for rel, s in self._summaries.items()}
        return transitive_importers(rels, imports, transitive) | siblings(rels, self._summaries)

    def affected(self, changes: Sequence[Change], deadline: float | None = None) -> set[str]:
        """Files (other than the changed ones) whose diagnostics may differ after ``changes``
        (rel, old text or None if new, new text or None if deleted): a superset of the truth.
        Past ``deadline`` (``time.monotonic()``), ``PlanningBudgetExceeded``."""
        return set(self.narrow(changes, deadline).files)

    def narrow(self, changes: Sequence[Change], deadline: float | None = None) -> Narrowing:
        """``affected``'s answer, with what led to it (``narrowing``)."""
        narrower = Narrower(
            self._summaries, self._index, self._by_module, self._cycles, self.protocols,
            self.dead_stores,
        )  # fmt: skip
        return narrower.narrow(changes, deadline)


class _Fixed:
    """A library answer known in advance (tests, and callers that computed it themselves)."""

    def __init__(self, found: LibraryProtocolSet) -> None:
        self._found = found

    def get(self) -> LibraryProtocolSet | None:
        return self._found
