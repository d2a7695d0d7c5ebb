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
  (the marker tells ``names.summary`` the class infers its variance; it is not a decorator that
  synthesizes anything); the same for ``def f[T](...)``
- an f-string or t-string       → ``__prewrite_fstring__(e1, e2, ...)`` (its expressions and
  those of its format specs, in order; the literal text is not a reference)
- ``except A, B:``              → ``except (A, B):``

Anything else that ``ast`` still refuses stays refused (None): the caller's safe path.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.syntax import locked

if TYPE_CHECKING:
    import ast

TYPE_PARAMS_MARK = "__prewrite_type_params__"
ALIAS_MARK = "__prewrite_type_alias__"
STRING_MARK = "__prewrite_fstring__"
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
            return locked.parse(code, type_comments=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def downlevel(source: str) -> str | None:
    """``source`` with its newer constructs rewritten, or None when libcst cannot parse it."""
    if len(source) > _MAX_SOURCE:
        return None
    # libcst is loaded only for a text ``ast`` refused: the planner needs nothing else
    from prewrite_daemon.languages.python.syntax.newer_cst import rewrite

    return rewrite(source)
