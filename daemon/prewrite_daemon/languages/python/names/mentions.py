"""What a piece of Python source mentions, and the names each import statement binds.

A unit's mentions: every name with the attribute chain it roots (``a.b.c``; the chains that are
the one argument of ``vars()`` or ``dir()`` apart: typeshed types them ``Any``/``object`` and
returns a fixed type, so the object's own type decides nothing there), every attribute name,
names inside strings that parse as expressions (forward references, ``getattr(x, "m")``), type
comments, and ``match`` keyword patterns; plus the facts that shape regions (``global``,
``self.x`` stores, walrus targets, nested imports).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.syntax import locked

if TYPE_CHECKING:
    from collections.abc import Iterable

# a type expression: starts like one (no digit: "1a" only makes the parser warn), few symbols
_EXPRESSION_CHARS = re.compile(r"\s*[^\W\d'\"(\[][\w\s.,\[\]|'\"()]{0,499}")
_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
OPAQUE_CALLS = frozenset({"vars", "dir"})  # builtins whose one argument's type decides nothing


@dataclass
class Scan:
    """What one unit mentions, and the facts about it that shape the regions."""

    chains: set[str] = field(default_factory=lambda: set[str]())  # "a", "a.b.c": rooted at a name
    opaque: set[tuple[str, str]] = field(default_factory=lambda: set[tuple[str, str]]())  # vars(a)
    attrs: set[str] = field(default_factory=lambda: set[str]())
    strings: set[str] = field(default_factory=lambda: set[str]())  # chains read from strings
    stored: set[str] = field(default_factory=lambda: set[str]())  # names assigned, not read
    stored_attrs: set[str] = field(default_factory=lambda: set[str]())  # `x.a = …`: a, not read
    stores: set[tuple[str, str]] = field(default_factory=lambda: set[tuple[str, str]]())
    annotated_stores: list[ast.AnnAssign] = field(default_factory=lambda: list[ast.AnnAssign]())
    globals: set[str] = field(default_factory=lambda: set[str]())
    walrus: set[str] = field(default_factory=lambda: set[str]())
    imports: list[ast.Import | ast.ImportFrom] = field(
        default_factory=lambda: list[ast.Import | ast.ImportFrom]()
    )


def scan(nodes: Iterable[ast.AST]) -> Scan:
    """Walk ``nodes`` (whole subtrees) once, without recursion (deep expressions are fine)."""
    out = Scan()
    stack: list[object] = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            (out.chains if isinstance(node.ctx, ast.Load) else out.stored).add(node.id)
        elif isinstance(node, ast.Attribute):
            _scan_attribute(node, out, stack)
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                _scan_string(node.value, out)
        elif isinstance(node, ast.Call) and (call := _opaque_call(node)):
            stack.append(node.func)
            arg = node.args[0]
            if isinstance(arg, ast.Name):
                out.opaque.add((call, arg.id))
            elif isinstance(arg, ast.Attribute):
                _scan_attribute(arg, out, stack, opaque=call)
        elif isinstance(node, ast.AST) and not isinstance(node, ast.expr_context):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue  # a docstring or a bare literal: never a reference
            if isinstance(node, _FACT_NODES):
                _record_fact(node, out)
            for name in node._fields:  # ast.iter_child_nodes, without the generator
                child = getattr(node, name, None)
                if isinstance(child, list):
                    stack.extend(cast("list[object]", child))
                elif child is not None:
                    stack.append(child)
    return out


_FACT_NODES = (ast.Global, ast.NamedExpr, ast.AugAssign, ast.AnnAssign, ast.MatchClass,
               ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign,
               ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.arg)  # fmt: skip


def _record_fact(node: ast.AST, out: Scan) -> None:
    if isinstance(node, ast.Global):
        out.globals.update(node.names)
    elif isinstance(node, ast.NamedExpr):
        out.walrus.add(node.target.id)
    elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        out.chains.add(node.target.id)  # `x += y` reads x too
    elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
        out.attrs.add(node.target.attr)
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
        out.annotated_stores.append(node)
    elif isinstance(node, ast.MatchClass):
        out.attrs.update(node.kwd_attrs)
    elif isinstance(node, ast.Import | ast.ImportFrom):
        out.imports.append(node)
    comment = getattr(node, "type_comment", None)
    if isinstance(comment, str):
        _scan_type_comment(comment, out)


def _opaque_call(node: ast.Call) -> str:
    """``vars(a.b)``, ``dir(a)``: the builtin's name when the argument is one dotted chain."""
    func, args = node.func, node.args
    if not isinstance(func, ast.Name) or func.id not in OPAQUE_CALLS or len(args) != 1:
        return ""
    if node.keywords or not _is_chain(args[0]):
        return ""
    return func.id


