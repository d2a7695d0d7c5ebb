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
  source reaches here rewritten by ``newer_syntax``, as an assignment).

Default-keep: a statement kind not listed in ``_MODELLED`` is recorded in ``unmodelled`` and
the module's change then reaches every importer (``symbol_changes``). Classes defined anywhere
but at module level (in a function, nested in a class) are not given regions of their own; the
units of their headers are kept (``inner_class_units``), so the graph can tell that a file
subclasses a name somewhere it does not model.

A name or member declared by an annotation, a ``def`` or a ``class`` keeps only those
declarations: pyright types it by them and merely checks other assignments against them (an
error in the file itself).

What a unit mentions is read by ``prewrite_daemon.languages.python.names.mentions``.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.names.imports import body_kind
from prewrite_daemon.languages.python.names.mentions import Scan, import_bindings, scan

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

_NOT_DECLARING = frozenset({"Final", "ClassVar", "TypeAlias", "InitVar"})
_DROPPED_WHEN_DECLARED = frozenset({"assign", "store"})
_DECLARING = frozenset({"ann", "def", "class", "nested"})

Piece = tuple[str, tuple[int, ...]]  # a marker (what the piece is) and the units it is made of


@dataclass
class Declaration:
    role: str  # def, class, ann, assign, store, import, nested
    pieces: list[Piece]
    refs: tuple[tuple[str, str], ...] = ()  # from-import targets the file needs: (module, name)
    module_refs: tuple[str, ...] = ()  # modules only the binding depends on (what it re-exports)
    target: str = ""  # an import: what the name denotes (a module, or a name or submodule)
    abstract: bool = False
    decorators: tuple[str, ...] = ()  # a def's decorators as dotted chains ("?": not a chain)


@dataclass
class RegionBuild:
    kind: str  # bind, class, member
    owner: str
    member: str
    declarations: list[Declaration] = field(default_factory=lambda: list[Declaration]())

    @property
    def data(self) -> bool:
        """Declared other than by ``def``/``class`` (a field, to a dataclass-like class)."""
        return any(d.role in ("ann", "assign", "store", "import") for d in self.declarations)

    @property
    def nested_class(self) -> bool:
        return any(d.role == "nested" for d in self.declarations)

    @property
    def abstract(self) -> bool:
        return any(d.abstract for d in self.declarations)

    @property
    def decorators(self) -> frozenset[str]:
        return frozenset(c for d in self.declarations for c in d.decorators)


@dataclass
class ClassBuild:
    name: str
    node: ast.ClassDef
    bases: list[ast.expr]


