"""The Protocol scan's answer: computed from the facts of every group of library files, and
written as JSON by the scan process (``protocols.scan``) for the daemon (``protocols.library``).

Files are grouped by who can see them: ``CORE`` (the stdlib, site dirs, trees outside the
root: always seen) and each top-level module of a bundled stub package (seen only when imported:
``protocols.names.reachable_protocols``). The Protocol aliases are closed over every group at
once, reachable or not: a stub's class counts when its base may be bound to Protocol anywhere.
That over-approximates the closure of any reachable part (a key the checker resolves to
Protocol there is in it), so a group's members and aliases stay sound whatever is reached, and
the closure is computed once per environment, not once per plan.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.languages.python.protocols.names import (
    LibraryProtocolSet,
    ProtocolFacts,
    ProtocolGroup,
    exported,
    protocol_members,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

CORE = ""  # the group of files every plan sees


def answer(
    groups: Mapping[str, Sequence[ProtocolFacts]],
    imports: Mapping[str, Iterable[str]],
    full: frozenset[str],
) -> LibraryProtocolSet:
    """The answer for facts grouped by ``groups`` (``CORE`` and stub modules), each group's files
    importing ``imports``, ``full`` every key that may be bound to Protocol."""

    def group(name: str) -> ProtocolGroup:
        facts = groups.get(name, ())
        bound = {key for fact in facts for key, _ in fact.aliases}
        found = frozenset(imports.get(name, ()))
        return ProtocolGroup(protocol_members(facts, full), exported(full & bound), found)

    stubs = {n: group(n) for n in sorted({*groups, *imports} - {CORE})}
    stubs = {n: g for n, g in stubs.items() if g != ProtocolGroup()}
    core = group(CORE)
    only_stubs = frozenset[str]().union(*(g.aliases for g in stubs.values())) - core.aliases
    core = replace(core, aliases=exported(full) - only_stubs)  # ``Protocol`` itself too
    every = [fact for facts in groups.values() for fact in facts]
    return LibraryProtocolSet(protocol_members(every, full), exported(full), core, stubs)


def answer_to_json(found: LibraryProtocolSet) -> dict[str, Any]:
    body: dict[str, Any] = {"members": sorted(found.members), "aliases": sorted(found.aliases)}
    if found.core is not None:
        body["core"] = _group_to_json(found.core)
        body["stubs"] = {n: _group_to_json(g) for n, g in sorted(found.stubs.items())}
    return body


def answer_from_json(data: Mapping[str, Any]) -> LibraryProtocolSet:
    """The answer in ``data``; raises ``KeyError``, ``TypeError`` or ``ValueError`` when it is
    not one."""
    members, aliases = _names(data["members"]), _names(data["aliases"])
    core = data.get("core")
    if core is None:
        return LibraryProtocolSet(members, aliases)
    stubs = cast("Mapping[str, Any]", data["stubs"])
    if not isinstance(stubs, dict):
        raise TypeError("stubs is not a mapping")
    groups = {str(n): _group_from_json(g) for n, g in stubs.items()}
    return LibraryProtocolSet(members, aliases, _group_from_json(core), groups)


def facts_to_json(facts: ProtocolFacts) -> dict[str, Any]:
    return {
        "aliases": [[k, sorted(s)] for k, s in facts.aliases],
        "classes": [[sorted(b), sorted(m)] for b, m in facts.classes],
    }


def facts_from_json(data: Mapping[str, Any]) -> ProtocolFacts:
    aliases = cast("list[list[Any]]", data.get("aliases", []))
    classes = cast("list[list[Any]]", data.get("classes", []))
    return ProtocolFacts(
        tuple((str(k), frozenset(map(str, s))) for k, s in aliases),
        tuple((frozenset(map(str, b)), frozenset(map(str, m))) for b, m in classes),
    )


def _group_to_json(group: ProtocolGroup) -> dict[str, list[str]]:
    return {
        "members": sorted(group.members),
        "aliases": sorted(group.aliases),
        "imports": sorted(group.imports),
    }


def _group_from_json(data: Any) -> ProtocolGroup:
    if not isinstance(data, dict):
        raise TypeError("a group is not a mapping")
    group = cast("Mapping[str, Any]", data)
    return ProtocolGroup(
        _names(group["members"]), _names(group["aliases"]), _names(group["imports"])
    )


def _names(value: Any) -> frozenset[str]:
    if not isinstance(value, list):
        raise TypeError("names are not a list")
    return frozenset(str(v) for v in cast("list[Any]", value))
