"""The rewrite of ``syntax.newer`` (its module docstring has the rules), on libcst's tree."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from prewrite_daemon.languages.python.syntax.newer import ALIAS_MARK, STRING_MARK, TYPE_PARAMS_MARK

if TYPE_CHECKING:
    from collections.abc import Sequence


def rewrite(source: str) -> str | None:
    """``source`` with its newer constructs rewritten, or None when libcst cannot parse it."""
    try:
        return cst.parse_module(source).visit(_Downlevel()).code
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
        value = _call(ALIAS_MARK, [parts, updated_node.value])
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
        return _call(STRING_MARK, _string_expressions(updated_node.parts))

    def leave_TemplatedString(
        self, original_node: cst.TemplatedString, updated_node: cst.TemplatedString
    ) -> cst.Call:
        return _call(STRING_MARK, _string_expressions(updated_node.parts))

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
        return _call(STRING_MARK, found)

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
