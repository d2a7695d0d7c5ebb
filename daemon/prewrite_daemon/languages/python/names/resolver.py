"""A file's dotted chains resolved through its imports: the tags of ``summary``, and what a
module-level class's header and a method's decorators may be.

Names are resolved through every import of the file (inside functions too, ``TYPE_CHECKING``
included); a name bound nowhere in a file with star imports may come from any of them. A class
header (``ClassInfo``) records, per base, what it may be (a local class, an import, a name from
a star import, a builtin) for ``class_kinds`` to follow. Decorators are judged by what they
resolve to, never by their last name: whether a class decorator may synthesize members, whether
a method decorator may make the method abstract; anything unresolved may.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.names.mentions import import_bindings
from prewrite_daemon.languages.python.syntax.newer import TYPE_PARAMS_MARK

if TYPE_CHECKING:
    from prewrite_daemon.languages.python.names.mentions import Scan
    from prewrite_daemon.languages.python.names.symbols import Collected

# Class decorators that synthesize nothing, by what they resolve to (never by their last name:
# a local function called ``final`` may be a ``dataclass_transform``).
_SAFE_CLASS_DECORATORS = frozenset(
    f"{m}.{n}"
    for m, names in (
        ("typing", ("final", "type_check_only", "runtime_checkable")),
        ("typing_extensions", ("final", "type_check_only", "runtime_checkable", "deprecated")),
        ("functools", ("total_ordering",)),
        ("warnings", ("deprecated",)),
    )
    for n in names
)
# Method decorators that never make a method abstract (pyright knows abstractness only from
# ``abc.abstractmethod`` and its kin, reached by any alias); anything unresolved may be one.
_PLAIN_METHOD_DECORATORS = _SAFE_CLASS_DECORATORS | frozenset(
    f"{m}.{n}"
    for m, names in (
        ("builtins", ("property", "staticmethod", "classmethod")),
        ("functools", ("cached_property", "wraps", "lru_cache", "cache", "singledispatchmethod")),
        ("typing", ("overload", "override", "no_type_check")),
        ("typing_extensions", ("overload", "override")),
        ("contextlib", ("contextmanager", "asynccontextmanager")),
    )
    for n in names
)
_PROTOCOL_FORMS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
_PROPERTY_PARTS = frozenset({"setter", "getter", "deleter"})


@dataclass(frozen=True)
class ClassInfo:
    """A module-level class's header, for its lineage (what kind of class it is)."""

    # per base, what it may be: "l:<local>", "k:<imported>", "s:<from a star import>",
    # "b:<builtin>", or "?" (not a dotted name)
    bases: tuple[tuple[str, ...], ...]
    decorated: bool  # a decorator or class keyword that may synthesize members (dataclass-like)
    type_params: bool  # PEP 695: variance inferred from the members
    subscripted: bool  # a generic base (Generic[T], Protocol[T], list[int], ...)
    protocol: bool  # a base resolves to typing's Protocol: matched structurally


def key_tags(module: str, absolute: str) -> set[str]:
    """The names ``absolute`` passes through after the module path ``module``."""
    parts = absolute.split(".")
    start = max(module.count(".") + 2 if module else 1, 2)
    return {"k:" + ".".join(parts[:i]) for i in range(start, len(parts) + 1)}


