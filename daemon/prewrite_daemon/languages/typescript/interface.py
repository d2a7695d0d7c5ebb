"""Whether importers can see a change to a TypeScript module: its syntax without free bodies.

The body of a function, method, accessor or arrow function that declares its return type cannot
change what any other file sees of it: the signature is the type, and in a ``.ts`` file nothing
in a body declares anything outside it. So two texts of a module whose *skeletons* — the syntax
tree without comments and without such bodies — are equal look the same to every importer, and
only the module itself needs re-checking. Everything else counts as a change: an unannotated
function (its return type is inferred from the body), a constructor (TypeScript infers property
types from assignments in it), class fields, JavaScript files (JSDoc and ``this.x =`` declare
types there), declaration files, and any text the parser (tree-sitter's TypeScript grammar)
does not fully understand (after the proven repair of ``typescript/repair.py``: a skeleton of
a repaired text is that of a text TypeScript reads as the same program).
"""

from __future__ import annotations

from prewrite_daemon.languages.typescript.repair import repair_suffix
from prewrite_daemon.languages.typescript.syntax import parse

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


def skeleton(text: str, tsx: bool = False, repair_as: str | None = None) -> tuple[str, ...] | None:
    """The module as importers see it — its syntax tree as a sequence of node types and leaf
    texts, without comments and with free bodies as ``{}`` — or None if the parser found an
    error. Comparing trees, not bytes, makes whitespace and comment edits no change; triple-slash
    directives are kept (they act on the whole program). ``repair_as``: the file's suffix, when
    a text tree-sitter misreads may be read repaired (``typescript/repair.py``)."""
    data, tree = parse(text, tsx, repair_as)
    root = tree.root_node
    if root.has_error:
        return None
    out: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            if data[node.start_byte : node.start_byte + 3] == b"///":
                out.append(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
            continue
        out.append(node.type)
        body = node.child_by_field_name("body")
        if (
            node.type in _FUNCTION_LIKE
            and body is not None
            and node.child_by_field_name("return_type") is not None
        ):
            # everything but the body; nested functions are inside the body
            stack.extend(reversed([c for c in node.children if c.id != body.id]))
            continue
        if node.child_count == 0:
            out.append(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
        stack.extend(reversed(node.children))
    return tuple(out)


def interface_changed(rel: str, old: str | None, new: str | None) -> bool:
    """Whether any file importing ``rel`` can see a difference between ``old`` and ``new``."""
    if old is None or new is None:
        return True  # created or deleted
    if old == new:
        return False
    tsx = rel.endswith(".tsx")
    if not (tsx or rel.endswith(_TS)) or rel.endswith(_DECLARATION):
        return True  # JavaScript, declarations: every change counts
    suffix = repair_suffix(rel)
    before, after = skeleton(old, tsx, suffix), skeleton(new, tsx, suffix)
    return before is None or after is None or before != after
