"""A sound upper bound on pyright's *code-flow complexity* of a function, from its ``ast`` alone.

pyright's binder gives every function a complexity C (``codeFlowComplexity``): 0.025 for each
flow node it creates while binding the function's body (after the body's start node), plus, for
every branch or loop label it finishes and keeps, the label's number of antecedents minus one.
The checker reads C: at C >= 8 it stops inferring a return type per call site (the arguments'
types no longer refine an unannotated function's return type), at C >= 32 it does not infer the
return type of a function with two or more parameters, none annotated, at all, and above 768 it
does not analyse the function. So an edit that changes no type can still change other modules'
types by moving C across a threshold: a *dead store* (``name = <literal>`` that nothing reads)
adds a flow node and may revive a merge label. When the bound is below ``CALL_SITE_LIMIT`` for
both versions of a function, none of these thresholds can move.

The model is pyright 1.1.414's binder (``binder.ts``); other versions differ (older ones count
0.05 per flow node, and which nodes and labels exist changes between releases). The bound U is
exact arithmetic on ``Fraction``: U >= C, with equality for most functions. It was checked
against the real C logged by an instrumented pyright 1.1.414 (``typeCheckingMode: off``,
``pythonVersion: 3.12``) on 98,454 functions (7,016 of the standard library, 31,394 of
site-packages and prewrite, ~60,000 generated adversarially): no function had U < C, U = C for
~75% of them, and of the functions with C < 8, U < 8 for 97-98%. A small logged corpus
(tests/data/complexity/) keeps checking it (tests/unit/test_complexity_bound.py).

Whatever the bound does not model with certainty gives ``None`` (unknown): a ``match`` statement
(the bound would need the source for redundant parentheses around patterns), PEP 695 type
parameters and ``type`` statements, any statement or expression kind it does not list, and an
``ast`` too deep to walk. Not seen at all: ``# type:`` comments, which ``ast`` drops unless
parsed with ``type_comments=True``; pyright walks an assignment's type comment, which adds flow
nodes only if it holds a call, a boolean operator, a comprehension or the like.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["CALL_SITE_LIMIT", "complexity_bound"]

CALL_SITE_LIMIT = Fraction(8)  # pyright turns off call-site return type inference at C >= 8

# Counted in units of 1/40, pyright's 0.025 per flow node, so the sums stay small integers.
_UNITS = 40
_NODE = 1  # one flow node
_EDGE = 40  # one antecedent of a finished label, or the -1 of a label with at least one

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_Comprehension = ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
# Expressions the binder walks without a flow node or label of their own (Yield's value is
# walked by _bindYield); a Name or a Constant adds nothing.
_PLAIN = (ast.Attribute, ast.Subscript, ast.Starred, ast.Slice, ast.Await)
_CONTAINERS = (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.JoinedStr, ast.FormattedValue)
_TRANSPARENT = (*_PLAIN, *_CONTAINERS, ast.Yield, ast.YieldFrom)


class _Unknown(Exception):
    """A construct the bound does not model."""


def complexity_bound(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Fraction | None:
    """U >= pyright's complexity of ``fn``'s own body, or None when it cannot be bounded here.

    Nested ``def`` bodies are bound by pyright separately (only their header counts here); the
    body of a class nested in ``fn`` is bound inline and counts."""
    try:
        if _refused(fn):
            return None
        return Fraction(_Bound().function(fn), _UNITS)
    except (_Unknown, RecursionError):
        return None


def _refused(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A ``match`` statement anywhere in fn's own code, or type parameters in fn or its code."""
    stack: list[ast.AST] = [fn]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Match) or bool(getattr(node, "type_params", None)):
            return True
        if node is fn or not isinstance(node, _DEFS):
            children = ast.iter_child_nodes(node)
            stack.extend(c for c in children if isinstance(c, ast.stmt | ast.excepthandler))
    return False


