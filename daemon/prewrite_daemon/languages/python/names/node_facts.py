"""Facts ``symbols`` reads off single AST nodes while it cuts a module into regions.

What a binding statement binds (its targets' names, ``__all__``'s mutations) and the parts of a
``def`` pyright reads besides its signature's nodes: the decorators as dotted chains, the first
parameter (``self``/``cls``, whose stores are members), a ``# type:`` signature comment, type
parameters, whether an ``async def`` yields. Pure functions of the nodes given.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.syntax import locked

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass
class TreeIndex:
    """The nodes of a module that several rules read, each kind in ``ast.walk``'s order, found
    in one walk (three walks of Django's 883 modules cost 6 s of a 20 s graph build)."""

    imports: list[ast.Import | ast.ImportFrom] = field(
        default_factory=lambda: list[ast.Import | ast.ImportFrom]()
    )
    assigns: list[ast.Assign | ast.AnnAssign] = field(
        default_factory=lambda: list[ast.Assign | ast.AnnAssign]()
    )
    classes: list[ast.ClassDef] = field(default_factory=lambda: list[ast.ClassDef]())


def index_tree(tree: ast.AST) -> TreeIndex:
    """``TreeIndex`` of ``tree``: breadth first, fields in order, as ``ast.walk`` goes."""
    found = TreeIndex()
    todo: deque[ast.AST] = deque([tree])
    while todo:
        node = todo.popleft()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.imports.append(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            found.assigns.append(node)
        elif isinstance(node, ast.ClassDef):
            found.classes.append(node)
        for name in node._fields:  # ast.iter_child_nodes, without the generator
            child = getattr(node, name, None)
            if isinstance(child, ast.AST):
                todo.append(child)
            elif isinstance(child, list):
                todo.extend(c for c in cast("list[object]", child) if isinstance(c, ast.AST))
    return found


def chain_of(node: ast.expr) -> str:
    """A decorator as the dotted chain it calls or names (``abc.abstractmethod``); "?" when it
    is not one (a lambda, a subscript, a call of a call)."""
    expr: ast.expr = node.func if isinstance(node, ast.Call) else node
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return "?"
    return ".".join([expr.id, *reversed(parts)])


def target_names(targets: Iterable[ast.AST]) -> set[str]:
    names: set[str] = set()
    stack = list(targets)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Tuple | ast.List):
            stack.extend(node.elts)
        elif isinstance(node, ast.Starred):
            stack.append(node.value)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        if isinstance(
            node, ast.pattern
        ):  # sub-patterns only: a class pattern's class binds nothing
            stack.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, ast.pattern))
    return names


def mutates_all(stmt: ast.stmt) -> bool:
    """``__all__.extend(...)``, ``.append(...)``, ``.remove(...)``: pyright honours these."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    func = stmt.value.func
    return isinstance(func, ast.Attribute) and is_name(func.value, "__all__")


def last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1]
    return ""


def is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def type_params(node: ast.AST) -> list[ast.AST]:
    return list(cast("list[ast.AST]", getattr(node, "type_params", [])))


def first_param(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    if any(last_name(d) == "staticmethod" for d in fn.decorator_list):
        return None
    args = [*fn.args.posonlyargs, *fn.args.args]
    return args[0].arg if args else None


def signature_comment(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """``# type: (int) -> str``: pyright reads a signature from it (the comment is on the def
    node, outside the signature's parts)."""
    if not fn.type_comment:
        return []
    try:
        return [locked.parse(fn.type_comment, "func_type")]
    except (SyntaxError, ValueError):
        return [ast.Constant(fn.type_comment)]


def yields(fn: ast.AsyncFunctionDef) -> bool:
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))
    return False
