"""Moving through Python's ``ast`` for the Protocol model (``protocols.scopes``,
``protocols.bound``): a compound statement's blocks, a statement's own expressions, an
expression's children, what a store target or a ``match`` pattern binds.

``children`` is the hot path of the model (a file with ``:=`` has every expression searched):
it skips what cannot hold an expression (``ctx`` nodes, names, constants, the string fields)
instead of going through ``ast.iter_child_nodes``'s two generators, about twice as fast.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from collections.abc import Iterator

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_COMPOUND = frozenset(
    {*DEFS, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith}
    | {ast.Try, ast.TryStar, ast.Match}
)
_SCALARS = frozenset(  # fields that never hold a node
    {"ctx", "id", "attr", "arg", "name", "module", "level", "kind", "type_comment", "conversion"}
    | {"is_async", "simple"}
)
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {ast.Name: (), ast.Constant: ()}


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node`` that may be or hold an expression (what
    ``ast.iter_child_nodes`` yields, less ``ctx`` nodes)."""
    fields = _FIELDS.get(type(node))
    if fields is None:
        fields = _FIELDS[type(node)] = tuple(f for f in node._fields if f not in _SCALARS)
    found: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found += [v for v in cast("list[object]", value) if isinstance(v, ast.AST)]
    return found


def has_walrus(tree: ast.AST) -> bool:
    """Whether ``tree`` holds a ``:=`` anywhere (one walk, cheaper than searching each
    statement with its scopes: most modules have none)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if type(node) is ast.NamedExpr:
            return True
        todo += children(node)
    return False


def blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists of a compound statement (a def's and a class's bodies included)."""
    if type(stmt) not in _COMPOUND:
        return []
    found: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = cast("list[ast.stmt]", getattr(stmt, name, None) or [])
        found.append(block)
    if isinstance(stmt, ast.Try | ast.TryStar):
        found += [h.body for h in stmt.handlers]
    elif isinstance(stmt, ast.Match):
        found += [c.body for c in stmt.cases]
    return found


def expressions(stmt: ast.stmt) -> list[ast.AST]:
    """The expressions ``stmt`` evaluates itself (not in its blocks)."""
    found: list[ast.AST] = []
    for child in children(stmt):
        if isinstance(child, ast.ExceptHandler):
            found += [child.type] if child.type is not None else []
        elif isinstance(child, ast.match_case):
            found += [child.guard] if child.guard is not None else []
        elif not isinstance(child, ast.stmt):
            found.append(child)
    return found


def target_names(target: ast.AST) -> Iterator[tuple[str, bool]]:
    """The names a store target binds, each with whether it is an attribute's."""
    match target:
        case ast.Name(id=name):
            yield name, False
        case ast.Attribute(attr=name):
            yield name, True
        case ast.Tuple(elts=elts) | ast.List(elts=elts):
            for elt in elts:
                yield from target_names(elt)
        case ast.Starred(value=value):
            yield from target_names(value)
        case _:
            pass  # a subscript store binds no name


def captures(pattern: ast.pattern) -> Iterator[str]:
    for sub in ast.walk(pattern):
        match sub:
            case ast.MatchAs(name=str() as name) | ast.MatchStar(name=str() as name):
                yield name
            case ast.MatchMapping(rest=str() as name):
                yield name
            case _:
                pass


def results(node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> list[ast.expr]:
    return [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]


def body_of(node: ast.AST) -> list[ast.stmt]:
    body = getattr(node, "body", None)  # a lambda's body is an expression
    if not isinstance(body, list):
        return []
    return [s for s in cast("list[ast.AST]", body) if isinstance(s, ast.stmt)]


def all_args(args: ast.arguments) -> list[ast.arg]:
    rest = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *rest]
