"""Which class member names a Protocol may hold, recognised by binding rather than by spelling.

A class member's change reaches every value matched structurally against a Protocol with a
member of that name, so the planner needs the member names of every Protocol the checker can
see. A class is a Protocol when a base resolves to ``typing.Protocol``; resolving is the
checker's job, so this over-approximates it from syntax alone, without resolving modules:

- **aliases** (``protocols.scopes`` walks them, ``protocols.keys`` says what a value may be):
  every binding records the keys its value may evaluate to (``from typing import Protocol as
  P``: P from {Protocol}; ``P = t.Protocol``; ``P: TypeAlias = "Protocol"``; ``P:
  type[Protocol]``; a ``for``/``with``/walrus/``match`` target; ``ns.P = Protocol`` binds the
  attribute ``.P``). ``closure`` takes every key that may be bound to Protocol: a key joins
  when a source of any of its bindings, in any module, is in the set. Module-level names and
  attributes match across modules (over-approximating imports and attribute access); a
  function's locals are keyed by their scope; a call's result joins only in the scope that
  binds it.
- **classes** at any depth (module, function, class, ``if``/``try``/``with`` bodies): the keys
  their bases may evaluate to, and their non-dunder member names (definitions, nested classes,
  assignments and declarations in the body at any depth, ``self.x`` stores in its methods).

- **reach**: the checker sees a bundled stub package only when a file it reads imports it, so
  an environment's answer (``LibraryProtocolSet``) keeps each bundled stub module's part apart,
  and ``reachable_protocols`` keeps what a plan's imports reach (on httpx, a member named like
  one of an unimported stub's, ``getlist`` of WTForms, no longer widens to every importer).

A text no grammar reads gives ``opaque_facts``: any word may be anything. Pure (``ast`` in,
frozen facts out), so the scanner process (``protocols.scan``) uses it without the daemon.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.protocols.keys import CALLED, attribute
from prewrite_daemon.languages.python.protocols.scopes import ModuleFacts
from prewrite_daemon.languages.python.protocols.syntax import is_dunder

if TYPE_CHECKING:
    import ast
    from collections.abc import Callable, Iterable, Mapping

SEED = frozenset({"Protocol"})
_WORD = re.compile(r"[^\W\d]\w*")


@dataclass(frozen=True)
class ProtocolFacts:
    """What modules say about Protocols, before resolution.

    ``aliases``: each bound key with the keys its value may be; ``classes``: each class's base
    keys with its non-dunder member names.
    """

    aliases: tuple[tuple[str, frozenset[str]], ...] = ()
    classes: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()


@dataclass(frozen=True)
class ProtocolGroup:
    """Part of an environment's Protocols: the member names of its Protocols, the exported keys
    it binds to ``typing.Protocol``, and the top-level modules its files import."""

    members: frozenset[str] = frozenset()
    aliases: frozenset[str] = frozenset()
    imports: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LibraryProtocolSet:
    """The answer for one environment: the member names of every Protocol it holds, and the
    module-level names that may be bound to ``typing.Protocol`` there (a workspace class whose
    base is one of them is a Protocol too), reachable or not: sound for a caller that does not
    know what the workspace imports.

    ``core`` and ``stubs`` narrow it (``reachable_protocols``): the checker sees a bundled stub
    package only when a file it reads imports one of its top-level modules, so ``stubs`` keeps
    each such module's part apart, and ``core`` is what is always seen (the stdlib, site dirs,
    trees outside the root) with the modules those import. ``core`` None: no such split, every
    name counts."""

    members: frozenset[str]
    aliases: frozenset[str]
    core: ProtocolGroup | None = None
    stubs: Mapping[str, ProtocolGroup] = field(default_factory=dict[str, ProtocolGroup])


def reachable_protocols(library: LibraryProtocolSet, imports: Iterable[str]) -> LibraryProtocolSet:
    """The part of ``library`` the checker can see when the workspace imports ``imports``
    (module names, dotted or not, of every file and every version of a patched one): ``core``,
    and each bundled stub module imported by the workspace or by ``core``, closed over the
    stubs' own imports. Without a split (``core`` None), all of ``library``."""
    core = library.core
    if core is None:
        return library
    todo = [m for m in {*(i.partition(".")[0] for i in imports), *core.imports}]
    reached: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in reached and module in library.stubs:
            reached.add(module)
            todo += library.stubs[module].imports
    groups = [core, *(library.stubs[m] for m in reached)]
    members = frozenset[str]().union(*(g.members for g in groups))
    aliases = frozenset[str]().union(*(g.aliases for g in groups))
    return LibraryProtocolSet(members, aliases)


