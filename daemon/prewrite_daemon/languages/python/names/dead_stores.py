"""Dead stores: ``NAME = <literal>`` statements of a function body that nothing reads.

A dead store changes no type another module sees: the literal calls nothing (so it cannot make
the rest of the body unreachable), and ``NAME`` is spelled nowhere else in the function (no
read, no ``global``/``nonlocal``, no closure, no string that could name it), so it is a local
that no expression reads. What it does change is the function's *code-flow complexity*
(``complexity``): pyright 1.1.414's binder adds 0.025 per flow node, and up to 1 more for a
merge label the store makes real; that value decides whether pyright infers the function's
return type at call sites (off at 8), at all (off at 32 with two unannotated parameters) and
analyses it (off at 768). So a dead store is dropped from what importers compare only when a
sound upper bound of that complexity (``complexity.complexity_bound``, with the stores counted)
is below the lowest of those limits: no limit can then be crossed by adding or removing one.

Why comparing the stripped bodies is then sound, though each version is stripped on its own:
the bound never grows when a dead store is removed (a test checks it), so if two versions'
stripped bodies are equal and one of them was stripped, the other is the stripped one minus
stores and is below the limit too (or holds no dead store at all). A version at or over the
limit keeps its stores, and then differs from any version that has another set of stores.

Other checkers: older pyright counts 0.05 per flow node, and basedpyright's binder is its own
version's; the rule is used only for the checkers in ``MODELLED_CHECKERS``
(``language._dead_stores`` decides, for the name graph and the graph-free interface comparison
alike; anything else keeps every store).
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import TYPE_CHECKING, cast

from prewrite_daemon.languages.python.names.complexity import CALL_SITE_LIMIT, complexity_bound

if TYPE_CHECKING:
    from collections.abc import Iterable

# The checkers whose binder ``complexity`` models (the label ``checker_version`` gives).
MODELLED_CHECKERS = frozenset({"pyright 1.1.414"})


def modelled(checker: str) -> bool:
    """Whether ``checker`` (a label: "pyright 1.1.414", "pyright 1.1.414 (the workspace's
    own)", "basedpyright 1.40.2 (bundled)") counts complexity as ``complexity`` does."""
    return checker.split(" (", 1)[0] in MODELLED_CHECKERS


def removable(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, own: Iterable[ast.stmt]
) -> frozenset[int]:
    """The ids of ``fn``'s dead stores among ``own`` (its statements at any depth of its
    blocks, not a nested scope's) when the bound of its complexity is below the call-site
    limit; empty otherwise (and when it has none: the bound is computed only then)."""
    stores = [(s, name) for s in own if (name := _store_of_literal(s)) is not None]
    if not stores:
        return frozenset()
    spelled = _spellings(fn)
    if spelled is None:
        return frozenset()
    dead = [s for s, name in stores if spelled[name] == 1]
    if not dead:
        return frozenset()
    bound = complexity_bound(fn)
    if bound is None or bound >= CALL_SITE_LIMIT:
        return frozenset()
    return frozenset(id(s) for s in dead)


def _store_of_literal(stmt: ast.stmt) -> str | None:
    """``NAME`` when ``stmt`` is ``NAME = <literal>`` (one plain target, no type comment, not
    a dunder), else None."""
    if not isinstance(stmt, ast.Assign) or stmt.type_comment is not None:
        return None
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
        return None
    name = stmt.targets[0].id
    if name.startswith("__") and name.endswith("__"):
        return None
    return name if _literal(stmt.value) else None


def _literal(expr: ast.expr) -> bool:
    """A constant, a signed number, or a tuple, list or set of literals: no call, no name."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub | ast.UAdd):
        return isinstance(expr.operand, ast.Constant)
    if isinstance(expr, ast.Tuple | ast.List | ast.Set):
        return all(_literal(e) for e in expr.elts)
    return False


def _spellings(fn: ast.AST) -> Counter[str] | None:
    """How often each string appears as a field anywhere in ``fn`` (names, attributes,
    parameters, ``global`` lists, string constants, ...): a superset of its uses of a name.
    None when ``fn`` holds a ``# type:`` comment: pyright walks it (it may hold a call, a flow
    node), and ``complexity_bound`` does not see it."""
    found: Counter[str] = Counter()
    for node in ast.walk(fn):
        for field, value in ast.iter_fields(node):
            if field == "type_comment" and value is not None:
                return None
            if isinstance(value, str):
                found[value] += 1
            elif isinstance(value, list):
                found.update(v for v in cast("list[object]", value) if isinstance(v, str))
    return found
