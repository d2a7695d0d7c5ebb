"""Whether a module's global declarations are built from what it imports.

A module's ``declare global { ... }`` (or ``declare module "x" { ... }``) block is seen by every
file, without an import edge. When the block mentions a name the module imports (or declares
from what it imports), a change to an imported module reaches every file *through* it; when it
mentions none, changes to its imports cannot change it. rxjs's ``types.ts`` is the case that
matters: nearly every module imports it, and its ``declare global`` adds ``Symbol.observable``
from nothing imported, so treating it as a global importer would re-check the whole project on
every interface change.

The test over-approximates both sides. The block's names are every identifier-like leaf in it
(property names too). The module's names are every name bound at its top level: import clauses,
declarations (also under ``export`` and ``declare``), every variable declarator anywhere (a
``var`` hoists out of blocks), and all identifiers of a top-level statement of a kind not listed
here. A block holding an import of its own (``import("x")``, ``export * from``) depends on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    import tree_sitter

# Statements whose named children are what they bind (``export const``, ``declare function``).
_CONTAINERS = frozenset({"export_statement", "ambient_declaration", "expression_statement"})
# Children of those that bind nothing in the module: an export list, a source, the body of
# ``declare global``, the expression of ``export default x`` or ``export as namespace X``.
_SKIPPED = frozenset(
    {"export_clause", "namespace_export", "string", "comment", "statement_block", "identifier"}
)
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})
_BINDS_NOTHING = frozenset({"empty_statement", "comment", "hash_bang_line"})


def _leaves(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.child_count == 0:
            yield current
        else:
            stack.extend(current.children)


def identifier_names(node: tree_sitter.Node, data: bytes) -> set[str]:
    """Every identifier-like leaf text under ``node`` (names, types, properties)."""
    return {
        data[leaf.start_byte : leaf.end_byte].decode("utf-8", "surrogatepass")
        for leaf in _leaves(node)
        if leaf.type.endswith("identifier")
    }


def _bound_by(node: tree_sitter.Node, data: bytes) -> set[str]:
    """The names a top-level statement binds in the module's scope (over-approximated)."""
    kind = node.type
    names: set[str] = set()
    if kind in _CONTAINERS:
        for child in node.named_children:
            if child.type not in _SKIPPED:
                names |= _bound_by(child, data)
        return names
    if kind in _VARIABLES:
        for declarator in node.named_children:
            pattern = declarator.child_by_field_name("name")
            if pattern is not None:
                names |= identifier_names(pattern, data)
        return names
    name = node.child_by_field_name("name")
    if name is not None:  # a declaration: function, class, interface, type, enum, namespace
        return identifier_names(name, data)
    if kind in _BINDS_NOTHING or kind.endswith(("_statement", "expression")):
        return names  # block-scoped or none (a ``var`` inside is one of the declarators)
    return identifier_names(node, data)  # not modelled: every name in it


def module_names(
    root: tree_sitter.Node, data: bytes, declarators: Iterable[tree_sitter.Node]
) -> set[str]:
    """Names bound at the module's top level; ``declarators`` are every variable declarator's
    name pattern in the file (a ``var`` anywhere binds in the module)."""
    names: set[str] = set()
    for statement in root.named_children:
        if statement.type == "import_statement":
            names |= identifier_names(statement, data)
        else:
            names |= _bound_by(statement, data)
    for pattern in declarators:
        names |= identifier_names(pattern, data)
    return names


def builds_on_imports(
    blocks: Iterable[tree_sitter.Node],
    imports: Iterable[tree_sitter.Node],
    names: set[str],
    data: bytes,
) -> bool:
    """Whether any global block mentions one of the module's ``names`` or holds one of the
    file's ``imports`` (nodes naming a module)."""
    spans = [(b.start_byte, b.end_byte) for b in blocks]
    if any(start <= i.start_byte < end for i in imports for start, end in spans):
        return True
    return any(not identifier_names(b, data).isdisjoint(names) for b in blocks)