def _is_chain(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)


def _scan_attribute(node: ast.Attribute, out: Scan, stack: list[object], opaque: str = "") -> None:
    parts = [node.attr]
    root: ast.expr = node.value
    while isinstance(root, ast.Attribute):
        parts.append(root.attr)
        root = root.value
    if isinstance(node.ctx, ast.Store):  # checked against a's type, which it does not read
        out.stored_attrs.add(parts[0])
        out.attrs.update(parts[1:])
    else:
        out.attrs.update(parts)
    if isinstance(root, ast.Name) and opaque:
        out.opaque.add((opaque, ".".join([root.id, *reversed(parts)])))
    elif isinstance(root, ast.Name):
        out.chains.add(".".join([root.id, *reversed(parts)]))
        if len(parts) == 1 and isinstance(node.ctx, ast.Store | ast.Del):
            out.stores.add((root.id, node.attr))
    else:
        stack.append(root)


def _scan_string(text: str, out: Scan) -> None:
    """Strings that parse as an expression may be forward references or attribute names."""
    if not _EXPRESSION_CHARS.fullmatch(text):
        return
    stripped = text.strip()
    if _DOTTED.fullmatch(stripped):
        out.strings.add(stripped)
        out.attrs.update(stripped.split("."))
        return
    try:
        expr = locked.parse(stripped, "eval")
    except (SyntaxError, ValueError):
        return
    inner = scan([expr.body])
    out.strings |= inner.chains | inner.strings
    out.attrs |= inner.attrs


def _scan_type_comment(comment: str, out: Scan) -> None:
    if comment.startswith("ignore"):
        return
    for mode in ("func_type", "eval"):
        try:
            tree = locked.parse(comment, mode)
        except (SyntaxError, ValueError):
            continue
        inner = scan([tree])
        out.chains |= inner.chains
        out.attrs |= inner.attrs
        return


@dataclass(frozen=True)
class ImportBinding:
    """One name an import statement binds: ``local`` denotes ``target`` (absolute, dotted)."""

    local: str  # "*" for a star import
    target: str
    module: str  # the part of ``target`` known to be a module path (not attributes)
    is_module: bool  # ``import a.b`` (binds ``a``) or ``import a.b as m``: a module object
    modules: tuple[str, ...]  # the modules the binding exposes (``a``, ``a.b`` for ``import a.b``)


def import_bindings(
    rel: str, stmt: ast.Import | ast.ImportFrom, is_init: bool
) -> list[ImportBinding]:
    """Each name ``stmt`` binds; relative imports resolve against ``rel``'s package."""
    out: list[ImportBinding] = []
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                out.append(ImportBinding(alias.asname, alias.name, alias.name, True, (alias.name,)))
            else:
                first = alias.name.split(".")[0]
                out.append(ImportBinding(first, first, first, True, module_prefixes(alias.name)))
        return out
    base = resolve_from(rel, stmt.level, stmt.module)
    if base is None:
        return out
    package = resolve_from(rel, 1, None)
    if is_init and stmt.level == 1 and stmt.module and package:
        # `from .sub import x` in a package's __init__ binds the submodule `sub` there too
        sub = f"{package}.{stmt.module.split('.')[0]}"
        out.append(ImportBinding(sub.rsplit(".", 1)[1], sub, sub, True, (sub,)))
    for alias in stmt.names:
        if alias.name == "*":
            out.append(ImportBinding("*", base, base, True, (base,)))
        else:
            target = f"{base}.{alias.name}" if base else alias.name
            out.append(ImportBinding(alias.asname or alias.name, target, base, False, (target,)))
    return out


def resolve_from(rel: str, level: int, module: str | None) -> str | None:
    """The absolute dotted module of ``from <level dots><module> import``; None when it climbs
    out of the tree (pyright reports that in the file itself)."""
    if not level:
        return module or ""
    package = rel.split("/")[:-1]
    up = level - 1
    if up > len(package):
        return None
    parts = package[: len(package) - up] if up else package
    dotted = ".".join([*parts, *([module] if module else [])])
    return dotted or None


def module_prefixes(dotted: str) -> tuple[str, ...]:
    pieces = dotted.split(".")
    return tuple(".".join(pieces[:i]) for i in range(1, len(pieces) + 1))
