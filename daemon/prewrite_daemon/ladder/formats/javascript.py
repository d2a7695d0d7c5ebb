"""The JavaScript/TypeScript family: tree-sitter's grammars, ERROR or MISSING nodes are breakage.

Outside a TypeScript workspace nothing else judges these files, so the parser does: JavaScript
(``.js .mjs .cjs .jsx``; the grammar includes JSX, which React projects write in ``.js`` too),
TypeScript (``.ts .mts .cts``, where ``<T>x`` is a type assertion, not JSX) and TSX (``.tsx``).
In a TypeScript workspace the parse rung leaves them to TypeScript itself (``parse.py``).

tree-sitter recovers from an error by inserting a MISSING token (``}`` never closed) or wrapping
what it cannot read in an ERROR node; either means the text is not a program. A file with a
``@flow`` pragma is written in Flow, not JavaScript: when it does not parse, that proves nothing.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

from prewrite_daemon.ladder.formats.breakage import breakage

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite.protocol import Diagnostic

# Each JavaScript/TypeScript suffix's tree-sitter grammar (the suppressions step reads these too)
GRAMMARS: dict[str, Callable[[], object]] = {
    ".js": tree_sitter_javascript.language,
    ".mjs": tree_sitter_javascript.language,
    ".cjs": tree_sitter_javascript.language,
    ".jsx": tree_sitter_javascript.language,
    ".ts": tree_sitter_typescript.language_typescript,
    ".mts": tree_sitter_typescript.language_typescript,
    ".cts": tree_sitter_typescript.language_typescript,
    ".tsx": tree_sitter_typescript.language_tsx,
}
SUFFIXES = tuple(GRAMMARS)
_SNIPPET = 40


@cache
def _parser(suffix: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(GRAMMARS[suffix]()))


def check(path: str, text: str) -> Diagnostic | None:
    """The first ERROR or MISSING node of the file's syntax tree, or None."""
    suffix = "." + path.rsplit(".", 1)[-1].lower()
    data = text.encode("utf-8", "surrogatepass")
    node = _first_error(_parser(suffix).parse(data).root_node)
    if node is None or (suffix in (".js", ".jsx") and "@flow" in text[:2000]):
        return None
    line = node.start_point.row + 1
    line_start = data.rfind(b"\n", 0, node.start_byte) + 1
    column = len(data[line_start : node.start_byte].decode("utf-8", "replace")) + 1
    if node.is_missing:
        message = f"syntax error: {node.type!r} expected here"
    else:
        shown = data[node.start_byte : node.end_byte].decode("utf-8", "replace").strip()
        shown = shown.split("\n", 1)[0][:_SNIPPET]
        message = f"syntax error: the parser cannot read {shown!r}"
    source = "typescript" if suffix in (".ts", ".mts", ".cts", ".tsx") else "javascript"
    return breakage(path, text, line, column, message, source)


def _first_error(root: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first ERROR or MISSING node in text order; only subtrees holding one are entered."""
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            return node
        stack += [c for c in reversed(node.children) if c.has_error or c.is_missing]
    return None