class Resolver:
    """Turns the chains a unit mentions into tags, through the file's imports."""

    def __init__(self, col: Collected, plain: frozenset[str]) -> None:
        self._plain = plain
        self.bindings = [
            b for s in col.import_nodes for b in import_bindings(col.rel, s, col.is_init)
        ]
        self.aliases: dict[str, set[str]] = defaultdict(set)
        self._modules: dict[str, set[tuple[str, str]]] = defaultdict(set)  # (module, target)
        self.stars: set[str] = set()
        for b in self.bindings:
            if b.local == "*":
                self.stars.add(b.target)
            else:
                self.aliases[b.local].add(b.target)
                self._modules[b.local].add((b.module, b.target))
        # module-level names bound other than by an import (imports resolve through aliases)
        self.local = {
            o
            for (o, m), r in col.regions.items()
            if not m and o != "*" and any(d.role != "import" for d in r.declarations)
        }
        self._defs = {  # module-level names bound only by ``def``: plain functions
            o
            for (o, m), r in col.regions.items()
            if not m and r.declarations and all(d.role == "def" for d in r.declarations)
        }
        self._cache: dict[str, set[str]] = {}

    def tags(self, found: Scan, strings: bool = True) -> set[str]:
        out = {f"a:{a}" for a in found.attrs} if strings else set[str]()
        out |= {f"l:{n}" for n in found.stored if n in self.local}
        for chain in found.chains:
            cached = self._cache.get(chain)
            if cached is None:
                cached = self._cache[chain] = self.chain_tags(chain)
            out |= cached
        for call, chain in found.opaque:
            tags = self.chain_tags(chain)
            if call in self._plain and chain not in found.chains:
                tags = {f"v:{t[2:]}" if t.startswith("m:") else t for t in tags}
            out |= tags
        if strings:  # a forward reference, or an attribute name: never a module used as a value
            for chain in found.strings - found.chains:
                out |= {t for t in self.chain_tags(chain) if not t.startswith("m:")}
        return out

    def targets(self, chain: str) -> list[tuple[str, str]]:
        """(module path, absolute dotted name) ``chain`` may denote through imports."""
        root, _, rest = chain.partition(".")
        tail = f".{rest}" if rest else ""
        found = [(module, t + tail) for module, t in self._modules.get(root, ())]
        if root not in self.aliases:
            found += [(s, f"{s}.{chain}" if s else chain) for s in self.stars]
        return found

    def chain_tags(self, chain: str) -> set[str]:
        root = chain.partition(".")[0]
        out = {f"l:{root}"} if root in self.local else set[str]()
        for module, absolute in self.targets(chain):
            out |= key_tags(module, absolute)
            out.add(f"m:{absolute}")
        return out

    def absolute(self, chain: str) -> frozenset[str] | None:
        """What the dotted ``chain`` denotes through the file's imports ("builtins.x" for a name
        bound nowhere), or None when it may denote something else too: a module-level binding
        of the file, or any name while a star import may rebind it (order is not modelled)."""
        root, _, rest = chain.partition(".")
        if chain == "?" or root in self.local or self.stars:
            return None
        if root not in self.aliases:
            return frozenset({f"builtins.{chain}"})
        tail = f".{rest}" if rest else ""
        return frozenset(t + tail for t in self.aliases[root])

    def resolves_within(self, chain: str, allowed: frozenset[str]) -> bool:
        found = self.absolute(chain)
        return found is not None and found <= allowed

    def plain_method_decorator(self, chain: str, members: set[str]) -> bool:
        """Whether a method decorator certainly does not make the method abstract."""
        root, _, rest = chain.partition(".")
        if root in members and rest in _PROPERTY_PARTS:
            return True  # ``@x.setter``: abstract only as ``x`` itself is (same region)
        if root in self._defs and not rest and not self.stars:
            return True  # a plain function of the file
        return self.resolves_within(chain, _PLAIN_METHOD_DECORATORS)

    def class_info(self, node: ast.ClassDef) -> ClassInfo:
        bases: list[tuple[str, ...]] = []
        for base in node.bases:
            expr = base.value if isinstance(base, ast.Subscript) else base
            chain = dotted_chain(expr)
            if chain is None:
                bases.append(("?",))
                continue
            root, _, rest = chain.partition(".")
            tail = f".{rest}" if rest else ""
            refs = [f"k:{t}{tail}" for t in self.aliases.get(root, ())]
            if root not in self.aliases:  # star candidates: only if a star module binds it
                refs += [f"s:{s}.{chain}" if s else f"s:{chain}" for s in self.stars]
            if root in self.local:
                refs.append(f"l:{chain}")
            if root not in self.local and root not in self.aliases:
                refs.append(f"b:{chain}")
            bases.append(tuple(refs))
        names = [
            dotted_chain(d.func if isinstance(d, ast.Call) else d) or "?"
            for d in node.decorator_list
        ]
        type_params = bool(getattr(node, "type_params", None)) or TYPE_PARAMS_MARK in names
        return ClassInfo(
            bases=tuple(bases),
            decorated=bool(node.keywords)
            or any(
                n != TYPE_PARAMS_MARK and not self.resolves_within(n, _SAFE_CLASS_DECORATORS)
                for n in names
            ),
            type_params=type_params,
            subscripted=any(isinstance(b, ast.Subscript) for b in node.bases),
            protocol=any(
                not (self.absolute(_base_chain(b)) or frozenset()).isdisjoint(_PROTOCOL_FORMS)
                for b in node.bases
            ),
        )


def dotted_chain(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _base_chain(base: ast.expr) -> str:
    return dotted_chain(base.value if isinstance(base, ast.Subscript) else base) or "?"
