"""What one TypeScript/JavaScript file says about its dependencies, read from its syntax tree.

The import graph must over-approximate: a missed importer, or a file whose change reaches files
it has no edge to, is a wrong green. Regular expressions over source text were defeated by
comments inside import statements, template literals holding ``/*`` or an unindented
``export``, escaped specifiers and ``declare /* c */ module``; so the facts come from a real
parser, tree-sitter's TypeScript grammar (in-process, runs no workspace code), and TypeScript's
own rules for what they mean. The modelled fragment:

- **Specifiers** (``ModuleFacts.specifiers``), each literal cooked as TypeScript cooks it
  (``typescript/literals.py``): ``import``/``import type``/``export ... from``/``import x =
  require()``, ``import("x")`` calls and ``import("x")`` types (``typeof import``), with a string or
  a substitution-free template literal (others resolve to nothing in TypeScript either);
  ``require("x")`` calls; ``declare module "x"`` (an augmentation depends on what it augments);
  and what comments declare (``typescript/comments.py``: references, the JSX pragma, JSDoc in JS).
- **Module-ness** (``is_module``), as ``isFileProbablyExternalModule`` decides it: a top-level
  ``import`` declaration or an ``export`` of any kind but ``export as namespace``; in JavaScript
  also a ``require(x)`` call anywhere (a CommonJS module). ``import.meta``, ``moduleDetection``
  and the ``.mts``/``.cts`` formats only make more files modules, so ignoring them errs safe.
- **Global reach** (``global_reach``): ``declare global``, a ``module``/``namespace`` named
  ``global``, ``declare module "x"``, ``export as namespace`` (a UMD global), and any triple-slash
  reference, wherever they stand. A global part *passes on* a change to what the module imports
  (``passes_on_everything``) when it is built from it (``typescript/global_reach.py``); a script
  always may.
- **Unknown** (``complete`` False): an ERROR or MISSING node anywhere (after the repair of a
  ``.ts`` text tree-sitter misreads, proven the same program by TypeScript but for the ``in``/
  ``out`` modifiers of type parameters it blanks, which name no module and declare nothing:
  ``repair.py``), an ``import`` keyword in a place not listed above, or a literal TypeScript
  would reject. Such a file may import anything and reach everything (default-keep).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import tree_sitter

from prewrite_daemon.languages.typescript.comments import CommentFacts, read_comment
from prewrite_daemon.languages.typescript.global_reach import builds_on_imports, module_names
from prewrite_daemon.languages.typescript.literals import cook
from prewrite_daemon.languages.typescript.repair import repair_suffix
from prewrite_daemon.languages.typescript.scope import JS_SUFFIXES
from prewrite_daemon.languages.typescript.trees import CACHED_TEXT_CHARS, language, parse

if TYPE_CHECKING:
    from collections.abc import Iterator

_IMPORT_KEYWORD_PARENTS = frozenset({"import_statement", "import_alias", "import", "meta_property"})
_QUERY = """
(import_statement) @import_statement
(export_statement) @export_statement
(import) @import_call
"import" @import_keyword
(call_expression function: (identifier) @callee)
(module) @module
(internal_module) @namespace
(ambient_declaration) @ambient
(comment) @comment
(variable_declarator name: (_) @declarator)
"""


@cache
def _query(tsx: bool) -> tree_sitter.Query:
    return tree_sitter.Query(language(tsx), _QUERY)


def uses_tsx_grammar(rel: str) -> bool:
    """JSX is valid in ``.tsx`` and in every JavaScript file (TypeScript parses them so)."""
    return rel.endswith((".tsx", *JS_SUFFIXES))


@dataclass(frozen=True)
class ModuleFacts:
    """One file's dependencies and reach; ``complete`` False means "assume the worst"."""

    specifiers: tuple[tuple[str, str], ...]  # (kind, text): kind "module", "path" or "types"
    is_module: bool
    global_reach: bool
    complete: bool
    global_imports: bool = True  # its global declarations may be built from what it imports

    @property
    def reaches_everything(self) -> bool:
        """A change to this file may reach files with no import edge to it: it is a script,
        declares something global, or is not understood."""
        return not self.complete or not self.is_module or self.global_reach

    @property
    def passes_on_everything(self) -> bool:
        """A change to what this file imports may reach files with no import edge to it: it is
        a script (whose declarations may use ``import("x")`` types), exports a UMD global, has
        a global block built from its imports (``typescript/global_reach.py``), or is not
        understood."""
        return not self.complete or not self.is_module or self.global_imports


UNKNOWN = ModuleFacts((), is_module=False, global_reach=True, complete=False)


def read_module(rel: str, text: str) -> ModuleFacts:
    """The facts of the file ``rel`` (its suffix picks the grammar and the rules) with ``text``."""
    read = _read if len(text) <= CACHED_TEXT_CHARS else _read.__wrapped__
    return read(text, uses_tsx_grammar(rel), rel.endswith(JS_SUFFIXES), repair_suffix(rel))


