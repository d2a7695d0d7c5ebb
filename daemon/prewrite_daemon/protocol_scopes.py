"""The bindings and classes of one module, by lexical scope (for ``protocol_names``).

Which names a scope binds follows Python's rule, as pyright's binder does: any binding anywhere
in a function's body makes a name local unless declared ``global``/``nonlocal``; a class body's
names are its own; a comprehension binds its targets, and a walrus inside it binds in the
enclosing function. ``protocol_keys`` says what each binding's value may be.

Walked statement by statement: every binding but the walrus is a statement, and no class can be
defined inside an expression, so expressions are searched only for a walrus, and only when the
text has ``:=`` (the caller says so; an expression walk costs three times the parse).

What is bound, with what source: assignments (annotated ones with their declared type too:
``P: type[Protocol]`` makes ``class C(P)`` a Protocol), ``for``/``with``/``match`` targets (from
what they iterate, enter, match), ``from m import X as P`` (from ``X``), ``type P = ...``,
parameters (their annotation and default), a walrus, and a decorated function's name (a call's
result). Not modelled: a class decorator is taken to return its class (as pyright takes
``dataclass`` or ``final``; one returning Protocol would be missed), and ``import m as P``
binds a module, never a class.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from prewrite_daemon.protocol_keys import (
    CALLED,
    COMPREHENSIONS,
    Scope,
    attribute,
    mentions,
    value_of,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

Alias = tuple[str, frozenset[str]]
ClassFact = tuple[frozenset[str], frozenset[str]]
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPOUND = frozenset(
    {*_DEFS, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith}
    | {ast.Try, ast.TryStar, ast.Match}
)


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


class ModuleFacts:
    """Walks one module once; ``aliases`` and ``classes`` are the result. ``walrus`` False: the
    text has no ``:=``, so expressions need no search."""

    def __init__(self, where: str, walrus: bool = True) -> None:
        self.where = where
        self.walrus = walrus
        self.aliases: list[Alias] = []
        self.classes: list[ClassFact] = []
        self._scopes: dict[int, Scope] = {}

    def run(self, tree: ast.AST) -> None:
        self._block(_body(tree), self.scope_of(tree, None))

    def scope_of(self, node: ast.AST, parent: Scope | None) -> Scope:
        """The scope ``node`` opens (made once: values and statements share it)."""
        found = self._scopes.get(id(node))
        if found is None:
            kind = "module" if parent is None else "function"
            kind = "class" if isinstance(node, ast.ClassDef) else kind
            kind = "comprehension" if isinstance(node, COMPREHENSIONS) else kind
            line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
            found = Scope(kind, f"{self.where}:{line}:{col}", parent)
            collect_bound(found, node, self.walrus)
            self._scopes[id(node)] = found
            if isinstance(node, COMPREHENSIONS) and parent is not None:
                for i, gen in enumerate(node.generators):  # the first iterable runs outside
                    self._bind(gen.target, self._value(gen.iter, found if i else parent), found)
        return found

    def _value(self, node: ast.AST, scope: Scope) -> set[str]:
        return value_of(node, scope, self.scope_of)

    def _block(self, statements: list[ast.stmt], scope: Scope) -> None:
        for stmt in statements:
            if self.walrus:
                self._walruses(stmt, scope)
            if isinstance(stmt, _DEFS):
                self._function(stmt, scope)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, scope)
            else:
                for target, sources in self._bindings(stmt, scope):
                    self._bind(target, sources, scope)
                for block in blocks(stmt):
                    self._block(block, scope)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        inner = self.scope_of(node, scope)
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
        pairs = [*zip(positional, [*defaults, *args.defaults], strict=True)]
        pairs += [*zip(args.kwonlyargs, args.kw_defaults, strict=True)]
        pairs += [(a, None) for a in (args.vararg, args.kwarg) if a is not None]
        for arg, default in pairs:
            sources = mentions(arg.annotation, scope)
            if default is not None:
                sources |= self._value(default, scope)
            self._bind(ast.Name(arg.arg), sources, inner)
        self._block(node.body, inner)
        if node.decorator_list:  # the name is bound to the decorator's result: a call's
            self._bind(ast.Name(node.name), {CALLED}, scope)

    def _class(self, node: ast.ClassDef, scope: Scope) -> None:
        bases = set[str]().union(*(self._value(b, scope) for b in node.bases))
        inner = self.scope_of(node, scope)
        self.classes.append((frozenset(bases), frozenset(class_members(node, inner.bound))))
        self._block(node.body, inner)

    def _bindings(self, stmt: ast.stmt, scope: Scope) -> Iterator[tuple[ast.AST, set[str]]]:
        """(target, the keys its value may be) of each binding ``stmt`` makes."""
        match stmt:
            case ast.Assign(targets=targets, value=value):
                sources = self._value(value, scope)
                yield from ((t, sources) for t in targets)
            case ast.AnnAssign(target=target, annotation=annotation, value=value):
                sources = mentions(annotation, scope)  # a declared type counts
                yield target, sources | (self._value(value, scope) if value else set())
            case ast.AugAssign(target=target, value=value):
                yield target, self._value(value, scope)
            case ast.For(target=target, iter=source) | ast.AsyncFor(target=target, iter=source):
                yield target, self._value(source, scope)
            case ast.With(items=items) | ast.AsyncWith(items=items):
                for item in items:
                    if item.optional_vars is not None:
                        yield item.optional_vars, self._value(item.context_expr, scope)
            case ast.ImportFrom(names=names):
                for alias in names:
                    if alias.name != "*":
                        yield ast.Name(alias.asname or alias.name), {alias.name}
            case ast.Match(subject=subject, cases=cases):
                subject_keys = self._value(subject, scope)
                for case in cases:
                    yield from ((ast.Name(n), subject_keys) for n in captures(case.pattern))
            case _ if type(stmt).__name__ == "TypeAlias":  # ``type P = ...`` (3.12+)
                fields = vars(stmt)
                name, value = fields.get("name"), fields.get("value")
                if isinstance(name, ast.AST) and isinstance(value, ast.AST):
                    yield name, mentions(value, scope)
            case _:
                pass

    def _bind(self, target: ast.AST, sources: set[str], scope: Scope) -> None:
        for name, is_attribute in target_names(target):
            for key in {attribute(name)} if is_attribute else scope.store(name):
                if sources - {key}:
                    self.aliases.append((key, frozenset(sources - {key})))

    def _walruses(self, stmt: ast.stmt, scope: Scope) -> None:
        """Bind every ``name := value`` in the expressions of ``stmt`` (not its blocks)."""
        todo = [(e, scope) for e in expressions(stmt)]
        while todo:
            expr, where = todo.pop()
            if isinstance(expr, ast.Lambda):
                continue  # binds in the lambda: nothing there can define a class
            if isinstance(expr, ast.NamedExpr):
                self._bind(expr.target, self._value(expr.value, where), where.walrus_scope())
            if isinstance(expr, COMPREHENSIONS):
                inner = self.scope_of(expr, where)
                generators = expr.generators
                todo.append((generators[0].iter, where))  # the first iterable runs outside
                todo += [(g.iter, inner) for g in generators[1:]]
                todo += [(c, inner) for g in generators for c in g.ifs]
                todo += [(e, inner) for e in _results(expr)]
                continue
            todo += [(c, where) for c in ast.iter_child_nodes(expr)]


def collect_bound(scope: Scope, node: ast.AST, walrus: bool) -> None:
    """The names ``node``'s own scope binds (see the module doc)."""
    if isinstance(node, COMPREHENSIONS):
        generators: list[ast.comprehension] = getattr(node, "generators", [])
        scope.bound |= {n for g in generators for n, a in target_names(g.target) if not a}
        return
    if isinstance(node, (*_DEFS, ast.Lambda)):
        scope.bound |= {a.arg for a in _all_args(node.args)}
    todo = list(_body(node))
    while todo:
        stmt = todo.pop()
        scope.bound |= _statement_names(stmt, scope)
        if walrus:
            scope.bound |= {
                e.target.id
                for e in walk_expressions(expressions(stmt))
                if isinstance(e, ast.NamedExpr)
            }
        if not isinstance(stmt, (*_DEFS, ast.ClassDef)):
            todo += [s for block in blocks(stmt) for s in block]
    scope.bound -= scope.declared_global | scope.declared_nonlocal


