"""The occurrences of a rename's words in one version of one file, for ``names.renames``.

A census walks a file's tree once and sorts each occurrence of the words (see ``Census``). The
census of a base text is kept (an agent re-checks against the same base), and so is the renamed
view of it, R(old): the trees come from ``parse_cache`` and are shared, so a census reads its
tree only, and R(old) is built on a private parse (``_apply`` renames in place).
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.names.mentions import resolve_from
from prewrite_daemon.languages.python.names.symbols import Collected
from prewrite_daemon.languages.python.syntax.parse_cache import parse_private, parse_shared

if TYPE_CHECKING:
    from collections.abc import Mapping

_WORD = re.compile(r"[^\W\d]\w*")


@dataclass
class Census:
    """One version of one file: the kind of each occurrence of the words, by word (``def``: a
    top-level function, ``import <module>``: a top-level ``from <module> import word [as
    word]``, ``call``: a name called, ``all``: a string of ``__all__``, ``other``), the called
    names among them (where R renames), and whether the file has a star import."""

    tree: ast.Module | None = None  # None: the source does not contain the words (not parsed)
    found: dict[str, list[str]] = field(default_factory=lambda: dict[str, list[str]]())
    calls: list[ast.Name] = field(default_factory=lambda: list[ast.Name]())
    star_import: bool = False


@functools.lru_cache(maxsize=16)  # the base text's census, again on every re-check
def take_census(rel: str, source: str, words: frozenset[str]) -> Census | None:
    """One walk of the file's shared tree (none when the source does not contain the words);
    None when it does not parse. The census's tree and calls are the shared tree's: read only."""
    if not any(w in source for w in words):
        return Census()
    return _census_of(rel, parse_shared(source), words)


@functools.lru_cache(maxsize=8)  # a rename patch re-checked: the same base, the same renaming
def renamed_view(
    rel: str, source: str, words: frozenset[str], renaming: tuple[tuple[str, str], ...]
) -> Collected | None:
    """R(old) of one file: its regions with ``renaming`` applied to a private tree (``_apply``
    renames in place, and the parse cache's trees are shared)."""
    census = _census_of(rel, parse_private(source), words)
    if census is None or census.tree is None:
        return None
    return Collected(rel, _apply(census, dict(renaming)))


def _census_of(rel: str, tree: ast.Module | None, words: frozenset[str]) -> Census | None:
    if tree is None:
        return None
    out = Census(tree, defaultdict(list))
    top = {id(s) for s in tree.body}
    all_strings: set[int] = set()
    aliases: dict[int, str] = {}  # top-level ``from`` imports' aliases -> absolute module
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            out.star_import |= any(a.name == "*" for a in stmt.names)
        if isinstance(stmt, ast.ImportFrom) and stmt.module:
            module = resolve_from(rel, stmt.level, stmt.module)
            for alias in stmt.names:
                aliases[id(alias)] = module or ""
        elif _is_all_statement(stmt):
            all_strings |= {id(n) for n in ast.walk(stmt) if isinstance(n, ast.Constant)}
    calls: set[int] = set()  # a parent is visited before its children: marked in time
    skipped: set[int] = set()  # docstrings and bare string statements
    facts = (top, calls, all_strings, aliases)
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.add(id(node.func))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        if id(node) in skipped:
            continue
        for name in node._fields:
            value: object = getattr(node, name, None)
            for v in cast("list[object]", value) if isinstance(value, list) else [value]:
                if isinstance(v, ast.AST):
                    stack.append(v)
                elif isinstance(v, str) and any(w in v for w in words):
                    for word in {v} & words if v in words else set(_WORD.findall(v)) & words:
                        kind = _kind(node, name, v, word, facts)
                        if kind:
                            out.found[word].append(kind)
                        if kind == "call" and isinstance(node, ast.Name):
                            out.calls.append(node)
    return out


def _kind(
    node: ast.AST,
    name: str,
    value: str,
    word: str,
    facts: tuple[set[int], set[int], set[int], dict[int, str]],
) -> str | None:
    top, calls, all_strings, aliases = facts
    if value != word:
        return "other"
    if isinstance(node, ast.Name) and id(node) in calls and isinstance(node.ctx, ast.Load):
        return "call"
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and id(node) in top:
        return "def" if name == "name" else "other"
    if isinstance(node, ast.alias) and id(node) in aliases and node.asname in (None, node.name):
        if name == "asname":
            return None  # ``import o as o``: counted once, by its name
        return f"import {aliases[id(node)]}"
    if isinstance(node, ast.Constant) and id(node) in all_strings:
        return "all"
    return "other"


def _is_all_statement(stmt: ast.stmt) -> bool:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        targets = [stmt.target]
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        targets = [func.value] if isinstance(func, ast.Attribute) else []
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def _apply(census: Census, renaming: Mapping[str, str]) -> ast.Module:
    """R: the top-level ``def``s, ``from`` imports and calls of the renamed names, renamed in
    the census's tree (``_verify`` has checked that no other occurrence exists)."""
    assert census.tree is not None
    for stmt in census.tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name in renaming:
            stmt.name = renaming[stmt.name]
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name in renaming:
                    alias.asname = renaming[alias.name] if alias.asname else None
                    alias.name = renaming[alias.name]
    for name in census.calls:
        name.id = renaming.get(name.id, name.id)
    return census.tree
