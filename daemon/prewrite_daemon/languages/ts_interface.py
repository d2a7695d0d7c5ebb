"""Whether importers can see a change to a TypeScript module: its text with annotated bodies out.

The body of a function, method, accessor or arrow function that declares its return type cannot
change what any other file sees of it: the signature is the type, and in a ``.ts`` file nothing
in a body declares anything outside it. So two texts of a module whose *skeletons* — the source
with each such body replaced by ``{}`` — are equal look the same to every importer, and only the
module itself needs re-checking. Everything else counts as a change: an unannotated function
(its return type is inferred from the body), a constructor (TypeScript infers property types
from assignments in it), class fields, comments and whitespace outside those bodies, JavaScript
files (JSDoc and ``this.x =`` declare types there), and any text the parser (tree-sitter's
TypeScript grammar) does not fully understand.
"""

from __future__ import annotations

from functools import cache

import tree_sitter
import tree_sitter_typescript

_FUNCTION_LIKE = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_TS = (".ts", ".mts", ".cts")
_DECLARATION = (".d.ts", ".d.mts", ".d.cts")


@cache
def _parser(tsx: bool) -> tree_sitter.Parser:
    grammar = (
        tree_sitter_typescript.language_tsx()
        if tsx
        else tree_sitter_typescript.language_typescript()
    )
    return tree_sitter.Parser(tree_sitter.Language(grammar))


def skeleton(text: str, tsx: bool = False) -> bytes | None:
    """The module as importers see it, or None if the parser found an error."""
    data = text.encode("utf-8")
    root = _parser(tsx).parse(data).root_node
    if root.has_error:
        return None
    bodies: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        body = node.child_by_field_name("body")
        if (
            node.type in _FUNCTION_LIKE
            and body is not None
            and node.child_by_field_name("return_type") is not None
        ):
            bodies.append((body.start_byte, body.end_byte))
            continue  # nested functions are inside the blanked body
        stack.extend(node.children)
    out = bytearray()
    at = 0
    for start, end in sorted(bodies):
        out += data[at:start] + b"{}"
        at = end
    out += data[at:]
    return bytes(out)


def interface_changed(rel: str, old: str | None, new: str | None) -> bool:
    """Whether any file importing ``rel`` can see a difference between ``old`` and ``new``."""
    if old is None or new is None:
        return True  # created or deleted
    if old == new:
        return False
    tsx = rel.endswith(".tsx")
    if not (tsx or rel.endswith(_TS)) or rel.endswith(_DECLARATION):
        return True  # JavaScript, declarations: every change counts
    before, after = skeleton(old, tsx), skeleton(new, tsx)
    return before is None or after is None or before != after
