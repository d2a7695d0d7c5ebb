"""The bindings and classes of one module, by lexical scope (for ``protocols.names``).

Two passes per scope: ``protocols.bound`` first collects the names it binds (a read means a local
only if the scope binds the name anywhere), then ``ModuleFacts`` walks its statements in order,
recording each binding with the keys its value may be (``protocols.keys``) and each class with
its base keys and members, and opens the scopes nested in it.

Walked statement by statement: every binding but the walrus is a statement, and no class can be
defined inside an expression, so expressions are searched only for a walrus, only when the
text has ``:=`` (the caller says so), and only once (``protocols.bound`` keeps what it found).

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
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.protocols.bound import Sites, class_members, collect_bound
from prewrite_daemon.languages.python.protocols.keys import (
    CALLED,
    Scope,
    attribute,
    mentions,
    value_of,
)
from prewrite_daemon.languages.python.protocols.syntax import (
    COMPREHENSIONS,
    DEFS,
    blocks,
    body_of,
    captures,
    has_walrus,
    target_names,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

Alias = tuple[str, frozenset[str]]
ClassFact = tuple[frozenset[str], frozenset[str]]


class ModuleFacts:
    """Walks one module once; ``aliases`` and ``classes`` are the result. ``walrus`` False: the
    text has no ``:=``, so expressions need no search."""

    def __init__(self, where: str, walrus: bool = True) -> None:
        self.where = where
        self.walrus = walrus
        self.aliases: list[Alias] = []
        self.classes: list[ClassFact] = []
        self._scopes: dict[int, Scope] = {}
        self._sites: Sites | None = {} if walrus else None

    def run(self, tree: ast.AST) -> None:
        if self._sites is not None and not has_walrus(tree):
            self._sites = None  # the caller could not tell: a walk without scopes can
        self._block(body_of(tree), self.scope_of(tree, None))

    def scope_of(self, node: ast.AST, parent: Scope | None) -> Scope:
        """The scope ``node`` opens (made once: values and statements share it)."""
        found = self._scopes.get(id(node))
        if found is None:
            kind = "module" if parent is None else "function"
            kind = "class" if isinstance(node, ast.ClassDef) else kind
            kind = "comprehension" if isinstance(node, COMPREHENSIONS) else kind
            line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
            found = Scope(kind, f"{self.where}:{line}:{col}", parent)
            collect_bound(found, node, self._sites)
            self._scopes[id(node)] = found
            if isinstance(node, COMPREHENSIONS) and parent is not None:
                for i, gen in enumerate(node.generators):  # the first iterable runs outside
                    self._bind(gen.target, self._value(gen.iter, found if i else parent), found)
        return found

    def _value(self, node: ast.AST, scope: Scope) -> set[str]:
        return value_of(node, scope, self.scope_of)

    def _block(self, statements: list[ast.stmt], scope: Scope) -> None:
        for stmt in statements:
            if self._sites:
                self._walruses(stmt, scope)
            if isinstance(stmt, DEFS):
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
        """Bind every ``name := value`` in the expressions of ``stmt`` (not its blocks), from
        the sites ``collect_bound`` found, opening the comprehensions they are in."""
        assert self._sites is not None
        opened: list[Scope] = []
        for node, inside in self._sites.get(id(stmt), ()):
            where = scope if inside < 0 else opened[inside]
            if isinstance(node, ast.NamedExpr):
                self._bind(node.target, self._value(node.value, where), where.walrus_scope())
            opened.append(self.scope_of(node, where) if isinstance(node, COMPREHENSIONS) else where)
