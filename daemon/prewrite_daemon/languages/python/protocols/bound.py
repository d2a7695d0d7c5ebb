"""Which names a scope binds, and which members a class declares (for ``protocols.scopes``).

A scope's names follow Python's rule, as pyright's binder does: any binding anywhere in a
function's body makes a name local unless declared ``global``/``nonlocal``; a class body's
names are its own; a comprehension binds its targets, and a walrus inside it binds in the
enclosing function. So every statement of a scope is seen before any of its reads is resolved:
``collect_bound`` is that first pass.

The walrus is the only binding inside an expression, so when the text may hold one (``:=``) the
first pass also searches every expression of the scope's statements, and keeps, per statement,
what it found (``Site``: each walrus and each comprehension on the way, with the comprehension
it sits in), so the second pass binds them without searching again: one expression walk per
file instead of two, the model's main cost.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.protocols.syntax import (
    COMPREHENSIONS,
    DEFS,
    all_args,
    blocks,
    body_of,
    captures,
    children,
    expressions,
    is_dunder,
    results,
    target_names,
)

if TYPE_CHECKING:
    from prewrite_daemon.languages.python.protocols.keys import Scope

# A walrus or a comprehension met in a statement's expressions, with the index (in the same
# list) of the comprehension whose scope it is in, -1 for the statement's own scope. Listed
# outer first: a comprehension's scope is made before what is inside it.
Site = tuple[ast.AST, int]
Sites = dict[int, list[Site]]  # id(statement) -> its sites, for statements that have any


def collect_bound(scope: Scope, node: ast.AST, sites: Sites | None) -> None:
    """The names ``node``'s own scope binds (see the module doc); ``sites`` None: the text has
    no ``:=``, else each statement's walrus sites are added to it."""
    if isinstance(node, COMPREHENSIONS):
        generators: list[ast.comprehension] = getattr(node, "generators", [])
        scope.bound |= {n for g in generators for n, a in target_names(g.target) if not a}
        return
    if isinstance(node, (*DEFS, ast.Lambda)):
        scope.bound |= {a.arg for a in all_args(node.args)}
    todo = list(body_of(node))
    while todo:
        stmt = todo.pop()
        scope.bound |= statement_names(stmt, scope)
        if sites is not None:
            found = walrus_sites(stmt)
            if found:
                sites[id(stmt)] = found
                scope.bound |= {n.target.id for n, _ in found if isinstance(n, ast.NamedExpr)}
        if not isinstance(stmt, (*DEFS, ast.ClassDef)):
            todo += [s for block in blocks(stmt) for s in block]
    scope.bound -= scope.declared_global | scope.declared_nonlocal


def walrus_sites(stmt: ast.stmt) -> list[Site]:
    """The walruses in the expressions of ``stmt`` (not its blocks, not inside a lambda, which
    binds in the lambda) and the comprehensions holding them (see ``Site``)."""
    found: list[Site] = []
    walrus = False
    todo: list[Site] = [(e, -1) for e in expressions(stmt)]
    while todo:
        expr, where = todo.pop()
        if isinstance(expr, ast.Lambda):
            continue
        if isinstance(expr, ast.NamedExpr):
            found.append((expr, where))
            walrus = True
        elif isinstance(expr, COMPREHENSIONS):
            found.append((expr, where))
            inner = len(found) - 1
            generators = expr.generators
            todo.append((generators[0].iter, where))  # the first iterable runs outside
            todo += [(g.iter, inner) for g in generators[1:]]
            todo += [(c, inner) for g in generators for c in g.ifs]
            todo += [(e, inner) for e in results(expr)]
            continue
        todo += [(c, where) for c in children(expr)]
    return found if walrus else []


def statement_names(stmt: ast.stmt, scope: Scope) -> set[str]:
    """The names ``stmt`` itself binds in ``scope`` (recording its ``global``/``nonlocal``)."""
    targets: list[ast.AST] = []
    match stmt:
        case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) | ast.ClassDef(name=name):
            return {name}
        case ast.Global(names=names):
            scope.declared_global |= set(names)
        case ast.Nonlocal(names=names):
            scope.declared_nonlocal |= set(names)
        case ast.Import(names=names) | ast.ImportFrom(names=names):
            return {(a.asname or a.name).split(".")[0] for a in names}
        case ast.Assign(targets=found) | ast.Delete(targets=found):
            targets = list(found)
        case (
            ast.AnnAssign(target=target)
            | ast.AugAssign(target=target)
            | ast.For(target=target)
            | ast.AsyncFor(target=target)
        ):
            targets = [target]
        case ast.With(items=items) | ast.AsyncWith(items=items):
            targets = [i.optional_vars for i in items if i.optional_vars is not None]
        case ast.Try(handlers=handlers) | ast.TryStar(handlers=handlers):
            return {h.name for h in handlers if h.name}
        case ast.Match(cases=cases):
            return {n for case in cases for n in captures(case.pattern)}
        case _ if type(stmt).__name__ == "TypeAlias":
            targets = [vars(stmt)["name"]]
        case _:
            pass
    return {n for t in targets for n, is_attribute in target_names(t) if not is_attribute}


def class_members(cls: ast.ClassDef, bound: set[str]) -> set[str]:
    """Non-dunder names of the class: what its body binds (``bound``) and the attributes its
    methods store on their first parameter (``self.x = ...``, ``self.x: T``, ``cls.x``)."""
    names = set(bound)
    todo = list(cls.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, DEFS):
            names |= _self_stores(stmt)
        elif not isinstance(stmt, ast.ClassDef):
            todo += [s for block in blocks(stmt) for s in block]
    return {n for n in names if not is_dunder(n)}


def _self_stores(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    params = [*func.args.posonlyargs, *func.args.args]
    if not params:
        return set()
    first = params[0].arg
    found: set[str] = set()
    todo = list(func.body)
    while todo:
        stmt = todo.pop()
        targets: list[ast.AST] = []
        match stmt:
            case ast.Assign(targets=assigned):
                targets = list(assigned)
            case (
                ast.AnnAssign(target=target) | ast.AugAssign(target=target) | ast.For(target=target)
            ):
                targets = [target]
            case ast.With(items=items):
                targets = [i.optional_vars for i in items if i.optional_vars is not None]
            case _:
                pass
        while targets:  # every node of the targets (``self.x[0] = ...`` stores ``x`` too)
            node = targets.pop()
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == first:
                    found.add(node.attr)
            targets += children(node)
        todo += [s for block in blocks(stmt) for s in block]  # nested functions too
    return found
