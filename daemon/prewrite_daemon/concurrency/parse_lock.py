"""The one lock every ``ast.parse`` in the daemon holds: CPython 3.11's AST constructor is not
thread-safe (``languages.python.syntax.locked`` says why). Here, below every package that parses,
so that the Python analysis and the CI-file reader (``ci.files``: a ``noxfile.py``) share it.

May import: the standard library only.
"""

from __future__ import annotations

import threading

# Re-entrant: a finalizer that parses (a traceback's carets) on the parsing thread must not
# deadlock.
PARSE_LOCK = threading.RLock()
