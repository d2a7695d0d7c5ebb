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

The variance modifiers a repair blanked (``in``/``out`` of type parameters: ``out A`` to ``in A``
is an interface change) are put back into the sequence, each as a ``("variance", word)`` entry
— a tuple, never equal to a node type or a leaf text — where its range stands in document order:
before the first node starting at or after its end (its type parameter, or a comment before
the name). Those inside a skipped body are dropped with the body. So two skeletons are equal
only if the trees without the modifiers are, and the same modifiers stand at the same places.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from prewrite_daemon.languages.typescript.repair import repair_suffix
from prewrite_daemon.languages.typescript.trees import parse

if TYPE_CHECKING:
    from prewrite_daemon.languages.typescript.judge import Blank

Entry = str | tuple[str, str]  # a node type, a leaf text, or ("variance", "in" | "out")
Skeleton = tuple[Entry, ...]

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


def skeleton(text: str, tsx: bool = False, repair_as: str | None = None) -> Skeleton | None:
    """The module as importers see it — its syntax tree as a sequence of node types and leaf
    texts, without comments and with free bodies as ``{}`` — or None if the parser found an
    error. Comparing trees, not bytes, makes whitespace and comment edits no change; triple-slash
    directives are kept (they act on the whole program). ``repair_as``: the file's suffix, when
    a text tree-sitter misreads may be read repaired (``typescript/repair.py``); the variance
    modifiers the repair blanked are entries of the sequence at their places."""
    data, tree, blanked = parse(text, tsx, repair_as)
    root = tree.root_node
    if root.has_error:
        return None
    out: list[Entry] = []
    pending: deque[Blank] = deque(blanked)  # byte ranges of ``data``, in order
    stack = [root]
    while stack:
        node = stack.pop()
        while pending and pending[0][1] <= node.start_byte:
            out.append(("variance", pending.popleft()[2]))
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
            # everything but the body; nested functions (and their modifiers) are inside it
            pending = _outside(pending, body.start_byte, body.end_byte)
            stack.extend(reversed([c for c in node.children if c.id != body.id]))
            continue
        if node.child_count == 0:
            out.append(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
        stack.extend(reversed(node.children))
    out += [("variance", word) for _, _, word in pending]  # none, if proven: kept all the same
    return tuple(out)


def _outside(pending: deque[Blank], start: int, end: int) -> deque[Blank]:
    """The ranges of ``pending`` not inside ``start:end``."""
    if not pending or pending[-1][0] < start:
        return pending
    return deque(r for r in pending if not (start <= r[0] and r[1] <= end))


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
