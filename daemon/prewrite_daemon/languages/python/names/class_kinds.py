"""What kind each class of the graph is, and whether a member change is one of its whole class.

The rules are in ``prewrite_daemon.languages.python.names.deps`` ("a member is instead a change
of its whole class", "class kinds by resolution, or unknown"). A class's kind is the traits it
has and inherits: protocol, enum, namedtuple, typeddict, abc, decorated, generic, autovariance,
unknown. A base is followed through the file's classes, aliases and star imports to a workspace
class (its kind, recursively) or to a name outside the workspace (``external_kind``'s table);
the longest prefix of a dotted name that is a workspace module decides. A cycle of bases or
aliases, a chain deeper than ``_MAX_DEPTH``, or a name no rule follows is unknown
(default-keep). One ``ClassKinds`` serves one run of ``Propagation`` and caches what it
resolves: the summaries do not move during a run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.symbol_changes import external_kind, is_dunder

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from prewrite_daemon.languages.python.names.summary import Summary

_FIELD_SENSITIVE = frozenset({"namedtuple", "typeddict", "decorated", "unknown"})
# A class of one of these kinds shows a member change wherever the class goes. "unknown" is
# here by default-keep: a class whose kind is not certain may be any of the others.
_WHOLE_CLASS = frozenset({"protocol", "enum", "autovariance", "unknown"})
# What a plain class may have and still show a member change only where the member is spelled.
_PLAIN = frozenset({"generic"})
_MAX_DEPTH = 16


class ClassKinds:
    """The kinds of the classes of ``summaries`` (changed files: both versions)."""

    def __init__(
        self,
        summaries: Mapping[str, list[Summary]],
        by_module: Mapping[str, set[str]],
        protocols: Callable[[], frozenset[str] | None],
        check_deadline: Callable[[], None],
    ) -> None:
        """``protocols``: every Protocol member name (None: not known, every member may be
        one); ``check_deadline`` raises ``PlanningBudgetExceeded`` past the run's budget."""
        self._summaries = summaries
        self._by_module = by_module
        self._check_deadline = check_deadline
        self._protocols = protocols  # asked once, when a member change needs it (None: not
        self._protocol_names: frozenset[str] | None = None  # known: every member may be one)
        self._protocols_asked = False
        self._infer_variance = any(s.infer_variance for v in summaries.values() for s in v)
        self._kinds: dict[tuple[str, str], frozenset[str]] = {}
        self._resolved: dict[str, frozenset[str] | None] = {}  # absolute name -> its kind

    def not_plain(self, rel: str, cls: str) -> bool:
        """Whether the class has a trait besides those a plain class may have."""
        return bool(self.kind(rel, cls) - _PLAIN)

    def whole_class(
        self, rel: str, cls: str, name: str, flags: tuple[bool, bool, bool], moved: bool
    ) -> bool:
        """Whether a member change is a change of the whole class (see the rules)."""
        data, nested, abstract = flags
        if is_dunder(name) or nested or abstract:
            return True
        if not self._protocols_asked:
            self._protocol_names, self._protocols_asked = self._protocols(), True
        if self._protocol_names is None or name in self._protocol_names:
            return True
        kind = self.kind(rel, cls)
        if kind - _PLAIN and self._maybe_abstract(rel, cls, name):
            return True  # a decorator that may be abstractmethod: shows where it is instantiated
        if kind & _WHOLE_CLASS or ("generic" in kind and self._infer_variance):
            return True
        if moved and (f"abstract:{name}" in kind or "abc" in kind):
            return True  # adding or removing an implementation of an abstract member
        return bool(kind & _FIELD_SENSITIVE) and (data or moved)

    def kind(self, rel: str, cls: str, depth: int = 0) -> frozenset[str]:
        """The class's own and inherited traits: protocol, enum, namedtuple, typeddict, abc,
        decorated, generic, autovariance, unknown (a base outside the workspace)."""
        key = (rel, cls)
        if key in self._kinds:
            return self._kinds[key]
        self._kinds[key] = frozenset({"unknown"})  # a cycle of bases: unknown
        flags: set[str] = set()
        for summary in self._summaries.get(rel, ()):
            info = summary.classes.get(cls) if summary.classes else None
            if info is None:
                flags.add("unknown")
                continue
            own = (("decorated", info.decorated), ("protocol", info.protocol),
                   ("autovariance", info.type_params), ("generic", info.subscripted))  # fmt: skip
            flags |= {f for f, on in own if on}
            for refs in info.bases:
                inherited = self._base_kind(rel, refs, depth + 1) - {"autovariance"}
                flags |= {"abc" if f == "protocol" else f for f in inherited}
        self._kinds[key] = frozenset(flags)
        return self._kinds[key]

    def _base_kind(self, rel: str, refs: tuple[str, ...], depth: int) -> frozenset[str]:
        if depth > _MAX_DEPTH or not refs or "?" in refs:
            return frozenset({"unknown"})
        out: set[str] = set()
        for ref in refs:
            tag, _, value = ref.partition(":")
            if tag == "b":
                out |= external_kind(value, builtin=True)
            elif tag == "l":
                classes = [s.classes for s in self._summaries.get(rel, ()) if s.classes]
                if "." not in value and any(value in c for c in classes):
                    out |= self.kind(rel, value, depth)
                else:
                    out.add("unknown")
            else:
                found = self._resolve(value, depth)
                if found is not None:
                    out |= found
                elif tag == "k" or not self._in_workspace(value):
                    out |= external_kind(value)  # an import from outside the workspace
                else:  # a star import of a workspace module that binds no such name
                    out.add("unknown")
        return frozenset(out)

    def _in_workspace(self, absolute: str) -> bool:
        parts = absolute.split(".")
        return any(self._by_module.get(".".join(parts[:i])) for i in range(1, len(parts)))

    def _resolve(self, absolute: str, depth: int) -> frozenset[str] | None:
        """The kind of the workspace class ``absolute`` names; None if no workspace module
        binds it (through classes, imports and star imports)."""
        if depth > _MAX_DEPTH:
            return frozenset({"unknown"})
        if absolute in self._resolved:
            return self._resolved[absolute]
        self._resolved[absolute] = frozenset({"unknown"})  # a cycle of aliases: unknown
        if len(self._resolved) % 64 == 0:
            self._check_deadline()
        found = self._resolve_uncached(absolute, depth)
        self._resolved[absolute] = found
        return found

    def _resolve_uncached(self, absolute: str, depth: int) -> frozenset[str] | None:
        """The longest prefix of ``absolute`` that is a workspace module decides (pyright
        resolves ``a.b.C`` in module ``a.b`` when there is one); a shorter prefix only adds
        "unknown" where that package binds the next part itself (a variable shadowing its
        submodule). Going on past the module would loop back through the package's own alias
        of it (``from .b import *`` binds ``b`` in ``a/__init__.py``)."""
        parts = absolute.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module, name, rest = ".".join(parts[:i]), parts[i], parts[i + 1 :]
            if not self._by_module.get(module):
                continue
            found: set[str] | None = None
            for rel in self._by_module.get(module, ()):
                for summary in self._summaries.get(rel, ()):
                    kind = self._resolve_in(rel, summary, name, rest, depth)
                    if kind is not None:
                        found = (found or set[str]()) | kind
            if self._shadowed(parts[:i]):
                found = (found or set[str]()) | {"unknown"}
            return None if found is None else frozenset(found)
        return None

    def _shadowed(self, module: list[str]) -> bool:
        """Whether a package on the way to ``module`` binds the next name itself (not by
        an import): a variable or class that pyright may take instead of the submodule."""
        for j in range(1, len(module)):
            package, name = ".".join(module[:j]), module[j]
            for rel in self._by_module.get(package, ()):
                for summary in self._summaries.get(rel, ()):
                    if any(r.owner == name and not r.member and not r.alias_of
                           for r in summary.regions):  # fmt: skip
                        return True
        return False

    def _resolve_in(
        self, rel: str, summary: Summary, name: str, rest: list[str], depth: int
    ) -> frozenset[str] | None:
        tail = "".join(f".{p}" for p in rest)
        if summary.classes and name in summary.classes:
            return self.kind(rel, name, depth + 1) if not rest else frozenset({"unknown"})
        if summary.aliases and name in summary.aliases:
            out: set[str] = set()
            for target in summary.aliases[name]:
                found = self._resolve(target + tail, depth + 1)
                out |= found if found is not None else external_kind(target + tail)
            return frozenset(out)
        stars = [self._resolve(f"{s}.{name}{tail}", depth + 1) for s in summary.stars]
        if any(k is not None for k in stars):
            return frozenset[str]().union(*(k for k in stars if k is not None))
        if any(r.owner == name and not r.member for r in summary.regions):
            return frozenset({"unknown"})  # a variable: an alias we do not follow
        return None

    def _maybe_abstract(self, rel: str, cls: str, name: str) -> bool:
        return any(
            r.maybe_abstract
            for s in self._summaries.get(rel, ())
            for r in s.regions
            if r.owner == cls and r.member == name
        )
