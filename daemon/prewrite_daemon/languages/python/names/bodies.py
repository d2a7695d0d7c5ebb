"""What of a function's body pyright reads for other modules: its *kind* and its *live* part.

- ``body_kind``: whether pyright may take the body as unimplemented (a stub, ``pass``, a lone
  docstring, a ``raise NotImplementedError``), as a marker that differs whenever that verdict can;
- ``live_body``: the body without its *inert statements* (``pass``, a docstring, a string or
  other constant on a line of its own), the part an unannotated function's inferred return type
  (at its definition and at each call site), its reachability and its ``self.x`` members can
  depend on. An edit that only adds, removes or changes inert statements of an implemented body
  changes no other module's types (``symbols`` and ``imports.interface_of`` compare live bodies);
  nor does one that only adds, removes or changes *dead stores* where the checker's code-flow
  complexity provably stays under its limits (``dead_stores``; both compare without them where
  the checker's complexity is modelled).
"""

from __future__ import annotations

import ast
import copy
from typing import TYPE_CHECKING, TypeVar, cast

from prewrite_daemon.languages.python.names.dead_stores import removable

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Set

_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_Node = TypeVar("_Node", bound=ast.AST)
_Holder = TypeVar("_Holder", ast.ExceptHandler, ast.match_case)  # a block that is no statement


def body_kind(body: list[ast.stmt]) -> str:
    """How pyright may classify a function body, as a marker that differs whenever its verdict
    can: a *stub* body (only ``...`` and strings, at least one ``...``), a body that raises
    ``NotImplementedError`` anywhere (pyright takes a method that always raises it as
    unimplemented; which raises are unconditional is not modelled, so any counts), ``pass``
    or a lone docstring (implemented, but kept apart), or anything else. A Protocol's or an
    abstract method's unimplemented body makes subclasses abstract and ``super()`` calls errors."""
    kinds: list[str] = []
    constants = [
        s.value.value for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
    ]
    passes = sum(isinstance(s, ast.Pass) for s in body)
    if body and len(constants) == len(body):
        stub = Ellipsis in constants and all(v is Ellipsis or isinstance(v, str) for v in constants)
        kinds.append("stub" if stub else "constants")
    elif body and len(constants) + passes == len(body):
        kinds.append("pass")
    if raises_not_implemented(body):  # whether it always raises: the body itself decides
        kinds.append("raises " + ast.dump(ast.Module(body=body, type_ignores=[])))
    return " ".join(kinds) or "implemented"


def raises_not_implemented(body: list[ast.stmt]) -> bool:
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = exc.attr if isinstance(exc, ast.Attribute) else getattr(exc, "id", "")
            if name == "NotImplementedError":
                return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))
    return False


def live_body(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, dead_stores: bool = False
) -> list[ast.stmt]:
    """``fn.body`` without its inert statements (a copy), or ``fn.body`` itself when it has none
    or is not plainly implemented (``body_kind``: a stub, ``pass`` or constants only, a
    ``raise NotImplementedError``); with ``dead_stores``, without its dead stores too when
    ``dead_stores.removable`` finds them (the checker's code-flow complexity is modelled).

    Inert: ``pass`` and an expression statement that is a constant (a docstring, any string,
    a number, ``...``), among ``fn``'s own statements at any depth of its blocks (not in a
    nested ``def`` or ``class``). pyright 1.1.414's binder makes no code-flow node for them, so
    they change neither the function's code-flow complexity (which decides whether its return
    type is inferred at all, and at call sites: ``maxReturnTypeInferenceCodeFlowComplexity``,
    ``maxReturnCallSiteTypeInferenceCodeFlowComplexity``, ``maxCodeComplexity``) nor what is
    reachable; a docstring is read by hover only. What they do change is whether a body is
    empty (``isSuiteEmpty``: only ``...`` and strings, an unimplemented Protocol or abstract
    method), so both versions must be implemented bodies. A *store* is not inert, even a dead
    one: each adds a flow node (0.025 of complexity) and can revive a merge label (1 more);
    ``dead_stores`` says when that provably crosses no limit."""
    own = list(_own_statements(fn.body))
    drop = {id(s) for s in own if _inert(s)}
    if dead_stores:
        drop |= removable(fn, own)
    if not drop or body_kind(fn.body) != "implemented":
        return fn.body
    return _strip(fn.body, drop)


def _inert(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
    )


def _own_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """``body``'s statements and those of its blocks, at any depth, but not a nested scope's."""
    for stmt in body:
        yield stmt
        if not isinstance(stmt, _NESTED_SCOPES):
            for block in _blocks(stmt):
                yield from _own_statements(block)


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, ast.If | ast.For | ast.AsyncFor | ast.While):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [stmt.body]
    if isinstance(stmt, ast.Try | ast.TryStar):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
    if isinstance(stmt, ast.Match):
        return [c.body for c in stmt.cases]
    return []


def _strip(body: list[ast.stmt], drop: Set[int]) -> list[ast.stmt]:
    """``body`` without the statements in ``drop`` (ids), at any depth of its blocks; what
    changes is a shallow copy (the tree is shared: ``parse_cache``), the rest the same objects."""
    out: list[ast.stmt] = []
    for stmt in body:
        if id(stmt) not in drop:
            out.append(stmt if isinstance(stmt, _NESTED_SCOPES) else _strip_blocks(stmt, drop))
    same = len(out) == len(body) and all(a is b for a, b in zip(out, body, strict=True))
    return body if same else out


def _strip_blocks(stmt: ast.stmt, drop: Set[int]) -> ast.stmt:
    changed: dict[str, object] = {}
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            stripped = _strip(cast("list[ast.stmt]", block), drop)
            if stripped is not block:
                changed[field] = stripped
    if isinstance(stmt, ast.Try | ast.TryStar):
        handlers = [_with_body(h, _strip(h.body, drop)) for h in stmt.handlers]
        if any(a is not b for a, b in zip(handlers, stmt.handlers, strict=True)):
            changed["handlers"] = handlers
    if isinstance(stmt, ast.Match):
        cases = [_with_body(c, _strip(c.body, drop)) for c in stmt.cases]
        if any(a is not b for a, b in zip(cases, stmt.cases, strict=True)):
            changed["cases"] = cases
    return with_fields(stmt, changed)


def _with_body(node: _Holder, body: list[ast.stmt]) -> _Holder:
    return node if body is node.body else with_fields(node, {"body": body})


def with_fields(node: _Node, changed: Mapping[str, object]) -> _Node:
    """``node`` itself when nothing changed, else a shallow copy with ``changed`` set: trees
    are shared (``parse_cache``), so a rewrite never touches the original."""
    if not changed:
        return node
    out = copy.copy(node)
    for field, value in changed.items():
        setattr(out, field, value)
    return out
