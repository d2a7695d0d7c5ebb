"""tree-sitter's trees of TypeScript and JavaScript texts, repaired when proven (``repair.py``).

The graph (``syntax.read_module``) and the interface test (``interface.skeleton``) parse the
same texts of a patch, so recent small ones are kept (the cache holds texts: a large one is not
kept).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

import tree_sitter
import tree_sitter_typescript

from prewrite_daemon.languages.typescript.judge import encoded_ranges
from prewrite_daemon.languages.typescript.repair import repaired

if TYPE_CHECKING:
    from prewrite_daemon.languages.typescript.judge import Blank

CACHED_TEXT_CHARS = 256 * 1024  # texts above this are parsed again rather than kept


class Parsed(NamedTuple):
    """A text's UTF-8 bytes and tree; ``blanked``: when the tree is that of a repaired text,
    the byte ranges of it (in order) that were ``in``/``out`` modifiers of type parameters, and
    their words (``repair.Repaired``)."""

    data: bytes
    tree: tree_sitter.Tree
    blanked: tuple[Blank, ...] = ()


@cache
def language(tsx: bool) -> tree_sitter.Language:
    if tsx:
        return tree_sitter.Language(tree_sitter_typescript.language_tsx())
    return tree_sitter.Language(tree_sitter_typescript.language_typescript())


def parse(text: str, tsx: bool, repair_as: str | None = None) -> Parsed:
    """The UTF-8 text and its tree. ``repair_as``, the suffix of a file that may be repaired
    (``repair.repair_suffix``): a tree with an error is replaced by that of the repaired text
    TypeScript proves the same program (``typescript/repair.py``), if any."""
    data, tree = _parse_kept(text, tsx)
    if repair_as is None or not tree.root_node.has_error:
        return Parsed(data, tree)
    fixed = repaired(text, repair_as, lambda t: not _parse_kept(t, tsx)[1].root_node.has_error)
    if fixed is None:
        return Parsed(data, tree)
    data, tree = _parse_kept(fixed.text, tsx)
    return Parsed(data, tree, encoded_ranges(fixed.text, fixed.blanked, "utf-8"))


def _parse_kept(text: str, tsx: bool) -> tuple[bytes, tree_sitter.Tree]:
    return _parse(text, tsx) if len(text) <= CACHED_TEXT_CHARS else _parse.__wrapped__(text, tsx)


@lru_cache(maxsize=32)
def _parse(text: str, tsx: bool) -> tuple[bytes, tree_sitter.Tree]:
    data = text.encode("utf-8", "surrogatepass")
    return data, tree_sitter.Parser(language(tsx)).parse(data)
