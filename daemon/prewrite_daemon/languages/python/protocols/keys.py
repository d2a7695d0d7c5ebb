"""Keys and values for ``protocols.scopes``: what a name means where it is read, and what an
expression may evaluate to, in the terms ``protocols.names`` closes over.

Keys, by where a name can be reached from:
- ``P``: bound at module level; another module reaches it by import or as ``m.P``, so these
  match across modules (over-approximating import resolution).
- ``.P``: an attribute, bound in a class body or by a store ``obj.P = ...``; reached only as an
  attribute (``NS.P``, ``self.P``), never by a bare name in another module. Keeping the two apart
  matters: uvicorn's ``self.http = http`` (an ``asyncio.Protocol`` class) would otherwise make
  every module-level ``http`` an alias.
- ``P@<scope>``: the binding as seen inside its own scope (a function, lambda, comprehension; a
  module or class body binds both this and ``P``/``.P``). A local ``result`` or ``data`` never
  merges with every other one in site-packages (matching all of them made the closure of this
  repository's venv 40,000 names).

What a value may be, as pyright evaluates a base class (not every name it mentions, which made
this repository's venv chain ``Protocol`` to ``object``): a name or attribute (``t.Protocol`` is
the ``Protocol`` attribute, ``Protocol.__doc__`` is not Protocol); a subscript's container
(``Protocol[T]``, ``[Protocol][0]``), not its index; both branches of ``a if c else b`` and
``a or b``; a container's elements; the whole value as a string (``P: TypeAlias = "Protocol"``).
**A call is opaque**: its result is the key ``CALLED``, which ``protocols.names.closure`` lets
reach only ``P@scope`` keys, so whatever a call returns may be Protocol in the scope that binds
it (pyright does make ``class C(make())``, ``P = make()`` and ``P = ident(Protocol)``
Protocols, through inferred and call-site return types), but not across modules or attributes
(following returns by name chained every ``copy``/``items`` method of a venv together, and
every module-level ``X = f()`` of site-packages joined by name). A ``TypeVar``/``ParamSpec``/
``TypeVarTuple`` call is a type variable, whatever its ``bound=``; a lambda, an operator or a
comparison is never a class. Each rule was checked against pyright 1.1.414.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.protocols.syntax import children
from prewrite_daemon.languages.python.syntax import locked
from prewrite_daemon.languages.python.syntax.newer import ALIAS_MARK

if TYPE_CHECKING:
    from collections.abc import Callable

CALLED = "()"  # the key of whatever a call returns
_TYPE_VARIABLES = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})  # an alias is not excepted
_NOT_TYPES = frozenset({"Literal", "Annotated"})  # subscripts whose (other) arguments are values
_FORWARD_REF_MAX = 256  # longer strings are text, not a type written as a string


@dataclass
class Scope:
    """A module, class, function (def or lambda) or comprehension body, with the names it
    binds by Python's rule (``protocols.bound.collect_bound``)."""

    kind: str  # module, class, function, comprehension
    tag: str
    parent: Scope | None
    bound: set[str] = field(default_factory=set[str])
    declared_global: set[str] = field(default_factory=set[str])
    declared_nonlocal: set[str] = field(default_factory=set[str])

    def outer(self) -> Scope:
        """The scope a free name is looked up in (class bodies are skipped, as in Python)."""
        scope = self.parent
        while scope is not None and scope.kind == "class":
            scope = scope.parent
        assert scope is not None, "only the module scope has no parent"
        return scope

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def walrus_scope(self) -> Scope:
        """Where ``name := ...`` binds: a comprehension's enclosing function (or module)."""
        scope = self
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        return scope

    def local(self, name: str) -> str:
        return f"{name}@{self.tag}"

    def read(self, name: str) -> set[str]:
        """The keys a read of ``name`` here may mean."""
        if self.kind == "module":
            return {name, self.local(name)}
        if name in self.declared_global:
            return self.module().read(name)
        if self.kind == "class":  # the class's own name, or a free one: take both
            own = {attribute(name), self.local(name)} if name in self.bound else set[str]()
            return own | self.outer().read(name)
        if name in self.bound:
            return {self.local(name)}
        return self.outer().read(name)

    def store(self, name: str) -> set[str]:
        """The keys a binding of ``name`` here binds."""
        if self.kind == "module":
            return {name, self.local(name)}
        if name in self.declared_global:
            return self.module().store(name)
        if self.kind == "class":
            return {attribute(name), self.local(name)}
        if name in self.declared_nonlocal:
            return self.outer().read(name)
        return {self.local(name)}


