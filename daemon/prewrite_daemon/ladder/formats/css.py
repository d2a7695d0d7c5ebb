"""CSS: the tokens a browser reads — strings, url()s, comments and brackets that close.

tinycss2 tokenizes by the CSS Syntax specification, the same algorithm browsers run, so any
grammar above it (nesting, ``@container``, ``@layer``, media ranges, custom properties holding
arbitrary tokens, old browser hacks) is never a false red: only what the specification calls
a parse error at the token level is. Each of those silently drops CSS in a browser:

- a string broken by a newline, or never closed (the declaration is dropped);
- a malformed or unclosed ``url(``;
- a ``}``, ``)`` or ``]`` that closes nothing (at the top level it swallows the next rule);
- a ``{``, ``(`` or ``[`` never closed: everything after it is nested inside (found by tokenizing
  the file with a sentinel appended: in a well-formed file it lands at the top level);
- a comment never closed: the rest of the file is ignored.

``.scss`` and ``.less`` are not CSS (``//`` comments, other string rules) and are not checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import tinycss2
import tinycss2.ast

from prewrite_daemon.ladder.formats.breakage import breakage

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic

_SENTINEL = "prewrite-end-of-file-5f3a"
_ERRORS = {
    "bad-string": "a string is broken by a newline: the declaration is dropped",
    "eof-in-string": "a string never closes",
    "bad-url": "malformed url( ): unquoted spaces, quotes or parentheses drop the declaration",
    "eof-in-url": "url( never closes",
}
_Brackets = (
    tinycss2.ast.CurlyBracketsBlock,
    tinycss2.ast.SquareBracketsBlock,
    tinycss2.ast.ParenthesesBlock,
)
_Blocks = (*_Brackets, tinycss2.ast.FunctionBlock)


def check(path: str, text: str) -> Diagnostic | None:
    """The first token-level parse error, unclosed bracket or unclosed comment, or None."""
    tokens = tinycss2.parse_component_value_list(text + "\n" + _SENTINEL)
    found = _first_error(tokens)
    if found is None and not _ends_at_top(tokens):
        found = _unclosed(tokens)
    if found is None:
        return None
    line, column, message = found
    return breakage(path, text, line, column, message, "css")


def _ends_at_top(tokens: list[tinycss2.ast.Node]) -> bool:
    last = tokens[-1] if tokens else None
    return isinstance(last, tinycss2.ast.IdentToken) and last.value == _SENTINEL


def _first_error(tokens: list[tinycss2.ast.Node]) -> tuple[int, int, str] | None:
    """The first ParseError in text order (blocks are searched where they stand).

    A stack of iterators, one per open block: a file is millions of tokens and nearly all are
    leaves, so a leaf costs two type tests and nothing is pushed for it.
    """
    stack = [iter(tokens)]
    while stack:
        for token in stack[-1]:
            if isinstance(token, tinycss2.ast.ParseError):
                message = _ERRORS.get(token.kind, f"{token.kind!r} closes nothing")
                return token.source_line, token.source_column, message
            if isinstance(token, _Blocks):
                stack.append(iter(_children(token)))
                break  # the block's tokens come before the rest of this level
        else:
            stack.pop()
    return None


def _unclosed(tokens: list[tinycss2.ast.Node]) -> tuple[int, int, str] | None:
    """Where the sentinel ended up: in a comment that never closed, else in a bracket (the
    outermost is reported: the first opened that never closed)."""
    chain: list[tinycss2.ast.Node] = []
    last = tokens[-1] if tokens else None
    while isinstance(last, _Blocks):
        chain.append(last)
        children = _children(last)
        last = children[-1] if children else None
    if isinstance(last, tinycss2.ast.Comment):
        return last.source_line, last.source_column, "a comment never closes: the rest is ignored"
    if not chain:
        return None  # e.g. a string that swallowed the sentinel: reported as a ParseError
    outer = chain[0]
    opener = _opener(outer)
    message = f"{opener!r} never closes: everything after it is nested inside"
    return outer.source_line, outer.source_column, message


def _opener(block: tinycss2.ast.Node) -> str:
    if isinstance(block, tinycss2.ast.FunctionBlock):
        return f"{block.name}("
    if isinstance(block, _Brackets):
        return block.serialize()[0]
    return "{"


def _children(token: tinycss2.ast.Node) -> list[tinycss2.ast.Node]:
    if isinstance(token, tinycss2.ast.FunctionBlock):
        return token.arguments
    if isinstance(token, _Brackets):
        return token.content
    return []