def facts_of(tree: ast.AST, where: str = "", walrus: bool = True) -> ProtocolFacts:
    """The bindings and classes of ``tree``, at every nesting depth. ``where`` names the module
    (its local names are keyed with it, so two modules' locals never meet); ``walrus`` False:
    its text has no ``:=`` (expressions then need no search)."""
    module = ModuleFacts(where, walrus)
    module.run(tree)
    return ProtocolFacts(tuple(module.aliases), tuple(module.classes))


def merge(facts: Iterable[ProtocolFacts]) -> ProtocolFacts:
    """One ``ProtocolFacts`` answering ``alias_closure`` and ``protocol_members`` exactly as
    ``facts`` do, smaller: a key's sources are united (a key joins when any of its bindings
    meets the set), and each base key keeps the union of its classes' members (a class counts
    when any of its base keys is in the set)."""
    sources: dict[str, set[str]] = defaultdict(set)
    members: dict[str, set[str]] = defaultdict(set)
    for fact in facts:
        for name, mentioned in fact.aliases:
            sources[name] |= mentioned
        for bases, names in fact.classes:
            for base in bases:
                members[base] |= names
    return ProtocolFacts(
        tuple((n, frozenset(s)) for n, s in sorted(sources.items())),
        tuple((frozenset({b}), frozenset(m)) for b, m in sorted(members.items()) if m),
    )


def closure(facts: Iterable[ProtocolFacts], seed: frozenset[str] = SEED) -> frozenset[str]:
    """Every key that may be bound to Protocol (see ``protocols.scopes``): the static aliases of
    ``seed``, then the scope-local keys a call's result (``CALLED``) may reach."""
    facts = list(facts)
    static = alias_closure(facts, seed)
    return alias_closure(facts, static | {CALLED}, grows=is_local)


def prune(facts: ProtocolFacts) -> ProtocolFacts:
    """``facts`` without the bindings of local keys nothing reads (no class's base, no other
    binding's source): the same members and exports, a fraction of the size (parameters'
    annotations are most of a library's bindings)."""
    aliases = list(facts.aliases)
    bases = set[str]().union(*(b for b, _ in facts.classes))
    while True:
        used = bases.union(*(s for _, s in aliases))
        kept = [(k, s) for k, s in aliases if not is_local(k) or k in used]
        if len(kept) == len(aliases):
            return ProtocolFacts(tuple(kept), facts.classes)
        aliases = kept


def alias_closure(
    facts: Iterable[ProtocolFacts],
    seed: frozenset[str] = SEED,
    grows: Callable[[str], bool] | None = None,
) -> frozenset[str]:
    """``seed``, then, to a fixpoint, every key (for which ``grows`` holds) one of whose bindings
    may be a key of the set."""
    bound_from: dict[str, set[str]] = defaultdict(set)  # source key -> keys bound from it
    for fact in facts:
        for name, mentioned in fact.aliases:
            for source in mentioned:
                bound_from[source].add(name)
    found = set(seed)
    todo = list(seed)
    while todo:
        for name in bound_from.get(todo.pop(), ()):
            if name not in found and (grows is None or grows(name)):
                found.add(name)
                todo.append(name)
    return frozenset(found)


def protocol_members(facts: Iterable[ProtocolFacts], aliases: frozenset[str]) -> frozenset[str]:
    """The member names of every class with a base key in ``aliases``."""
    found: set[str] = set()
    for fact in facts:
        for bases, names in fact.classes:
            if not bases.isdisjoint(aliases):
                found |= names
    return frozenset(found)


def opaque_facts(text: str) -> ProtocolFacts:
    """What a text no grammar reads may say about Protocols (pyright still reads it, with error
    recovery): any of its words, as a name or an attribute, may be bound to any other, any may
    be a class's base and any a member, so a Protocol it may declare is never missed."""
    words = frozenset(_WORD.findall(text))
    keys = words | {attribute(w) for w in words}
    members = frozenset(w for w in words if not is_dunder(w))
    # "Every key may be bound to every other" through one hub key, not a set per key: the same
    # closure (a seed reaching any key reaches the hub, and the hub every key) in linear size —
    # a set per key was quadratic (5,000 words: 5 GB). The hub is no identifier, so nothing
    # else spells it; one per text, so two opaque files are not joined.
    hub = f"<opaque {hashlib.blake2b(text.encode('utf-8', 'replace'), digest_size=8).hexdigest()}>"
    hub_only = frozenset({hub})
    aliases = ((hub, keys), *((k, hub_only) for k in sorted(keys)))
    return ProtocolFacts(aliases, ((keys, members),))


def is_local(key: str) -> bool:
    """Whether ``key`` names a function-local binding (``name@scope``): no other module can
    spell it."""
    return "@" in key


def exported(aliases: frozenset[str]) -> frozenset[str]:
    """The keys of ``aliases`` another module can reach: module-level names (``P``) and
    attributes (``.P``)."""
    return frozenset(k for k in aliases if not is_local(k) and k != CALLED)
