"""Where a JavaScript/TypeScript text holds suppression directives: tree-sitter's comments.

The grammars are tree-sitter's (JavaScript with JSX, TypeScript, TSX), the ones the parse rung
uses, so a ``// @ts-ignore`` in a string, a template literal, a regular expression or JSX text is
not a comment. Which comments are directives, and what each silences, is in
``suppression_sites`` (both languages share its ``Site``).
"""

from __future__ import annotations

from functools import cache, lru_cache

import tree_sitter

from prewrite_daemon.ladder.formats.javascript import GRAMMARS
from prewrite_daemon.ladder.suppression_sites import (
    KEPT,
    TEXT_CAP,
    Found,
    Kind,
    Site,
    line_starts,
    starts_word,
)

SCRIPT_MARKS = ("@ts-", "eslint", "biome-ignore")  # every directive holds one
_SCRIPT_BYTES = tuple(m.encode() for m in SCRIPT_MARKS)


def is_script(path: str) -> bool:
    return _suffix(path) in GRAMMARS


def script_sites(path: str, text: str) -> Found:
    """The directives of a JS/TS text (parsed only when it holds one of ``SCRIPT_MARKS``)."""
    return _script(_suffix(path), text) if any(m in text for m in SCRIPT_MARKS) else Found(())


def _suffix(path: str) -> str:
    return "." + path.rsplit(".", 1)[-1].lower()


@cache
def _comments_query(suffix: str) -> tuple[tree_sitter.Parser, tree_sitter.Query]:
    language = tree_sitter.Language(GRAMMARS[suffix]())
    return tree_sitter.Parser(language), tree_sitter.Query(language, "(comment) @c")


@lru_cache(maxsize=KEPT)
def _script(suffix: str, text: str) -> Found:
    parser, query = _comments_query(suffix)
    data = text.encode("utf-8", "surrogatepass")
    tree = parser.parse(data)
    nodes = tree_sitter.QueryCursor(query).captures(tree.root_node).get("c", [])
    lines = text.split("\n")
    starts = line_starts(lines)
    sites: list[Site] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        raw = data[node.start_byte : node.end_byte]
        if not any(m in raw for m in _SCRIPT_BYTES):
            continue
        comment = raw.decode("utf-8", "surrogatepass")
        found = _script_kind(comment)
        if found is None:
            continue
        kind, tool, scope = found
        row, end_row = node.start_point.row, node.end_point.row
        line = lines[row]
        col = len(line.encode("utf-8", "surrogatepass")[: node.start_point.column].decode(
            "utf-8", "surrogatepass"))  # fmt: skip
        offset = starts[row] + col
        target = {"line": row + 1, "next-line": _next_code_line(lines, end_row + 1), "file": 0}
        code = lines[target[scope] - 1].strip() if target[scope] else ""
        span = (offset, offset + len(comment))
        sites.append(
            Site(kind, tool, scope, row + 1, col + 1, target[scope], comment[:TEXT_CAP],
                 span, span, code)
        )  # fmt: skip
    return Found(tuple(sites))


def _script_kind(comment: str) -> Kind | None:
    block = comment.startswith("/*")
    body = comment[2:-2] if block and comment.endswith("*/") else comment[2:]
    heads = [line.strip().lstrip("/*").lstrip() for line in body.split("\n")] if block else [
        (body[1:] if body.startswith("/") else body).lstrip()
    ]  # fmt: skip
    for head in heads:
        for directive in ("@ts-expect-error", "@ts-ignore"):
            if head.startswith(directive):
                return (directive[1:], "typescript", "next-line")
        if head.startswith("@ts-nocheck"):
            return ("ts-nocheck", "typescript", "file")
    said = body.strip()
    if starts_word(said, "eslint-disable-next-line"):
        return ("eslint-disable", "eslint", "next-line")
    if starts_word(said, "eslint-disable-line"):
        return ("eslint-disable", "eslint", "line")
    if starts_word(said, "eslint-disable"):
        return ("eslint-disable", "eslint", "file")
    if block and said.startswith(("eslint ", "eslint\t", "eslint\n")):
        return ("eslint-config", "eslint", "file")
    if starts_word(said, "biome-ignore-end"):
        return None
    if starts_word(said, "biome-ignore-all") or starts_word(said, "biome-ignore-start"):
        return ("biome-ignore", "biome", "file")
    if starts_word(said, "biome-ignore"):
        return ("biome-ignore", "biome", "next-line")
    return None


def _next_code_line(lines: list[str], after: int) -> int:
    """TypeScript's reading: the directive covers the first later line that is neither blank
    nor a ``//`` comment (1-based; the last line when none is)."""
    for index in range(after, len(lines)):
        stripped = lines[index].strip()
        if stripped and not stripped.startswith("//"):
            return index + 1
    return len(lines)