def _terminates(s: ast.stmt) -> bool:
    """Whether the flow after s is unreachable, for the syntactic cases the bound relies on."""
    if isinstance(s, ast.Return | ast.Raise | ast.Break | ast.Continue):
        return True
    if isinstance(s, ast.If) and s.orelse:
        return _ends(s.body) and _ends(s.orelse)
    return False


def _ends(body: list[ast.stmt]) -> bool:
    return any(_terminates(s) for s in body)


def _leaves(e: ast.expr) -> int:
    """The conditions _bindConditional reaches through ``not``, ``and`` and ``or``."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return _leaves(e.operand)
    if isinstance(e, ast.BoolOp):
        return sum(_leaves(v) for v in e.values)
    return 1


class _Bound:
    """U in 1/40 units. ``eps`` is the weight, in units, of one potential edge into each of
    the current except targets (an event that may raise); ``tg`` whether pyright's true/false
    targets are set while an expression is walked."""

    def __init__(self) -> None:
        self.returns = 0

    def function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
        a = fn.args
        params = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
        params += (a.vararg is not None) + (a.kwarg is not None)
        # The start node is created before the count is reset: parameters and the return label.
        w = _NODE * (params + 1) + self.stmts(fn.body, 0)
        # Return label: each Return added its edge, the fallthrough edge pays the label's -1;
        # without a fallthrough (a terminating body) a Return pays it.
        if _ends(fn.body) and self.returns > 0:
            w -= _EDGE
        return w

    def stmts(self, body: list[ast.stmt], eps: int) -> int:
        w = 0
        for s in body:
            w += self.stmt(s, eps)
            if _terminates(s):  # pyright does not bind unreachable statements
                break
        return w

    def target(self, t: ast.expr, eps: int, tg: bool = False) -> int:
        """_createAssignmentTargetFlowNodes(t) with its sub-expressions walked."""
        if isinstance(t, ast.Name):
            return _NODE
        if isinstance(t, ast.Attribute):  # a member access store may raise
            return _NODE + eps + self.expr(t.value, tg, eps)
        if isinstance(t, ast.Subscript):
            return _NODE + self.expr(t.value, tg, eps) + self.expr(t.slice, tg, eps)
        if isinstance(t, ast.Tuple | ast.List):
            return sum(self.target(e, eps, tg) for e in t.elts)
        if isinstance(t, ast.Starred):
            return self.target(t.value, eps, tg)
        return self.expr(t, tg, eps)

    def cond(self, e: ast.expr, eps: int) -> int:
        """_bindConditional: a leaf adds 2 edges and up to 2 condition nodes (each may raise)."""
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return self.cond(e.operand, eps)
        if isinstance(e, ast.BoolOp):
            return self.expr(e, True, eps)
        return 2 * _EDGE + 2 * (_NODE + eps) + self.expr(e, True, eps)

    def exprs(self, es: Sequence[ast.expr | None], tg: bool, eps: int, deco: bool = False) -> int:
        return sum(self.expr(e, tg, eps, deco) for e in es)

    def expr(self, e: ast.expr | None, tg: bool, eps: int, deco: bool = False) -> int:
        """``deco``: inside a decorator, where a call creates no call node."""
        if e is None or isinstance(e, ast.Name | ast.Constant):
            return 0
        if isinstance(e, ast.Call):
            w = 0 if deco else _NODE + eps
            w += self.expr(e.func, False, eps, deco) + self.exprs(e.args, False, eps, deco)
            return w + self.exprs([k.value for k in e.keywords], False, eps, deco)
        if isinstance(e, ast.BoolOp):
            w = (len(e.values) - 1) * (_NODE - _EDGE)  # preRight labels
            if not tg:
                w += _NODE - _EDGE  # postRight label
            return w + sum(self.cond(v, eps) for v in e.values)
        if isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not) and tg:
                return self.cond(e.operand, eps)
            return self.expr(e.operand, False, eps, deco)
        if isinstance(e, ast.BinOp):
            return self.expr(e.left, False, eps, deco) + self.expr(e.right, False, eps, deco)
        if isinstance(e, ast.Compare):
            return self.exprs([e.left, *e.comparators], False, eps, deco)
        if isinstance(e, ast.IfExp):  # true, false, post labels; post has <= 2 edges
            w = 3 * _NODE - _EDGE + self.cond(e.test, eps)
            return w + self.expr(e.body, tg, eps, deco) + self.expr(e.orelse, tg, eps, deco)
        if isinstance(e, ast.NamedExpr):
            return _NODE + self.expr(e.value, False, eps, deco)
        if isinstance(e, ast.Lambda):  # the body is deferred; defaults are walked here
            return _NODE + self.exprs([*e.args.defaults, *e.args.kw_defaults], tg, eps, deco)
        if isinstance(e, _COMPREHENSIONS):
            return self.comprehension(e, tg, eps, deco)
        if isinstance(e, _TRANSPARENT):
            children = [c for c in ast.iter_child_nodes(e) if isinstance(c, ast.expr)]
            return self.exprs(children, tg, eps, deco)
        raise _Unknown(type(e).__name__)

    def comprehension(self, e: _Comprehension, tg: bool, eps: int, deco: bool) -> int:
        gens = e.generators
        w = self.expr(gens[0].iter, tg, eps, deco) + _NODE  # falseLabel: end edge pays its -1
        for i, g in enumerate(gens):
            if i:
                w += self.expr(g.iter, tg, eps, deco)
            w += self.target(g.target, eps, tg)
            for c in g.ifs:
                w += _NODE - _EDGE + self.cond(c, eps)  # trueLabel
        if isinstance(e, ast.DictComp):
            return w + self.expr(e.key, tg, eps, deco) + self.expr(e.value, tg, eps, deco)
        return w + self.expr(e.elt, tg, eps, deco)

    def annotation(self, a: ast.expr | None, eps: int) -> int:
        """An annotation, and the expressions in its strings (pyright parses and walks them)."""
        if a is None:
            return 0
        w = self.expr(a, False, eps)
        for c in ast.walk(a):
            if isinstance(c, ast.Constant) and isinstance(c.value, str):
                try:
                    w += self.expr(ast.parse(c.value.strip(), mode="eval").body, False, eps)
                except (SyntaxError, ValueError):
                    pass
        return w

    def nested_def(self, s: ast.FunctionDef | ast.AsyncFunctionDef, eps: int) -> int:
        """Only the header: the body is deferred and has its own complexity."""
        a = s.args
        w = 2 * _NODE + self.exprs(s.decorator_list, False, eps, deco=True)  # annotation, name
        w += self.exprs([*a.defaults, *(d for d in a.kw_defaults if d is not None)], False, eps)
        for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
            if p is not None:
                w += self.annotation(p.annotation, eps)
        return w + self.annotation(s.returns, eps)

    def stmt(self, s: ast.stmt, eps: int) -> int:
        if isinstance(s, _DEFS):
            return self.nested_def(s, eps)
        if isinstance(s, ast.ClassDef):  # a class body is bound inline
            w = _NODE + self.exprs(s.decorator_list, False, eps, deco=True)
            w += self.exprs([*s.bases, *(k.value for k in s.keywords)], False, eps)
            return w + self.stmts(s.body, eps)
        if isinstance(s, ast.Return):
            self.returns += 1
            return _EDGE + self.expr(s.value, False, eps)
        if isinstance(s, ast.Raise):
            return eps + self.expr(s.exc, False, eps) + self.expr(s.cause, False, eps)
        if isinstance(s, ast.Break):
            return _EDGE
        if isinstance(s, ast.Continue | ast.Pass | ast.Global | ast.Nonlocal):
            return 0
        if isinstance(s, ast.Expr):
            return self.expr(s.value, False, eps)
        if isinstance(s, ast.Assign):
            return self.expr(s.value, False, eps) + sum(self.target(t, eps) for t in s.targets)
        if isinstance(s, ast.AugAssign):
            w = self.expr(s.target, False, eps) + self.expr(s.value, False, eps) + _NODE
            return w + (eps if isinstance(s.target, ast.Attribute) else 0)
        if isinstance(s, ast.AnnAssign):
            w = _NODE + self.annotation(s.annotation, eps)  # the VariableAnnotation node
            if s.value is None:
                return w + self.expr(s.target, False, eps)
            return w + self.expr(s.value, False, eps) + self.target(s.target, eps)
        if isinstance(s, ast.Delete):
            return sum(self.target(t, eps) for t in s.targets)
        if isinstance(s, ast.Import):
            return _NODE * len(s.names)
        if isinstance(s, ast.ImportFrom):
            star = any(a.name == "*" for a in s.names)
            return _NODE + eps if star else _NODE * len(s.names)
        if isinstance(s, ast.Assert):
            return 2 * _NODE - 2 * _EDGE + self.cond(s.test, eps) + self.expr(s.msg, False, eps)
        if isinstance(s, ast.If):
            return self.if_(s, eps)
        if isinstance(s, ast.While):
            w = 4 * _NODE - 2 * _EDGE + self.cond(s.test, eps)
            return w + self.stmts(s.body, eps) + self.stmts(s.orelse, eps)
        if isinstance(s, ast.For | ast.AsyncFor):
            w = self.expr(s.iter, False, eps) + 3 * _NODE + self.target(s.target, eps)
            return w + self.stmts(s.body, eps) + self.stmts(s.orelse, eps)
        if isinstance(s, ast.With | ast.AsyncWith):
            w = 3 * _NODE + 2 * eps
            for item in s.items:
                w += self.expr(item.context_expr, False, eps)
                if item.optional_vars is not None:
                    w += self.target(item.optional_vars, eps)
            return w + self.stmts(s.body, 0)  # the context managers' labels are not finished
        if isinstance(s, ast.Try | ast.TryStar):
            return self.try_(s, eps)
        raise _Unknown(type(s).__name__)  # match, type aliases, anything newer

    def if_(self, s: ast.If, eps: int) -> int:
        w = 3 * _NODE - 2 * _EDGE + self.cond(s.test, eps)
        w += self.stmts(s.body, eps) + self.stmts(s.orelse, eps)
        body_edge = 0 if _ends(s.body) else _EDGE
        if s.orelse:  # postIf: an edge from each branch that falls through
            edges = body_edge + (0 if _ends(s.orelse) else _EDGE)
            return w + max(0, edges - _EDGE)
        # _bindNeverCondition: <= L never-narrowing nodes (each may raise), <= L-1 after labels,
        # edges into postIf and the after labels <= L + 1 (a duplicate when L == 1).
        leaves = _leaves(s.test)
        w += leaves * (_NODE + eps) + (leaves - 1) * _NODE
        return w + body_edge + (1 if leaves == 1 else leaves + 1) * _EDGE - _EDGE

    def try_(self, s: ast.Try | ast.TryStar, eps: int) -> int:
        handlers = len(s.handlers)
        fin = 1 if s.finalbody else 0
        # except labels, preFinally, the raise/return label, the gate, postFinally
        w = _NODE * (handlers + 3 + fin)
        edges = fin + (0 if _ends(s.body) or _ends(s.orelse) else 1)  # into preFinally
        edges += sum(0 if _ends(h.body) else 1 for h in s.handlers)
        w += max(0, edges - 1) * _EDGE
        w += self.stmts(s.body, handlers * _EDGE)
        for h in s.handlers:
            w += self.expr(h.type, False, eps) + (2 * _NODE if h.name else 0)
            w += self.stmts(h.body, eps)
        return w + self.stmts(s.orelse, eps) + self.stmts(s.finalbody, eps)
