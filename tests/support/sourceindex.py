"""A small ``ast`` index of a Python tree for the patch generator: modules, functions, imports,
uses, and position-based text edits that are validated by compiling the result.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path

SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "venv", ".tox", "node_modules"})
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Edit:
    """Replace ``[line:col, end_line:end_col)`` (1-based lines, ast's UTF-8 byte columns)."""

    line: int
    col: int
    end_line: int
    end_col: int
    text: str


def insert_at(line: int, col: int, text: str) -> Edit:
    return Edit(line, col, line, col, text)


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits, last first, so earlier positions stay valid."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line > len(lines):
            return len(source)
        return starts[line - 1] + len(lines[line - 1].encode("utf-8")[:col].decode("utf-8"))

    out = source
    ordered = sorted(edits, key=lambda e: (e.line, e.col), reverse=True)
    for edit in ordered:
        start, end = offset(edit.line, edit.col), offset(edit.end_line, edit.end_col)
        out = out[:start] + edit.text + out[end:]
    return out


def compiles(source: str, path: str) -> bool:
    """Whether ``source`` compiles (stricter than ``ast.parse``: e.g. ``__future__`` placement)."""
    try:
        compile(source, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Function:
    path: str
    qualname: str
    node: FunctionNode

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def is_method(self) -> bool:
        return "." in self.qualname


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative, posix
    module: str  # dotted module name
    is_package: bool  # an __init__.py
    text: str
    tree: ast.Module

    @property
    def package(self) -> str:
        return self.module if self.is_package else self.module.rpartition(".")[0]

    def resolve(self, node: ast.ImportFrom) -> str:
        """The absolute module an ``ImportFrom`` names."""
        if node.level == 0:
            return node.module or ""
        parts = self.package.split(".") if self.package else []
        base = parts[: len(parts) - (node.level - 1)]
        return ".".join([*base, *([node.module] if node.module else [])])

    def line(self, lineno: int) -> str:
        return self.text.splitlines()[lineno - 1]


def _module_name(rel: Path) -> tuple[str, bool]:
    parts = list(rel.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


class SourceIndex:
    """Every ``.py`` file under ``root`` that parses, in sorted order."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, SourceFile] = {}
        for file in sorted(root.rglob("*.py")):
            rel = file.relative_to(root)
            if SKIP_DIRS.intersection(rel.parts[:-1]):
                continue
            text = file.read_bytes().decode("utf-8")
            try:
                tree = ast.parse(text, str(rel))
            except SyntaxError:
                continue
            module, is_package = _module_name(rel)
            self.files[rel.as_posix()] = SourceFile(rel.as_posix(), module, is_package, text, tree)
        self.by_module = {f.module: f for f in self.files.values()}

    @cached_property
    def functions(self) -> list[Function]:
        """Module-level functions and methods of module-level classes."""
        found: list[Function] = []
        for f in self.files.values():
            for stmt in f.tree.body:
                if isinstance(stmt, FunctionNode):
                    found.append(Function(f.path, stmt.name, stmt))
                elif isinstance(stmt, ast.ClassDef):
                    found.extend(
                        Function(f.path, f"{stmt.name}.{item.name}", item)
                        for item in stmt.body
                        if isinstance(item, FunctionNode)
                    )
        return found

    @cached_property
    def method_names(self) -> frozenset[str]:
        return frozenset(fn.name for fn in self.functions if fn.is_method)

    @cached_property
    def _import_froms(self) -> list[tuple[SourceFile, ast.ImportFrom, str]]:
        return [
            (f, node, f.resolve(node))
            for f in self.files.values()
            for node in ast.walk(f.tree)
            if isinstance(node, ast.ImportFrom)
        ]

    @cached_property
    def _calls(self) -> dict[str, list[tuple[SourceFile, ast.Call]]]:
        found: dict[str, list[tuple[SourceFile, ast.Call]]] = defaultdict(list)
        for f in self.files.values():
            for node in ast.walk(f.tree):
                if isinstance(node, ast.Call) and (name := _called_name(node)):
                    found[name].append((f, node))
        return found

    @cached_property
    def _mentions(self) -> dict[str, set[str]]:
        """name -> files using it as a name or as an attribute."""
        found: dict[str, set[str]] = defaultdict(set)
        for f in self.files.values():
            for node in ast.walk(f.tree):
                if isinstance(node, ast.Name):
                    found[node.id].add(f.path)
                elif isinstance(node, ast.Attribute):
                    found[node.attr].add(f.path)
        return found

    @cached_property
    def attribute_names(self) -> frozenset[str]:
        return frozenset(
            node.attr
            for f in self.files.values()
            for node in ast.walk(f.tree)
            if isinstance(node, ast.Attribute)
        )

    def imports_from(self, path: str) -> Iterator[tuple[SourceFile, ast.ImportFrom]]:
        """``from <module of path> import ...`` statements in other files."""
        module = self.files[path].module
        for f, node, resolved in self._import_froms:
            if f.path != path and resolved == module:
                yield f, node

    def name_importers(self, path: str, name: str) -> list[str]:
        """Files that ``from <module> import name`` (possibly aliased)."""
        return sorted(
            {
                f.path
                for f, node in self.imports_from(path)
                if any(a.name == name for a in node.names)
            }
        )

    def module_importers(self, path: str) -> list[str]:
        """Files importing the module at ``path`` in any form."""
        target = self.files[path]
        found: set[str] = {f.path for f, _ in self.imports_from(path)}
        parent, _, leaf = target.module.rpartition(".")
        for f, node, resolved in self._import_froms:
            if resolved == parent and any(a.name == leaf for a in node.names):
                found.add(f.path)
        for f in self.files.values():
            for stmt in ast.walk(f.tree):
                if isinstance(stmt, ast.Import) and any(
                    a.name == target.module for a in stmt.names
                ):
                    found.add(f.path)
        found.discard(path)
        return sorted(found)

    def calls(self, name: str) -> list[tuple[SourceFile, ast.Call]]:
        """Calls spelled ``name(...)`` or ``<expr>.name(...)`` anywhere."""
        return self._calls.get(name, [])

    def users(self, name: str, path: str) -> list[str]:
        """Files other than ``path`` that mention ``name`` as a name or attribute."""
        return sorted(self._mentions.get(name, set()) - {path})


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None
