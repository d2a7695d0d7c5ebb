"""One shape for every format's finding: a syntax error at a line, quoting that line.

The agent reads the message without the file open, so it names the line and shows its start;
positions are 1-based, columns in characters (not UTF-8 bytes, which tree-sitter counts).
"""

from __future__ import annotations

from prewrite.protocol import Diagnostic

_QUOTE_LIMIT = 60


def quote_line(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text``, stripped and shortened, for a message."""
    lines = text.split("\n")  # what the parsers count; str.splitlines also splits on \x0c
    if not 1 <= line <= len(lines):
        return "end of file"
    shown = lines[line - 1].strip()
    if len(shown) > _QUOTE_LIMIT:
        shown = shown[:_QUOTE_LIMIT] + "…"
    return repr(shown)


def breakage(
    path: str, text: str, line: int, column: int, message: str, source: str, rule: str = "syntax"
) -> Diagnostic:
    """A provable breakage at ``line``:``column``, its message naming the line it is on."""
    full = f"{message} (line {line}: {quote_line(text, line)})"
    return Diagnostic(path, line, column, line, column + 1, "error", rule, full, source)
