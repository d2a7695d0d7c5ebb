"""One file's summary for the name graph: what each region mentions, as resolved *tags*.

Parsed once per ``NameGraph.update``. A tag is one thing a region or the file can depend on:

- ``k:<module>.<name>[.<more>]``: a reference that passes through ``name`` of ``module`` (every
  prefix of an absolute chain of two parts or more: ``httpx._models.Request.json`` gives
  ``k:httpx._models`` … ``k:httpx._models.Request.json``; whether ``httpx._models`` is a
  package or a module is left to the graph, which matches every file that dotted name may be);
- ``m:<dotted>``: the object ``dotted`` itself is used (a module passed around or given to
  ``getattr``: it depends on everything in that module);
- ``v:<dotted>``: the object is only given to ``vars()`` or ``dir()`` (``mentions``), where its
  type decides nothing; the graph reads it as ``m:`` where the workspace has its own
  ``__builtins__.pyi``, or where the builtin is not plainly the builtin (any occurrence of the
  word other than a call, or a star import, in the file: then it is ``m:`` from the start);
- ``l:<name>``: a module-level name of this file;
- ``a:<attr>``: an attribute name (``x.attr``, ``getattr(x, "attr")``, ``case C(attr=…)``);
- ``s:<module>``: a star import of ``module``.

Names are resolved through every import of the file (``resolver``).
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from dataclasses import dataclass, replace

from prewrite_daemon.languages.python.names.imports import imported_names
from prewrite_daemon.languages.python.names.mentions import OPAQUE_CALLS
from prewrite_daemon.languages.python.names.resolver import (
    ClassInfo,
    Resolver,
    dotted_chain,
    key_tags,
)
from prewrite_daemon.languages.python.names.symbol_changes import star_names
from prewrite_daemon.languages.python.names.symbols import Collected
from prewrite_daemon.languages.python.protocols.names import ProtocolFacts, facts_of, opaque_facts
from prewrite_daemon.languages.python.syntax import locked
from prewrite_daemon.languages.python.syntax.parse_cache import KEPT, parse_shared

# An import anywhere in a text that does not parse: after a ``;``, inside a one-line ``if``, in a
# string or a comment (an extra edge costs a recheck, a missed one is a wrong green).
_IMPORT_ANYWHERE = re.compile(
    r"\bfrom\s+(\.*)([\w.]*)\s+import\s*(\([^)]*\)?|[^\n;]*)|\bimport\s+([^\n;]*)"
)
_DOTTED_NAME = re.compile(r"[^\W\d][\w]*(?:\s*\.\s*[^\W\d][\w]*)*")


@dataclass(frozen=True)
class Region:
    kind: str  # bind (a module-level name), class (a module-level class: its header), member
    owner: str  # the module-level name, or the member's class
    member: str = ""
    data: bool = False  # declared by assignment or import (a field, to a dataclass-like class)
    nested_class: bool = False
    abstract: bool = False
    alias_of: tuple[str, ...] = ()  # an import binding: the modules (or names) it denotes
    maybe_abstract: bool = False  # a member with a decorator not resolved to a plain one


@dataclass(frozen=True)
class TagUse:
    file: bool  # the file's own diagnostics depend on it
    regions: tuple[int, ...]  # the regions that mention it


_NO_FACTS = ProtocolFacts()


@dataclass(frozen=True)
class Summary:
    rel: str
    imports: frozenset[str]  # dotted module names it may depend on (the import graph's edges)
    regions: tuple[Region, ...] = ()
    tags: dict[str, TagUse] | None = None
    classes: dict[str, ClassInfo] | None = None
    aliases: dict[str, frozenset[str]] | None = None  # local name -> absolute targets
    stars: frozenset[str] = frozenset()
    exports: frozenset[str] | None = None  # what a star import of it binds; None: unknown
    protocol_facts: ProtocolFacts = _NO_FACTS  # its Protocols, read by binding (any depth)
    infer_variance: bool = False
    opaque: bool = False  # does not parse: depends on everything it imports
    inner_bases: frozenset[str] = frozenset()  # tags in headers of classes not at module level


@functools.lru_cache(maxsize=KEPT)  # as many as the trees kept (``parse_cache.KEPT``)
def summarize(rel: str, source: str, dead_stores: bool = False) -> tuple[Summary, Collected | None]:
    """The file's summary, and its regions (None: it does not parse). Cached: a check parses
    the base text the graph has just summarised, and an agent re-checks the same file.
    ``dead_stores``: the checker's complexity is modelled (``Collected``, ``dead_stores``)."""
    tree = parse_shared(source)  # read only: Collected never changes it
    if tree is None:
        return opaque_summary(rel, source), None
    col = Collected(rel, tree, dead_stores)
    summary = summary_of(col, source, _plain_builtins(tree, source))
    return replace(summary, protocol_facts=facts_of(tree, rel, ":=" in source)), col


def _plain_builtins(tree: ast.Module, source: str) -> frozenset[str]:
    """The names of ``OPAQUE_CALLS`` that mean the builtin everywhere in the file: every
    occurrence of the word in the source is a call of the name, and no star import can bind it
    (so no assignment, parameter, import, ``global`` or string spells it)."""
    names = {n for n in OPAQUE_CALLS if f"{n}(" in source}
    if not names:
        return frozenset()
    calls: dict[str, int] = dict.fromkeys(names, 0)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return frozenset()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in calls:
            calls[node.func.id] += 1
    return frozenset(n for n in names if len(re.findall(rf"\b{n}\b", source)) == calls[n])


