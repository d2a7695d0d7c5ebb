"""One module cut into the regions its importers can see, and the names each region mentions.

A *region* is the part of a module that decides the type of one symbol as pyright infers it for
another module: a module-level name (``bind``), a class's header (``class``), or one member of a
class (``member``). Each region is a list of *declarations* (with the ``if``/``try``/``with``
headers they sit under), each made of *units*: pieces of the AST scanned once for what they
mention. What a region holds, and why (see ``prewrite_daemon.languages.python.names.deps`` for
the rules):

- a function with a return annotation: decorators, parameters (annotations, defaults, names) and
  the annotation, plus whether its body is trivial and whether an ``async def`` yields; without
  a return annotation the whole body (pyright infers the return type from it);
- a class: its header (decorators, bases, keywords, type parameters); every member is its own
  region: methods as functions; ``self.x``/``cls.x`` stores in methods as the whole method
  (pyright infers ``x`` from its body, narrowing and reachability included);
- a variable: its annotation when declared (the value too when the annotation is a bare
  ``Final``/``TypeAlias``/``ClassVar``, or at class level, where dataclass-like fields make the
  default part of ``__init__``); otherwise every binding statement, ``global`` stores included;
- an import: the module and name it binds (kept as references, resolved by the graph);
- a PEP 695 ``type X = ...`` statement: the whole statement (on a daemon older than 3.12 the
  source reaches here rewritten by ``syntax.newer``, as an assignment).

Default-keep: a statement kind not listed in ``_MODELLED`` is recorded in ``unmodelled`` and
the module's change then reaches every importer (``symbol_changes``). Classes defined anywhere
but at module level (in a function, nested in a class) are not given regions of their own; the
units of their headers are kept (``inner_class_units``), so the graph can tell that a file
subclasses a name somewhere it does not model.

A name or member declared by an annotation, a ``def`` or a ``class`` keeps only those
declarations (``declarations``: what a region is made of, and which annotations declare).

What a unit mentions is read by ``prewrite_daemon.languages.python.names.mentions``; what a
statement binds and the parts of a ``def`` pyright reads, by ``node_facts``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.names.bodies import body_kind, live_body
from prewrite_daemon.languages.python.names.declarations import (
    ClassBuild,
    Declaration,
    DeclaringAnnotations,
    RegionBuild,
)
from prewrite_daemon.languages.python.names.mentions import Scan, import_bindings, scan
from prewrite_daemon.languages.python.names.node_facts import (
    TreeIndex,
    chain_of,
    first_param,
    index_tree,
    is_name,
    last_name,
    mutates_all,
    signature_comment,
    target_names,
    type_params,
    yields,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from prewrite_daemon.languages.python.names.declarations import Piece


class Collected:
    """The regions of one parsed module, with every unit scanned."""

    def __init__(self, rel: str, tree: ast.Module, dead_stores: bool = False) -> None:
        """``dead_stores``: drop dead stores from function bodies (``bodies.live_body``)."""
        self.rel = rel
        self.dead_stores = dead_stores
        self.units: list[tuple[tuple[ast.AST, ...], Scan]] = []
        self.regions: dict[tuple[str, str], RegionBuild] = {}
        self.classes: list[ClassBuild] = []
        self.import_nodes: list[ast.Import | ast.ImportFrom] = []
        self.all_statements: list[tuple[ast.stmt, bool]] = []  # (statement, under a guard)
        self.is_init = rel.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")
        self.fingerprints: dict[tuple[str, str], str] | None = None  # symbol_changes fills it
        self.body_units: set[int] = set()  # function bodies: class-level names are not visible
        self.unmodelled: set[str] = set()  # statement kinds no rule models (see the module doc)
        self.inner_class_units: list[int] = []  # one per header expression of a class not at
        # module level (a base, a keyword's value, a decorator)
        index = index_tree(tree)
        self._annotations = DeclaringAnnotations(index)
        self._block(tree.body, [], None)
        self._inner_classes(index)
        for _, found in self.units:
            self.import_nodes.extend(found.imports)
        for region in self.regions.values():
            region.keep_declared()

    def _inner_classes(self, index: TreeIndex) -> None:
        """A unit for the header of every class defined in a function or another class."""
        top = {id(c.node) for c in self.classes}
        for node in index.classes:
            if id(node) not in top:
                header = [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
                self.inner_class_units += [self.unit([expr]) for expr in header]

    def unit(self, nodes: Sequence[ast.AST]) -> int:
        self.units.append((tuple(nodes), scan(nodes)))
        return len(self.units) - 1

    def declare(
        self, owner: str, member: str, decl: Declaration, guards: list[Piece], kind: str = "bind"
    ) -> None:
        region = self.regions.get((owner, member))
        if region is None:
            region = RegionBuild("member" if member else kind, owner, member)
            self.regions[(owner, member)] = region
        elif kind == "class":
            region.kind = "class"
        decl.pieces = [*guards, *decl.pieces]
        region.declarations.append(decl)

    def _bind(self, cls: str | None, name: str, decl: Declaration, guards: list[Piece]) -> None:
        if cls is None:
            self.declare(name, "", decl, guards)
        else:
            self.declare(cls, name, decl, guards)

    def _block(self, body: list[ast.stmt], guards: list[Piece], cls: str | None) -> None:
        for stmt in body:
            self._statement(stmt, guards, cls)

    def _statement(self, stmt: ast.stmt, guards: list[Piece], cls: str | None) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self._function(stmt, guards, cls)
        elif isinstance(stmt, ast.ClassDef):
            if cls is None:
                self._class(stmt, guards)
            else:  # a nested class: one region, changed as a whole
                self._bind(
                    cls,
                    stmt.name,
                    Declaration("nested", [("nested", (self.unit([stmt]),))]),
                    guards,
                )
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            self._import(stmt, guards, cls)
        elif isinstance(stmt, ast.If):
            test = self.unit([stmt.test])
            self._block(stmt.body, [*guards, ("if", (test,))], cls)
            self._block(stmt.orelse, [*guards, ("else", (test,))], cls)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            self._try(stmt, guards, cls)
        elif _TYPE_ALIAS is not None and isinstance(stmt, _TYPE_ALIAS):
            name = cast("ast.Name", getattr(stmt, "name"))  # noqa: B009 (3.12+ only)
            self._bind(cls, name.id, Declaration("ann", [("type", (self.unit([stmt]),))]), guards)
        elif isinstance(stmt, _MODELLED):
            self._compound_or_simple(stmt, guards, cls)
        else:  # a statement kind no rule models: never silently nothing
            self.unmodelled.add(type(stmt).__name__)

    def _try(self, stmt: ast.Try | ast.TryStar, guards: list[Piece], cls: str | None) -> None:
        self._block(stmt.body, [*guards, ("try", ())], cls)
        for handler in stmt.handlers:
            kind = self.unit([handler.type] if handler.type else [])
            if handler.name:
                self._bind(cls, handler.name, Declaration("assign", [("except", (kind,))]), guards)
            self._block(handler.body, [*guards, ("except", (kind,))], cls)
        self._block(stmt.orelse, [*guards, ("try-else", ())], cls)
        self._block(stmt.finalbody, [*guards, ("finally", ())], cls)

    def _compound_or_simple(self, stmt: ast.stmt, guards: list[Piece], cls: str | None) -> None:
        """Loops, ``with`` and ``match`` bind their headers' targets and guard their bodies;
        anything else is one statement binding its targets."""
        header: list[ast.AST]
        targets: list[ast.AST]
        bodies: list[list[ast.stmt]]
        if isinstance(stmt, ast.For | ast.AsyncFor):
            header, targets, bodies = (
                [stmt.target, stmt.iter],
                [stmt.target],
                [stmt.body, stmt.orelse],
            )
        elif isinstance(stmt, ast.While):
            header, targets, bodies = [stmt.test], [], [stmt.body, stmt.orelse]
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            header = list(stmt.items)
            targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
            bodies = [stmt.body]
        elif isinstance(stmt, ast.Match):
            header = [stmt.subject, *(c.pattern for c in stmt.cases)]
            header += [c.guard for c in stmt.cases if c.guard is not None]
            targets, bodies = [c.pattern for c in stmt.cases], [c.body for c in stmt.cases]
        else:
            self._simple(stmt, guards, cls)
            return
        unit = self.unit(header)
        names = target_names(targets) | self.units[unit][1].walrus
        for name in sorted(names):
            self._bind(cls, name, Declaration("assign", [(type(stmt).__name__, (unit,))]), guards)
        for body in bodies:
            self._block(body, [*guards, (type(stmt).__name__, (unit,))], cls)

    def _simple(self, stmt: ast.stmt, guards: list[Piece], cls: str | None) -> None:
        whole = self.unit([stmt])
        names = set(self.units[whole][1].walrus)
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            self._bind(cls, stmt.target.id, self._annotated(stmt, whole, cls is not None), guards)
            if stmt.target.id == "__all__" and cls is None:
                self.all_statements.append((stmt, bool(guards)))
        elif isinstance(stmt, ast.Assign | ast.AugAssign | ast.Delete):
            targets = stmt.targets if isinstance(stmt, ast.Assign | ast.Delete) else [stmt.target]
            names |= target_names(targets)
        if cls is None and ("__all__" in names or mutates_all(stmt)):
            self.all_statements.append((stmt, bool(guards)))
            names.add("__all__")
        for name in sorted(names):
            self._bind(cls, name, Declaration("assign", [("assign", (whole,))]), guards)

    def _annotated(self, stmt: ast.AnnAssign, whole: int, in_class: bool) -> Declaration:
        """Declared: the annotation; the value too where it shapes the type (see the module doc)."""
        all_ = isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__"
        if in_class or all_ or not self._annotations.declares(stmt.annotation):
            return Declaration(
                "ann" if self._annotations.declares(stmt.annotation) else "assign",
                [("ann", (whole,))],
            )
        marker = "ann=" if stmt.value is not None else "ann"
        return Declaration("ann", [(marker, (self.unit([stmt.annotation]),))])

    def _function(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, guards: list[Piece], cls: str | None
    ) -> None:
        returns = [fn.returns] if fn.returns else []
        sig = self.unit([*fn.decorator_list, fn.args, *returns, *type_params(fn),
                         *signature_comment(fn)])  # fmt: skip
        body = self.unit(live_body(fn, self.dead_stores))
        self.body_units.add(body)
        whole = (sig, body)
        marker = f"{'async ' if isinstance(fn, ast.AsyncFunctionDef) else ''}def {fn.name}"
        abstract = any("abstract" in last_name(d) for d in fn.decorator_list)
        chains = tuple(chain_of(d) for d in fn.decorator_list)
        if fn.returns is None:
            decl = Declaration("def", [(marker, whole)], abstract=abstract, decorators=chains)
            self._bind(cls, fn.name, decl, guards)
        else:
            marker += f" {body_kind(fn.body)}"
            if isinstance(fn, ast.AsyncFunctionDef) and yields(fn):
                marker += " generator"  # an async generator and a coroutine differ to callers
            decl = Declaration("def", [(marker, (sig,))], abstract=abstract, decorators=chains)
            self._bind(cls, fn.name, decl, guards)
        facts = self.units[body][1]
        for name in sorted(facts.globals):
            self.declare(name, "", Declaration("store", [(f"global in {fn.name}", whole)]), [])
        first = first_param(fn)
        if cls is None or first is None:
            return
        for root, attr in sorted(facts.stores):
            if root == first:
                self.declare(
                    cls, attr, Declaration("store", [(f"store in {fn.name}", whole)]), guards
                )
        for stmt in facts.annotated_stores:
            target = stmt.target
            if isinstance(target, ast.Attribute) and is_name(target.value, first):
                unit = self.unit([stmt.annotation, *([stmt.value] if stmt.value else [])])
                role = "ann" if self._annotations.declares(stmt.annotation) else "store"
                decl = Declaration(role, [(f"ann in {fn.name}", (unit,))])
                self.declare(cls, target.attr, decl, guards)

    def _class(self, node: ast.ClassDef, guards: list[Piece]) -> None:
        header = self.unit([*node.decorator_list, *node.bases, *node.keywords, *type_params(node)])
        self.declare(node.name, "", Declaration("class", [(f"class {node.name}", (header,))]),
                     guards, kind="class")  # fmt: skip
        self.classes.append(ClassBuild(node.name, node, list(node.bases)))
        self._block(node.body, [], node.name)

    def _import(
        self, stmt: ast.Import | ast.ImportFrom, guards: list[Piece], cls: str | None
    ) -> None:
        self.import_nodes.append(stmt)
        for b in import_bindings(self.rel, stmt, self.is_init):
            if b.local == "*":  # binds what the module exports (resolved by the graph)
                decl = Declaration("import", [(f"star {b.target}", ())], module_refs=(b.target,))
                self.declare("*", "", decl, guards)
                continue
            refs = () if b.is_module else ((b.module, b.target),)
            marker = f"import {b.target} as {b.local}"
            decl = Declaration("import", [(marker, ())], refs, b.modules, target=b.target)
            self._bind(cls, b.local, decl, guards)


_TYPE_ALIAS: type[ast.stmt] | None = getattr(ast, "TypeAlias", None)
# Statements whose bindings ``_compound_or_simple`` knows (the rest of the modelled fragment is
# handled above it: functions, classes, imports, if, try).
_MODELLED = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Match, ast.Assign,
             ast.AnnAssign, ast.AugAssign, ast.Delete, ast.Expr, ast.Pass, ast.Raise, ast.Assert,
             ast.Global, ast.Nonlocal, ast.Return, ast.Break, ast.Continue)  # fmt: skip
