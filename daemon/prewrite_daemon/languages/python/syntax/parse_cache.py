"""One parse per source text, shared by everything that plans a check.

Planning an interface change reads each patched text several times: whether its interface
changed (``imports.interface_of``), its summary and regions (``names.summary.summarize``), and
whether it renames a function (``names.renames``). Parsing a hub module costs milliseconds, and
an agent re-checks the same base text again and again, so the trees are kept, a few at a time.

The trees are shared: **no caller may change one**. Code that rewrites a tree (``names.renames``
renames in place) parses its own copy with ``parse_private``.
"""

from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING

from prewrite_daemon.languages.python.syntax import locked
from prewrite_daemon.languages.python.syntax.newer import parse_newer
from prewrite_daemon.languages.python.syntax.parse_child import is_large

if TYPE_CHECKING:
    import ast

# Trees of the last texts parsed (a module of 40 KB: ~1.6 MB, its summary ~1 MB more; a hub
# module's a few MB). A check reads two texts, its base and its candidate, and agents checking
# different files at once take turns: 16 held eight agents' bases only in a fixed rotation; nine
# or more, or eight in uneven turns, evicted each other's bases, and every check parsed,
# summarised and dumped its base again (ten files in rotation: 23.9 ms a check, 15.0 ms with
# 32 kept). 32 keeps the bases of ~12 agents checking at once.
KEPT = 32


@functools.lru_cache(maxsize=KEPT)
def parse_shared(source: str) -> ast.Module | None:
    """The tree of ``source`` (type comments included), or None when it does not parse. Shared
    with every other caller: read it, never change it."""
    return parse_private(source)


def parse_private(source: str) -> ast.Module | None:
    """A fresh tree of ``source``, the caller's own to change; None when it does not parse.
    Syntax newer than the daemon's Python is read through ``syntax.newer``. A text too large to
    parse in the daemon (``parse_child.is_large``: the parse would hold the interpreter lock,
    stalling every client) is never parsed here: None, read as a file that does not parse —
    every importer kept, sound."""
    if is_large(source):
        return None
    try:
        with warnings.catch_warnings():  # "\d" in a string: the file's own business
            warnings.simplefilter("ignore")
            return locked.parse(source, type_comments=True)
    except SyntaxError:
        return parse_newer(source)
    except (ValueError, RecursionError, MemoryError):
        return None
