"""Which files a patch can affect: the reverse import graph and the "interface" of a module.

Both are deliberately conservative. Module names are matched by dotted suffix, so a file is an
importer of ``pkg/a.py`` whenever it imports any name that *could* resolve to it, whatever the
search roots are (over-approximation costs time, never correctness). A module's interface is its
AST with the bodies of fully annotated functions blanked out; when base and candidate interfaces
are equal, no importer can see a difference, so importers need not be rechecked.
"""

from __future__ import annotations

import ast
import copy
import functools
import re
from collections import defaultdict
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.names.bodies import (
    body_kind,
    live_body,
    raises_not_implemented,
    with_fields,
)
from prewrite_daemon.languages.python.syntax import locked
from prewrite_daemon.languages.python.syntax.parse_cache import KEPT, parse_shared

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from collections.abc import Set as AbstractSet

_PYRIGHT_COMMENT = re.compile(r"^\s*#\s*pyright:")


def module_names(rel: str) -> set[str]:
    """Every dotted name under which the file ``rel`` might be imported (all path suffixes).
    A stub-only package's folder ``<name>-stubs`` counts as ``<name>`` (PEP 561: pyright
    resolves ``import <name>`` to it, in the project as in site-packages)."""
    parts = rel.removesuffix(".pyi").removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    names: set[str] = set()
    for i in range(len(parts)):
        names.add(".".join(parts[i:]))
        if parts[i].endswith("-stubs") and len(parts[i]) > len("-stubs"):
            names.add(".".join([parts[i].removesuffix("-stubs"), *parts[i + 1 :]]))
    return names


def _package_of(rel: str) -> list[str]:
    parts = rel.split("/")[:-1]
    return parts


def imported_names(rel: str, tree: ast.Module) -> set[str]:
    """Dotted module names ``rel`` may depend on: each import, its parents and ``from`` members."""
    names: set[str] = set()

    def add(dotted: str) -> None:
        pieces = dotted.split(".")
        for i in range(1, len(pieces) + 1):
            names.add(".".join(pieces[:i]))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(rel)
                up = node.level - 1
                base_parts = package[: len(package) - up] if up else package
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            if base:
                add(base)
            for alias in node.names:
                if alias.name != "*":
                    add(f"{base}.{alias.name}" if base else alias.name)
    return names


class ImportGraph:
    """Reverse dependencies between the workspace's Python files, built from their sources."""

    def __init__(self) -> None:
        self._imports: dict[str, set[str]] = {}
        self._by_name: dict[str, set[str]] = defaultdict(set)

    def update(self, rel: str, source: str | None) -> None:
        """Record (or, with ``None``, forget) the imports of one file."""
        old_names = module_names(rel)
        if source is None:
            self._imports.pop(rel, None)
            for name in old_names:
                self._by_name[name].discard(rel)
            return
        try:
            tree = locked.parse(source)
        except (SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        self._imports[rel] = imported_names(rel, tree)
        for name in old_names:
            self._by_name[name].add(rel)

    def files(self) -> set[str]:
        return set(self._imports)

    def order_sensitive(self) -> bool:
        return True  # whether ``reportImportCycles`` is on is not known here

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        """Every transitive importer of a changed file (no narrowing by name)."""
        del deadline  # no narrowing: nothing to bound
        return self.importers(rel for rel, _, _ in changes)

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        """Files that import any of ``rels`` (transitively), excluding ``rels`` themselves."""
        return transitive_importers(set(rels), self._imports, transitive)


def transitive_importers(
    rels: set[str], imports: Mapping[str, AbstractSet[str]], transitive: bool = True
) -> set[str]:
    """Files whose imports (file -> dotted names) name any of ``rels`` by dotted suffix, at
    any depth (or directly, ``transitive`` False); ``rels`` excluded."""
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


def _first_param(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    args = [*fn.args.posonlyargs, *fn.args.args]
    return args[0].arg if args else None


def _body_is_private(fn: ast.FunctionDef | ast.AsyncFunctionDef, in_class: bool) -> bool:
    """True when nothing in the body can change what importers see of this function."""
    if fn.returns is None:
        return False  # the inferred return type comes from the body
    if raises_not_implemented(fn.body):
        return False  # whether it *always* raises is pyright's code flow: the body decides
    owner = _first_param(fn) if in_class else None
    for node in ast.walk(fn):
        if isinstance(node, ast.Global | ast.Nonlocal):
            return False  # assigns module-level names
        if (
            owner is not None
            and isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store | ast.Del)
            and isinstance(node.value, ast.Name)
            and node.value.id == owner
        ):
            return False  # declares or changes a member (self.x = ...)
    return True


def _yields(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``fn`` itself (not a nested def or lambda) contains ``yield``."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _pyright_comments(source: str) -> list[str]:
    """``# pyright:`` comments change how the file's own declarations are typed."""
    return [line.strip() for line in source.splitlines() if _PYRIGHT_COMMENT.match(line)]


# Where a ``def`` can sit: statement lists (bodies, ``else``s, handlers, ``match`` cases).
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)


def _blanked(node: ast.AST, in_class: bool, dead_stores: bool) -> ast.AST:
    """``node`` with the bodies of the functions whose body is private replaced by a marker,
    and the others' live bodies (``bodies.live_body``, ``dead_stores`` as it takes it).
    The tree is shared (``parse_cache``): a node that changes is a copy, the original stays."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        if not _body_is_private(node, in_class):
            # keep the body, nested defs included: all of it may be visible but inert statements
            live = live_body(node, dead_stores)
            return node if live is node.body else with_fields(node, {"body": live})
        # Whether a body is trivial ("...", pass, raise NotImplementedError) is visible:
        # pyright treats trivial protocol/abstract bodies as unimplemented.
        marker = body_kind(node.body)
        if _yields(node):
            marker += " generator"  # an async generator and a coroutine differ to callers
        return with_fields(node, {"body": [ast.Expr(ast.Constant(marker))]})
    inner = in_class or isinstance(node, ast.ClassDef)
    changed: dict[str, list[object]] = {}
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            items = cast("list[object]", value)
            kept = [
                _blanked(v, inner, dead_stores) if isinstance(v, _HOLDS_STATEMENTS) else v
                for v in items
            ]
            if any(a is not b for a, b in zip(kept, items, strict=True)):
                changed[name] = kept
    return with_fields(node, changed)


@functools.lru_cache(maxsize=KEPT)  # agents re-check against the same base texts
def interface_of(source: str, dead_stores: bool = False) -> str | None:
    """A canonical dump of what importers can see; None when the source does not parse.
    ``dead_stores``: the checker's code-flow complexity is modelled (``names.dead_stores``)."""
    tree = parse_shared(source)
    if tree is None:
        return None
    blanked = copy.copy(cast("ast.Module", _blanked(tree, False, dead_stores)))
    blanked.type_ignores = []  # "# type: ignore" only affects the file itself
    dump = ast.dump(blanked, annotate_fields=False, include_attributes=False)
    return "\n".join([dump, *_pyright_comments(source)])


def interface_changed(old: str | None, new: str | None, dead_stores: bool = False) -> bool:
    """Whether importers may see a difference between two versions of a module."""
    if old is None or new is None:
        return True
    a, b = interface_of(old, dead_stores), interface_of(new, dead_stores)
    return a is None or b is None or a != b
