"""``ast.parse``, one thread at a time: CPython 3.11's AST constructor is not thread-safe.

Turning the parser's tree into Python objects (``ast2obj``) counts its recursion depth in one
interpreter-wide variable, reset by every parse as it starts. Allocating those objects can run
the collector, whose finalizers run Python code, and the interpreter may then switch threads:
a second thread's parse resets the count under the first, which fails with ``SystemError: AST
constructor recursion depth mismatch`` (cpython gh-106905). Checks run their parses in worker
threads, and with eight agents checking at once this failed one check in ten as an internal
error (``python -m bench.agents``, 2026-12-03). Every parse in the daemon goes through
``parse``; serialising them costs nothing, since a parse holds the interpreter lock anyway.
The lock (``concurrency.parse_lock``, shared with ``ci.files``) is re-entrant: a finalizer that
parses (a traceback's carets) on the parsing thread must not deadlock.
"""

from __future__ import annotations

import ast
from typing import Literal, overload

from prewrite_daemon.concurrency.parse_lock import PARSE_LOCK


@overload
def parse(
    source: str | bytes, mode: Literal["exec"] = "exec", *, type_comments: bool = False
) -> ast.Module: ...
@overload
def parse(
    source: str | bytes, mode: Literal["eval"], *, type_comments: bool = False
) -> ast.Expression: ...
@overload
def parse(
    source: str | bytes, mode: Literal["func_type"], *, type_comments: bool = False
) -> ast.FunctionType: ...
@overload
def parse(source: str | bytes, mode: str, *, type_comments: bool = False) -> ast.AST: ...
def parse(source: str | bytes, mode: str = "exec", *, type_comments: bool = False) -> ast.AST:
    """``ast.parse(source, mode=mode, type_comments=type_comments)``, under the one lock."""
    with PARSE_LOCK:
        return ast.parse(source, mode=mode, type_comments=type_comments)