@lru_cache(maxsize=64)
def _read(text: str, tsx: bool, javascript: bool, repair_as: str | None) -> ModuleFacts:
    data, tree, _ = parse(text, tsx, repair_as)  # variance modifiers: no fact reads them
    root = tree.root_node
    if root.has_error:
        return UNKNOWN
    reader = _Reader(data, javascript)
    captures = tree_sitter.QueryCursor(_query(tsx)).captures(root)
    for name, nodes in captures.items():
        for node in nodes:
            reader.visit(name, node)
    facts = reader.comments
    if reader.unknown or facts.unknown:
        return UNKNOWN
    is_module = reader.commonjs or any(_is_module_indicator(n) for n in root.named_children)
    global_imports = reader.umd or (
        bool(reader.blocks)
        and builds_on_imports(
            reader.blocks,
            reader.imports,
            module_names(root, data, captures.get("declarator", [])),
            data,
        )
    )
    return ModuleFacts(
        tuple(reader.specifiers + facts.specifiers),
        is_module=is_module,
        global_reach=reader.global_reach or facts.references,
        complete=True,
        global_imports=global_imports,
    )


def _is_module_indicator(statement: tree_sitter.Node) -> bool:
    if statement.type == "import_statement":
        return True
    return statement.type == "export_statement" and not _is_export_as_namespace(statement)


def _is_export_as_namespace(node: tree_sitter.Node) -> bool:
    """``export as namespace X``: a UMD global, and not module syntax to TypeScript."""
    return {"as", "namespace"} <= {c.type for c in node.children if not c.is_named}


def _arguments(call: tree_sitter.Node) -> tree_sitter.Node | None:
    """A call's argument list; None for a tagged template (``require`x```), no call to TS."""
    arguments = call.child_by_field_name("arguments")
    return arguments if arguments is not None and arguments.type == "arguments" else None


def _code_children(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    return (c for c in node.named_children if c.type != "comment")


class _Reader:
    """Classifies each captured node; anything outside the modelled fragment sets ``unknown``."""

    def __init__(self, data: bytes, javascript: bool) -> None:
        self.data = data
        self.javascript = javascript
        self.specifiers: list[tuple[str, str]] = []
        self.comments = CommentFacts()
        self.global_reach = False
        self.commonjs = False
        self.unknown = False
        self.umd = False  # export as namespace: every export is global
        self.blocks: list[tree_sitter.Node] = []  # bodies of global and ambient module blocks
        self.imports: list[tree_sitter.Node] = []  # nodes naming a module

    def text(self, node: tree_sitter.Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def visit(self, capture: str, node: tree_sitter.Node) -> None:
        match capture:
            case "import_statement":
                self.imports.append(node)
                self.import_statement(node)
            case "export_statement":
                source = node.child_by_field_name("source")
                if source is not None:
                    self.imports.append(node)
                    self.specifier(source)
                self.umd |= _is_export_as_namespace(node)
                self.global_reach |= self.umd
            case "import_call":
                self.imports.append(node)
                self.import_call(node)
            case "import_keyword":
                parent = node.parent
                self.unknown |= parent is None or parent.type not in _IMPORT_KEYWORD_PARENTS
            case "callee":
                self.call(node)
            case "module" | "namespace":
                self.module(node)
            case "ambient":
                if any(c.type == "global" for c in node.children):
                    self.global_reach = True
                    self.blocks += [c for c in node.named_children if c.type == "statement_block"]
            case "comment":
                read_comment(self.text(node), self.javascript, self.comments)
            case _:  # "declarator": read by ``module_names``
                pass

    def specifier(self, literal: tree_sitter.Node) -> None:
        """Record a string literal naming a module (any other node there: unknown)."""
        value = self.literal(literal)
        if value is None:
            self.unknown = True
        else:
            self.specifiers.append(("module", value))

    def literal(self, node: tree_sitter.Node) -> str | None:
        """The cooked value of a string or substitution-free template literal, else None."""
        if node.type == "template_string" and any(
            c.type == "template_substitution" for c in node.named_children
        ):
            return None
        if node.type not in ("string", "template_string"):
            return None
        return cook(self.text(node)[1:-1])

    def import_statement(self, node: tree_sitter.Node) -> None:
        source = node.child_by_field_name("source")
        if source is None:  # import x = require("y")
            clauses = [c for c in node.named_children if c.type == "import_require_clause"]
            source = clauses[0].child_by_field_name("source") if clauses else None
        if source is None:
            self.unknown = True
        else:
            self.specifier(source)

    def import_call(self, node: tree_sitter.Node) -> None:
        """``import("x")`` as a call or a type; a computed argument imports nothing."""
        parent = node.parent
        if parent is None or parent.type != "call_expression":
            self.unknown = True
            return
        self.first_literal_argument(parent)

    def first_literal_argument(self, call: tree_sitter.Node) -> None:
        arguments = _arguments(call)
        first = next(_code_children(arguments), None) if arguments is not None else None
        if first is not None and first.type in ("string", "template_string"):
            value = self.literal(first)
            if value is not None:
                self.specifiers.append(("module", value))
            elif first.type == "string":
                self.unknown = True  # an escape TypeScript rejects

    def call(self, callee: tree_sitter.Node) -> None:
        if self.text(callee) != "require":
            return
        call = callee.parent
        assert call is not None
        self.imports.append(call)
        self.first_literal_argument(call)
        arguments = _arguments(call)
        if self.javascript and arguments is not None:
            self.commonjs |= sum(1 for _ in _code_children(arguments)) == 1

    def module(self, node: tree_sitter.Node) -> None:
        """``declare module "x"`` augments or declares a module: a dependency on it, and a
        reach beyond this file; a namespace named ``global`` may be the global scope."""
        name = node.child_by_field_name("name")
        if name is None:
            self.unknown = True
            return
        if name.type == "string":
            self.specifier(name)
        elif self.text(name) != "global":
            return
        self.global_reach = True
        body = node.child_by_field_name("body")
        if body is not None:
            self.blocks.append(body)
