"""Python newer than the daemon's own, read anyway: libcst's grammar, rewritten into the old one.

The daemon may run on an older Python than the project targets (3.11 here, a project on 3.13 or
3.14). ``ast.parse`` then refuses valid code — a PEP 695 ``type`` statement, a generic class, a
PEP 701 f-string, a PEP 750 t-string, a PEP 758 ``except A, B:`` — and two things went wrong:
the parse rung refused what the project's own checker accepts (a wrong red), and the planner
treated the file as unparsable (sound, but every importer is rechecked).

libcst parses the grammar of Python 3.0 through 3.15 whatever Python runs it (its parser is
native). ``downlevel`` rewrites only the newer constructs into old syntax that *mentions the
same names* — what the planner reads is which names each region mentions, and a fingerprint
that differs whenever the region does — then ``ast`` parses the result:

- ``type X[T: B = D] = V``      → ``X = __prewrite_type_alias__(("T", B, D), V)``
- ``class C[T: B](Base): ...``  → ``@__prewrite_type_params__("T", B)`` ``class C(Base): ...``
  (the marker tells ``name_summary`` the class infers its variance; it is not a decorator that
  synthesizes anything); the same for ``def f[T](...)``
- an f-string or t-string       → ``__prewrite_fstring__(e1, e2, ...)`` (its expressions and
  those of its format specs, in order; the literal text is not a reference)
- ``except A, B:``              → ``except (A, B):``

Anything else that ``ast`` still refuses stays refused (None): the caller's safe path.
"""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from collections.abc import Sequence

TYPE_PARAMS_MARK = "__prewrite_type_params__"
_ALIAS_MARK = "__prewrite_type_alias__"
_STRING_MARK = "__prewrite_fstring__"
_MAX_SOURCE = 8 * 1024 * 1024  # libcst keeps a full tree with whitespace: bound what it reads


def parse_newer(source: str) -> ast.Module | None:
    """The tree of ``source`` read with the newest grammar and rewritten (see the module doc);
    None when libcst refuses it too or the rewrite still does not parse."""
    code = downlevel(source)
    if code is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(code, type_comments=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def downlevel(source: str) -> str | None:
    """``source`` with its newer constructs rewritten, or None when libcst cannot parse it."""
    if len(source) > _MAX_SOURCE:
        return None
    try:
        module = cst.parse_module(source)
        return module.visit(_Downlevel()).code
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None
    except Exception:
        return None


def _call(name: str, args: Sequence[cst.BaseExpression]) -> cst.Call:
    return cst.Call(cst.Name(name), [cst.Arg(a) for a in args])


def _param_parts(params: cst.TypeParameters | None) -> list[cst.BaseExpression]:
    """A type parameter list as expressions: each name (as a string) with its bound and default."""
    out: list[cst.BaseExpression] = []
    for p in params.params if params is not None else ():
        out.append(cst.SimpleString(repr(p.param.name.value)))
        if isinstance(p.param, cst.TypeVar) and p.param.bound is not None:
            out.append(p.param.bound)
        if p.default is not None:
            out.append(p.default)
    return out


class _Downlevel(cst.CSTTransformer):
    def leave_TypeAlias(
        self, original_node: cst.TypeAlias, updated_node: cst.TypeAlias
    ) -> cst.Assign:
        parts = cst.Tuple([cst.Element(e) for e in _param_parts(updated_node.type_parameters)])
        value = _call(_ALIAS_MARK, [parts, updated_node.value])
        return cst.Assign([cst.AssignTarget(updated_node.name)], value)

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        if updated_node.type_parameters is None:
            return updated_node
        mark = cst.Decorator(_call(TYPE_PARAMS_MARK, _param_parts(updated_node.type_parameters)))
        return updated_node.with_changes(
            type_parameters=None, decorators=[*updated_node.decorators, mark]
        )

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        if updated_node.type_parameters is None:
            return updated_node
        mark = cst.Decorator(_call(TYPE_PARAMS_MARK, _param_parts(updated_node.type_parameters)))
        return updated_node.with_changes(
            type_parameters=None, decorators=[*updated_node.decorators, mark]
        )

    def leave_FormattedString(
        self, original_node: cst.FormattedString, updated_node: cst.FormattedString
    ) -> cst.Call:
        return _call(_STRING_MARK, _string_expressions(updated_node.parts))

    def leave_TemplatedString(
        self, original_node: cst.TemplatedString, updated_node: cst.TemplatedString
    ) -> cst.Call:
        return _call(_STRING_MARK, _string_expressions(updated_node.parts))

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
        return False  # its parts are rebuilt whole in ``leave`` (libcst checks them on rebuild)

    def leave_ConcatenatedString(
        self, original_node: cst.ConcatenatedString, updated_node: cst.ConcatenatedString
    ) -> cst.BaseExpression:
        parts = _concatenated(updated_node)
        if all(isinstance(part, cst.SimpleString) for part in parts):
            return updated_node
        found: list[cst.BaseExpression] = []
        for part in parts:
            if isinstance(part, cst.FormattedString | cst.TemplatedString):
                for expression in _string_expressions(part.parts):
                    rewritten = expression.visit(_Downlevel())
                    if isinstance(rewritten, cst.BaseExpression):
                        found.append(rewritten)
        return _call(_STRING_MARK, found)

    def leave_ExceptHandler(
        self, original_node: cst.ExceptHandler, updated_node: cst.ExceptHandler
    ) -> cst.ExceptHandler:
        return updated_node.with_changes(type=_parenthesized(updated_node.type))

    def leave_ExceptStarHandler(
        self, original_node: cst.ExceptStarHandler, updated_node: cst.ExceptStarHandler
    ) -> cst.ExceptStarHandler:
        return updated_node.with_changes(type=_parenthesized(updated_node.type))


def _concatenated(node: cst.ConcatenatedString) -> list[cst.BaseString]:
    out: list[cst.BaseString] = []
    for side in (node.left, node.right):
        out += _concatenated(side) if isinstance(side, cst.ConcatenatedString) else [side]
    return out


def _parenthesized(kind: cst.BaseExpression | None) -> cst.BaseExpression | None:
    if isinstance(kind, cst.Tuple) and not kind.lpar:
        return kind.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return kind


def _string_expressions(parts: Sequence[cst.CSTNode]) -> list[cst.BaseExpression]:
    """The expressions of an f-string's (or t-string's) parts, format specs included."""
    out: list[cst.BaseExpression] = []
    for part in parts:
        expression = getattr(part, "expression", None)
        if isinstance(expression, cst.BaseExpression):
            out.append(expression)
        spec = getattr(part, "format_spec", None)
        if isinstance(spec, list | tuple):
            out.extend(_string_expressions(list(spec)))  # pyright: ignore[reportUnknownArgumentType]
    return out