class Collected:
    """The regions of one parsed module, with every unit scanned."""

    def __init__(self, rel: str, tree: ast.Module) -> None:
        self.rel = rel
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
        self._not_declaring = _NOT_DECLARING | _special_aliases(tree)
        self._foreign = _foreign_names(tree)
        self._block(tree.body, [], None)
        self._inner_classes(tree)
        for _, found in self.units:
            self.import_nodes.extend(found.imports)
        for region in self.regions.values():
            # pyright types a name by its declarations (annotation, def, class) when it has one
            declared = any(d.role in _DECLARING for d in region.declarations)
            if declared and region.owner != "__all__":  # every form of __all__ is read
                region.declarations = [
                    d for d in region.declarations if d.role not in _DROPPED_WHEN_DECLARED
                ]

    def _inner_classes(self, tree: ast.Module) -> None:
        """A unit for the header of every class defined in a function or another class."""
        top = {id(c.node) for c in self.classes}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and id(node) not in top:
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
        names = _target_names(targets) | self.units[unit][1].walrus
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
            names |= _target_names(targets)
        if cls is None and ("__all__" in names or _mutates_all(stmt)):
            self.all_statements.append((stmt, bool(guards)))
            names.add("__all__")
        for name in sorted(names):
            self._bind(cls, name, Declaration("assign", [("assign", (whole,))]), guards)

    def _annotated(self, stmt: ast.AnnAssign, whole: int, in_class: bool) -> Declaration:
        """Declared: the annotation; the value too where it shapes the type (see the module doc)."""
        all_ = isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__"
        if in_class or all_ or not self._declares(stmt.annotation):
            return Declaration(
                "ann" if self._declares(stmt.annotation) else "assign", [("ann", (whole,))]
            )
        marker = "ann=" if stmt.value is not None else "ann"
        return Declaration("ann", [(marker, (self.unit([stmt.annotation]),))])

    def _declares(self, annotation: ast.expr) -> bool:
        """A bare ``Final``/``ClassVar``/``TypeAlias`` (by any name the file gives it) leaves
        the type to the value; so may a bare name or attribute imported from a module outside
        the standard library (another module may call ``TypeAlias`` that): default-keep."""
        if _last_name(annotation) in self._not_declaring:
            return False
        root: ast.expr = annotation
        while isinstance(root, ast.Attribute):
            root = root.value
        return not (isinstance(root, ast.Name) and root.id in self._foreign)

    def _function(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, guards: list[Piece], cls: str | None
    ) -> None:
        returns = [fn.returns] if fn.returns else []
        sig = self.unit([*fn.decorator_list, fn.args, *returns, *_type_params(fn),
                         *_signature_comment(fn)])  # fmt: skip
        body = self.unit(fn.body)
        self.body_units.add(body)
        whole = (sig, body)
        marker = f"{'async ' if isinstance(fn, ast.AsyncFunctionDef) else ''}def {fn.name}"
        abstract = any("abstract" in _last_name(d) for d in fn.decorator_list)
        chains = tuple(_chain_of(d) for d in fn.decorator_list)
        if fn.returns is None:
            decl = Declaration("def", [(marker, whole)], abstract=abstract, decorators=chains)
            self._bind(cls, fn.name, decl, guards)
        else:
            marker += f" {body_kind(fn.body)}"
            if isinstance(fn, ast.AsyncFunctionDef) and _yields(fn):
                marker += " generator"  # an async generator and a coroutine differ to callers
            decl = Declaration("def", [(marker, (sig,))], abstract=abstract, decorators=chains)
            self._bind(cls, fn.name, decl, guards)
        facts = self.units[body][1]
        for name in sorted(facts.globals):
            self.declare(name, "", Declaration("store", [(f"global in {fn.name}", whole)]), [])
        first = _first_param(fn)
        if cls is None or first is None:
            return
        for root, attr in sorted(facts.stores):
            if root == first:
                self.declare(
                    cls, attr, Declaration("store", [(f"store in {fn.name}", whole)]), guards
                )
        for stmt in facts.annotated_stores:
            target = stmt.target
            if isinstance(target, ast.Attribute) and _is_name(target.value, first):
                unit = self.unit([stmt.annotation, *([stmt.value] if stmt.value else [])])
                decl = Declaration("ann" if self._declares(stmt.annotation) else "store",
                                   [(f"ann in {fn.name}", (unit,))])  # fmt: skip
                self.declare(cls, target.attr, decl, guards)

    def _class(self, node: ast.ClassDef, guards: list[Piece]) -> None:
        header = self.unit([*node.decorator_list, *node.bases, *node.keywords, *_type_params(node)])
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


def _chain_of(node: ast.expr) -> str:
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


def _target_names(targets: Iterable[ast.AST]) -> set[str]:
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


def _mutates_all(stmt: ast.stmt) -> bool:
    """``__all__.extend(...)``, ``.append(...)``, ``.remove(...)``: pyright honours these."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    func = stmt.value.func
    return isinstance(func, ast.Attribute) and _is_name(func.value, "__all__")


def _foreign_names(tree: ast.Module) -> frozenset[str]:
    """Names the file binds by importing from a module outside the standard library."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or module.partition(".")[0] not in sys.stdlib_module_names:
                names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.partition(".")[0] not in sys.stdlib_module_names:
                    names.add(a.asname or a.name.partition(".")[0])
    return frozenset(names)


def _special_aliases(tree: ast.Module) -> frozenset[str]:
    """Names the file binds to ``Final``, ``ClassVar``, ``TypeAlias`` or ``InitVar`` (``from
    typing import Final as F``, ``F = typing.Final``), to a fixpoint; the spelling of the
    imported or assigned name decides, whatever module it comes from (an over-approximation)."""
    bindings: list[tuple[str, str]] = []  # (bound name, the last name of what it denotes)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            bindings += [(a.asname, a.name) for a in node.names if a.asname]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            last = _last_name(node.value)
            bindings += [(t.id, last) for t in targets if isinstance(t, ast.Name) and last]
    found: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, source in bindings:
            if name not in found and (source in _NOT_DECLARING or source in found):
                found.add(name)
                grew = True
    return frozenset(found)


def _last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1]
    return ""


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _type_params(node: ast.AST) -> list[ast.AST]:
    return list(cast("list[ast.AST]", getattr(node, "type_params", [])))


def _first_param(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    if any(_last_name(d) == "staticmethod" for d in fn.decorator_list):
        return None
    args = [*fn.args.posonlyargs, *fn.args.args]
    return args[0].arg if args else None


def _signature_comment(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """``# type: (int) -> str``: pyright reads a signature from it (the comment is on the def
    node, outside the signature's parts)."""
    if not fn.type_comment:
        return []
    try:
        return [ast.parse(fn.type_comment, mode="func_type")]
    except (SyntaxError, ValueError):
        return [ast.Constant(fn.type_comment)]


def _yields(fn: ast.AsyncFunctionDef) -> bool:
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))
    return False