def attribute(name: str) -> str:
    """The key of an attribute ``name`` (a class body's or a store's): ``.name``."""
    return "." + name


def value_of(node: ast.AST, scope: Scope, scope_of: Callable[[ast.AST, Scope], Scope]) -> set[str]:
    """The keys ``node`` may evaluate to (see the module doc); ``scope_of`` gives the scope a
    comprehension opens."""
    found: set[str] = set()
    todo: list[tuple[ast.AST, Scope]] = [(node, scope)]
    while todo:
        expr, where = todo.pop()
        match expr:
            case ast.Name(id=name):
                found |= where.read(name)
            case ast.Attribute(attr=name):
                found |= {name, attribute(name)}  # a module's name or an object's
            case (
                ast.Subscript(value=inner)
                | ast.Starred(value=inner)
                | ast.Await(value=inner)
                | ast.NamedExpr(value=inner)
            ):
                todo.append((inner, where))
            case ast.Call(func=func, args=[*_, aliased]) if last_name(func) == ALIAS_MARK:
                todo.append((aliased, where))  # ``type P = V`` read by ``syntax.newer``
            case ast.Call(func=func):
                if last_name(func) not in _TYPE_VARIABLES:
                    found.add(CALLED)
            case ast.IfExp(body=body, orelse=orelse):
                todo += [(body, where), (orelse, where)]
            case (
                ast.BoolOp(values=values)
                | ast.List(elts=values)
                | ast.Tuple(elts=values)
                | ast.Set(elts=values)
            ):
                todo += [(e, where) for e in values]
            case ast.Dict(keys=keys, values=values):
                todo += [(e, where) for e in (*keys, *values) if e is not None]
            case ast.ListComp(elt=elt) | ast.SetComp(elt=elt) | ast.GeneratorExp(elt=elt):
                todo.append((elt, scope_of(expr, where)))
            case ast.DictComp(key=key, value=value):
                inner = scope_of(expr, where)
                todo += [(key, inner), (value, inner)]
            case ast.Constant(value=str() as text) if expr is node:
                todo += [(e, where) for e in forward_ref(text)]
            case _:
                pass  # a lambda, an operator, a comparison, a literal: never a class
    return found


def mentions(node: ast.AST | None, scope: Scope) -> set[str]:
    """Every key a type expression names (its index too: ``type[Protocol]``), except the values
    of ``Literal[...]`` and the metadata of ``Annotated[T, ...]``: strings there are text
    (``Literal["http"]`` is not the name ``http``)."""
    found: set[str] = set()
    todo: list[ast.AST] = [] if node is None else [node]
    while todo:
        expr = todo.pop()
        if isinstance(expr, ast.Subscript) and last_name(expr.value) in _NOT_TYPES:
            index = expr.slice
            first = index.elts[:1] if isinstance(index, ast.Tuple) else [index]
            todo += [expr.value, *(first if last_name(expr.value) == "Annotated" else [])]
            continue
        if isinstance(expr, ast.Name):
            found |= scope.read(expr.id)
        elif isinstance(expr, ast.Attribute):
            found |= {expr.attr, attribute(expr.attr)}
        elif isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            todo += forward_ref(expr.value)
        todo += children(expr)
    return found


def last_name(node: ast.AST) -> str | None:
    match node:
        case ast.Name(id=name) | ast.Attribute(attr=name):
            return name
        case _:
            return None


def forward_ref(text: str) -> list[ast.AST]:
    """A string that may be a type written as a string: its expression, or nothing."""
    if len(text) > _FORWARD_REF_MAX or "\n" in text or not text.strip():
        return []
    try:
        return [locked.parse(text.strip(), "eval").body]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
