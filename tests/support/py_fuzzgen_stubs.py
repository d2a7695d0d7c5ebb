"""A stub written from a generated module, as a stub generator would write it.

Imports, classes, function signatures (bodies become ``...``), assignments and ``if`` blocks
(``TYPE_CHECKING``, ``sys.version_info``) are kept; other statements (calls, ``match``, loops)
are dropped. A module this interpreter cannot parse (PEP 695 on Python 3.11) is its own stub.
"""

from __future__ import annotations

import ast

_KEPT = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign)


def autostub(source: str) -> str:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    body = _stub_body(tree.body, top=True)
    return ast.unparse(ast.Module(body=body, type_ignores=[])) + "\n" if body else ""


def _stub_body(statements: list[ast.stmt], top: bool) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in statements:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            stmt.body = [ast.Expr(ast.Constant(...))]
            out.append(stmt)
        elif isinstance(stmt, ast.ClassDef):
            stmt.body = _stub_body(stmt.body, top=False) or [ast.Expr(ast.Constant(...))]
            out.append(stmt)
        elif isinstance(stmt, ast.If):
            stmt.body = _stub_body(stmt.body, top) or [ast.Pass()]
            stmt.orelse = _stub_body(stmt.orelse, top)
            out.append(stmt)
        elif isinstance(stmt, _KEPT) and (top or not isinstance(stmt, ast.Import | ast.ImportFrom)):
            out.append(stmt)
    return out
