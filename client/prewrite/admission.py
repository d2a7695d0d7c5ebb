"""What a patch may be, decided before any work is spent on it: its size and its paths' characters.

The hook and the MCP server check here before they read a file or call the daemon, and the
daemon checks again as it decodes a request (``prewrite_daemon.rpc``) and prepares a patch
(``prewrite_daemon.check.patch``): every caller meets the same typed errors, whoever built
the patch.

The limits, and why these numbers (sizes are UTF-8 bytes of text the caller sends):

- ``MAX_PATCH_BYTES`` (16 MiB) of text per request — contents, ``find`` and ``replace`` strings.
  A quarter of the 64 MiB frame: the reply may carry candidate contents and diagnostics too, and
  the daemon holds a few copies of every text (base, candidate, formatted, the checker's shadow),
  so one request's memory stays in the hundreds of megabytes.
- ``MAX_FILE_BYTES`` (8 MiB) of text for one file, and for the whole content the hook computes
  from a ``replace_all``: half the patch, so one file never takes all of it. An anchored edit
  of a larger file on disk is fine (the base is read up to ``files.SOURCE_LIMIT``).
- ``MAX_PYTHON_BYTES`` (8 MiB) for a Python file as it would be written, its anchored edits
  applied: the checker holds every file's tree (pyright takes minutes and gigabytes on far
  larger ones). The daemon's own parses do not bound it: ``ast.parse`` holds the interpreter
  lock while it runs, so a text over 256 KiB is parsed in a child process
  (``prewrite_daemon.languages.python.syntax.parse_child``) and the planner reads it as a file
  that does not parse.
- ``MAX_FILES`` (1000) files per patch: each costs path resolution, routing and a shadow write.
- ``MAX_FIND_SITES`` (1000): a ``find`` is counted up to this many sites, never further.

Paths: a path holding a control character (``\\n``, ``\\r``, NUL, DEL, C1), a line or paragraph
separator or a bidirectional override is refused: it could forge lines or reorder text wherever
the path is shown (the reviewer's input, the hook's answer, a log). Errors show it escaped.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from prewrite.errors import BadRequest, ErrorDetail, InputTooLarge

if TYPE_CHECKING:
    from collections.abc import Sequence

    from prewrite.protocol import FileChange

MIB = 1024 * 1024
MAX_PATCH_BYTES = 16 * MIB
MAX_FILE_BYTES = 8 * MIB
MAX_PYTHON_BYTES = 8 * MIB
MAX_FILES = 1000
MAX_FIND_SITES = 1000

PYTHON_SUFFIXES = (".py", ".pyi")
_REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})  # controls; line and paragraph separators
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def text_bytes(text: str) -> int:
    """The UTF-8 size of ``text`` (an ASCII text is not encoded to know it)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _refused(char: str) -> bool:
    return char in _BIDI or unicodedata.category(char) in _REFUSED_CATEGORIES


def escaped(path: str) -> str:
    """``path`` with each refused character escaped (``\\n``, ``\\x00``, ``\\u2028``)."""
    if path.isprintable():
        return path  # nothing to escape (every refused character is unprintable)
    return "".join(
        char.encode("unicode_escape").decode() if _refused(char) else char for char in path
    )


def check_path_chars(path: str) -> None:
    """``BadRequest`` naming ``path`` escaped, when it holds a character a path may not hold."""
    if path.isprintable():
        return
    bad = sorted({char for char in path if _refused(char)})
    if bad:
        shown = escaped(path)
        which = ", ".join(c.encode("unicode_escape").decode() for c in bad)
        raise BadRequest(
            f"path '{shown}' holds a control character ({which}); rename it",
            [ErrorDetail(f"holds {which}", shown)],
        )


def sent_bytes(change: FileChange) -> int:
    """The text a change sends: its content, or its edits' find and replace strings."""
    size = 0 if change.content is None else text_bytes(change.content)
    for edit in change.edits or ():
        size += text_bytes(edit.find) + text_bytes(edit.replace)
    return size


def is_python(path: str) -> bool:
    return path.lower().endswith(PYTHON_SUFFIXES)


def check_sent(path: str, size: int) -> None:
    """``InputTooLarge`` when ``size`` bytes of text sent for one file are over the limit."""
    if size > MAX_FILE_BYTES:
        raise too_large(path, f"{size} bytes of text for one file", MAX_FILE_BYTES)


def check_written(path: str, size: int) -> None:
    """``InputTooLarge`` when the file as it would be written (``size`` bytes) is a Python file
    over the limit of what the daemon parses itself."""
    if is_python(path) and size > MAX_PYTHON_BYTES:
        raise too_large(path, f"a Python file of {size} bytes", MAX_PYTHON_BYTES)


def too_large(path: str | None, what: str, limit: int) -> InputTooLarge:
    """The refusal: what is too large, and the limit it is over."""
    return InputTooLarge(
        f"{what}, over the limit of {limit} (input_too_large): split the patch or the file",
        [ErrorDetail(f"{what} > {limit}", None if path is None else escaped(path))],
    )


def admit(changes: Sequence[FileChange]) -> None:
    """Refuse a patch over a limit or with a path it may not hold, before any work on it."""
    if len(changes) > MAX_FILES:
        raise too_large(None, f"a patch of {len(changes)} files", MAX_FILES)
    total = 0
    for change in changes:
        check_path_chars(change.path)
        size = sent_bytes(change)
        check_sent(change.path, size)
        if change.content is not None:
            check_written(change.path, size)
        total += size
        if total > MAX_PATCH_BYTES:
            raise too_large(None, f"a patch of over {total} bytes of text", MAX_PATCH_BYTES)