def _statement_names(stmt: ast.stmt, scope: Scope) -> set[str]:
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
        if isinstance(stmt, _DEFS):
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
        targets: list[ast.expr] = []
        match stmt:
            case ast.Assign(targets=assigned):
                targets = assigned
            case (
                ast.AnnAssign(target=target) | ast.AugAssign(target=target) | ast.For(target=target)
            ):
                targets = [target]
            case ast.With(items=items):
                targets = [i.optional_vars for i in items if i.optional_vars is not None]
            case _:
                pass
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    if node.value.id == first:
                        found.add(node.attr)
        todo += [s for block in blocks(stmt) for s in block]  # nested functions too
    return found


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
    for child in ast.iter_child_nodes(stmt):
        if isinstance(child, ast.ExceptHandler):
            found += [child.type] if child.type is not None else []
        elif isinstance(child, ast.match_case):
            found += [child.guard] if child.guard is not None else []
        elif not isinstance(child, ast.stmt):
            found.append(child)
    return found


def walk_expressions(roots: list[ast.AST]) -> Iterator[ast.AST]:
    """Every node under ``roots``, lambdas' insides excepted (they bind in the lambda)."""
    todo = list(roots)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.Lambda):
            todo += ast.iter_child_nodes(node)


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


def _results(node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> list[ast.expr]:
    return [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]


def _body(node: ast.AST) -> list[ast.stmt]:
    body = getattr(node, "body", None)  # a lambda's body is an expression
    if not isinstance(body, list):
        return []
    return [s for s in cast("list[ast.AST]", body) if isinstance(s, ast.stmt)]


def _all_args(args: ast.arguments) -> list[ast.arg]:
    rest = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *rest]