def opaque_summary(rel: str, source: str) -> Summary:
    """A file that does not parse still gets checked by pyright (with error recovery): keep
    every module its import lines name, and let the graph treat it as using everything."""
    names: set[str] = set()
    joined = re.sub(r"\\\r?\n", " ", source)  # backslash continuations: one logical line
    for m in _IMPORT_ANYWHERE.finditer(joined):
        dots, module, imported, plain = m.groups()
        found = [d.replace(" ", "") for d in _DOTTED_NAME.findall(imported or plain or "")]
        if plain is not None:  # every word may be a module (``as`` and aliases: extra edges)
            stmts = [f"import {name}" for name in found]
        else:  # each imported name may be a submodule
            stmts = [f"from {dots}{module} import {n}" for n in found if "." not in n]
            stmts.append(f"from {dots}{module} import _")
        for stmt in stmts:
            try:
                tree = locked.parse(stmt)
            except SyntaxError:
                continue
            names |= imported_names(rel, tree)
    return Summary(rel, frozenset(names), opaque=True, protocol_facts=opaque_facts(source))


def summary_of(col: Collected, source: str, plain: frozenset[str] = frozenset()) -> Summary:
    """``plain``: the ``OPAQUE_CALLS`` that are the builtins in this file (see the module doc)."""
    resolver = Resolver(col, plain)
    unit_tags = [resolver.tags(found) for _, found in col.units]
    # `__all__` lists names in strings; they are not references (star_names diffs them)
    unit_refs = [resolver.tags(found, strings=False) for _, found in col.units]
    file_tags: set[str] = set[str]().union(*unit_tags)
    file_tags |= {f"a:{a}" for _, found in col.units for a in found.stored_attrs}
    file_tags |= {f"s:{s}" for s in resolver.stars}
    for b in resolver.bindings:
        if not b.is_module and b.local != "*":
            file_tags |= key_tags(b.module, b.target)  # `from m import x` fails when x goes
    regions: list[Region] = []
    by_tag: dict[str, list[int]] = defaultdict(list)
    region_only: set[str] = set()
    members: dict[str, set[str]] = defaultdict(set)  # class -> its members' names
    for owner, member in col.regions:
        if member:
            members[owner].add(member)
    for (owner, member), build in col.regions.items():
        if owner == "*":
            continue
        tags: set[str] = set()
        for decl in build.declarations:
            for _, units in decl.pieces:
                for u in units:
                    tags |= unit_refs[u] if owner == "__all__" else unit_tags[u]
                    if member and u not in col.body_units:  # class scope: `y = x + 1`
                        chains = col.units[u][1].chains
                        tags |= {
                            f"a:{n}" for c in chains if (n := c.split(".")[0]) in members[owner]
                        }
            for module, ref in decl.refs:
                tags |= key_tags(module, ref)
            for module in decl.module_refs:  # the binding re-exports it; the file does not use it
                tags.add(f"m:{module}")
                region_only.add(f"m:{module}")
        index = len(regions)
        alias_of = tuple(d.target for d in build.declarations if d.target and not member)
        maybe_abstract = bool(member) and any(
            not resolver.plain_method_decorator(c, members[owner]) for c in build.decorators
        )
        regions.append(Region(build.kind, owner, member, build.data, build.nested_class,
                              build.abstract, alias_of, maybe_abstract))  # fmt: skip
        for tag in tags:
            by_tag[tag].append(index)
    uses = {
        tag: TagUse(tag in file_tags, tuple(by_tag.get(tag, ())))
        for tag in file_tags | (region_only - file_tags) | by_tag.keys()
    }
    module = ast.Module(body=list(col.import_nodes), type_ignores=[])
    classes = {c.name: resolver.class_info(c.node) for c in col.classes}
    return Summary(
        rel=col.rel,
        imports=frozenset(imported_names(col.rel, module)),
        regions=tuple(regions),
        tags=uses,
        classes=classes,
        aliases={k: frozenset(v) for k, v in resolver.aliases.items()},
        stars=frozenset(resolver.stars),
        exports=star_names(col),
        infer_variance="infer_variance" in source,
        inner_bases=_inner_bases(col, resolver, unit_tags),
    )


def _inner_bases(col: Collected, resolver: Resolver, unit_tags: list[set[str]]) -> frozenset[str]:
    """What the header expressions of classes not at module level denote: a dotted chain, what
    it resolves to (and, for ``a.b.C``, the attribute ``C``, not ``a`` or ``b``); anything
    else, every tag it mentions."""
    out: set[str] = set()
    for u in col.inner_class_units:
        (expr, *_), _ = col.units[u]
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        chain = dotted_chain(expr) if isinstance(expr, ast.expr) else None
        if chain is None:
            out |= unit_tags[u]
            continue
        out |= resolver.chain_tags(chain)
        if "." in chain:
            out.add(f"a:{chain.rsplit('.', 1)[1]}")
    return frozenset(out)
