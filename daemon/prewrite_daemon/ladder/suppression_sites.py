"""Where a text holds suppression directives: read from its real comments, never its strings.

A directive is found only in a comment token of the language's own lexer — Python's
``tokenize`` for ``.py``/``.pyi``, tree-sitter's JavaScript/TypeScript grammars for the JS/TS
family — so ``"# type: ignore"`` in a string, ``// @ts-ignore`` in a template literal or a
regular expression, and a docstring quoting ``# noqa`` are not suppressions. Within a comment,
each tool's own reading decides, as a superset where it is unsure (reporting a comment that
turns out to do nothing costs a line; missing one hides an error):

- pyright: ``type: ignore`` and ``pyright: ignore`` after any ``#`` of a comment (pyright's
  regex ``((^|#)\\s*)type:\\s*ignore(\\[...]|\\s|$)``); a ``type: ignore`` before any code is the
  file's; ``# pyright: basic``/``standard`` and ``reportX=false|none|warning|information`` are
  file-level relaxations (``strict`` and ``=true|error`` tighten: not suppressions).
- mypy: ``# mypy: ...`` inline configuration, unless every option only tightens.
- ruff: ``noqa`` after any ``#`` (case-insensitive, as ruff lexes it); ``# ruff: noqa`` and
  ``# flake8: noqa`` exempt the file.
- TypeScript: ``@ts-ignore``/``@ts-expect-error`` at a comment's start (``//``, ``///``, or a
  block comment after its ``/`` and ``*``) silence the next line that is neither blank nor a
  ``//`` comment; ``@ts-nocheck`` the file.
- eslint: ``eslint-disable`` (to the end of the file, taken as the file), ``-line``,
  ``-next-line``, and ``/* eslint rule: ... */`` configuration; biome: ``biome-ignore`` (the
  next line), ``biome-ignore-all`` and ``-start`` (taken as the file).

Lines are counted at ``\\n`` (a lone ``\\r`` is not a line break here), columns in code points.
"""

from __future__ import annotations

import io
import itertools
import tokenize
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

if TYPE_CHECKING:
    from collections.abc import Callable

Scope = Literal["line", "next-line", "file"]
TEXT_CAP = 200  # characters of a directive kept as its ``text``
# Every directive holds one of these: a text without any has no suppression, so it is not
# tokenized at all (a necessary condition, not a detector: a hit is then read by the lexer).
PYTHON_MARKS = ("type:", "pyright:", "mypy:", "noqa")
SCRIPT_MARKS = ("@ts-", "eslint", "biome-ignore")
_TRIVIA = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING, tokenize.INDENT,
     tokenize.DEDENT}
)  # fmt: skip
_GRAMMARS: dict[str, Callable[[], object]] = {
    ".js": tree_sitter_javascript.language,
    ".mjs": tree_sitter_javascript.language,
    ".cjs": tree_sitter_javascript.language,
    ".jsx": tree_sitter_javascript.language,
    ".ts": tree_sitter_typescript.language_typescript,
    ".mts": tree_sitter_typescript.language_typescript,
    ".cts": tree_sitter_typescript.language_typescript,
    ".tsx": tree_sitter_typescript.language_tsx,
}


@dataclass(frozen=True)
class Site:
    """One directive: what it is, where, and the span that ``strip`` removes."""

    kind: str
    tool: str  # whose findings it silences
    scope: Scope
    line: int  # 1-based
    column: int  # 1-based, code points
    target: int  # the line it silences (0: the file)
    text: str  # the directive as written (capped)
    span: tuple[int, int]  # the directive, as offsets into the text
    comment: tuple[int, int]  # the comment holding it
    code: str  # the code of the target line, to match a directive with the base's


@dataclass(frozen=True)
class Found:
    """The sites of one text; ``unreadable``: why the lexer stopped early (sites before that
    point are real, none after it were looked for)."""

    sites: tuple[Site, ...]
    unreadable: str | None = None


Kind = tuple[str, str, Scope]  # kind, tool, scope


def is_python(path: str) -> bool:
    return path.endswith((".py", ".pyi"))


def is_script(path: str) -> bool:
    return "." + path.rsplit(".", 1)[-1].lower() in _GRAMMARS


def find_sites(path: str, text: str) -> Found:
    """The suppression directives of ``text`` as the file at ``path``."""
    if is_python(path):
        return _python(text) if any(m in text.lower() for m in PYTHON_MARKS) else Found(())
    if is_script(path):
        return _script(path, text) if any(m in text for m in SCRIPT_MARKS) else Found(())
    return Found(())


# --- Python ------------------------------------------------------------------------------


def _python(text: str) -> Found:
    lines = text.split("\n")
    starts = _line_starts(lines)
    sites: list[Site] = []
    seen_code = False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                offset = starts[row - 1] + col
                code = lines[row - 1][:col].strip()
                sites += _python_comment(tok.string, offset, row, col, code, seen_code)
            elif tok.type not in _TRIVIA:
                seen_code = True
    except (tokenize.TokenError, SyntaxError) as exc:
        return Found(tuple(sites), f"Python's tokenizer stopped: {exc}")
    return Found(tuple(sites))


def _python_comment(
    comment: str, offset: int, row: int, col: int, code: str, seen_code: bool
) -> list[Site]:
    """Each ``#`` of a comment opens a segment a directive may start (pyright and ruff both
    read ``# explanation  # type: ignore``)."""
    marks = [i for i, ch in enumerate(comment) if ch == "#"] + [len(comment)]
    sites: list[Site] = []
    for start, end in itertools.pairwise(marks):
        segment = comment[start:end]
        found = _python_kind(segment[1:].strip(), seen_code)
        if found is None:
            continue
        kind, tool, scope = found
        sites.append(
            Site(
                kind, tool, scope, row, col + start + 1, row if scope != "file" else 0,
                segment.strip()[:TEXT_CAP], (offset + start, offset + end),
                (offset, offset + len(comment)), code if scope != "file" else "",
            )
        )  # fmt: skip
    return sites


def _python_kind(body: str, seen_code: bool) -> Kind | None:
    if body.startswith("type:") and _word(body[5:].lstrip(), "ignore"):
        return ("type-ignore", "pyright", "line" if seen_code else "file")
    if body.startswith("pyright:"):
        rest = body[8:].strip()
        if _word(rest, "ignore"):
            return ("pyright-ignore", "pyright", "line")
        return ("pyright-config", "pyright", "file") if _relaxes_pyright(rest) else None
    if body.startswith("mypy:"):
        return ("mypy-config", "mypy", "file") if _relaxes_mypy(body[5:]) else None
    low = body.lower()
    if _word(low, "noqa"):
        return ("noqa", "ruff", "line")
    head, colon, rest = low.partition(":")
    if colon and head.strip() in ("ruff", "flake8") and _word(rest.strip(), "noqa"):
        return ("ruff-noqa", "ruff", "file")
    return None


def _word(text: str, word: str) -> bool:
    """``text`` starts with ``word`` as a whole word (``ignore[``, ``noqa:``, not ``ignored``)."""
    if not text.startswith(word):
        return False
    rest = text[len(word) :]
    return not rest or not (rest[0].isalnum() or rest[0] in "_-")


def _relaxes_pyright(rest: str) -> bool:
    """Whether ``# pyright: <rest>`` may relax a rule: anything but ``strict`` and rules set to
    ``true``/``error`` (``enableTypeIgnoreComments=true`` relaxes: it honours more ignores)."""
    for item in (i.strip() for i in rest.split(",")):
        if item in ("", "strict"):
            continue
        key, equals, value = item.partition("=")
        setting = value.strip().strip("\"'").lower()
        if not equals:
            return True  # basic, standard, or a word pyright may read some day
        if key.strip() == "enableTypeIgnoreComments":
            if setting != "false":
                return True
        elif setting not in ("true", "error"):
            return True
    return False


_MYPY_TIGHTEN = ("disallow-", "warn-", "strict", "check-untyped-defs", "enable-error-code",
                 "no-implicit-reexport", "no-implicit-optional", "extra-checks",
                 "local-partial-types")  # fmt: skip


def _relaxes_mypy(rest: str) -> bool:
    for item in (i.strip() for i in rest.split(",")):
        name, _equals, value = item.partition("=")
        if not item:
            continue
        if not name.strip().startswith(_MYPY_TIGHTEN) or value.strip().lower() == "false":
            return True
    return False


# --- JavaScript / TypeScript -------------------------------------------------------------


@cache
def _comments_query(suffix: str) -> tuple[tree_sitter.Parser, tree_sitter.Query]:
    language = tree_sitter.Language(_GRAMMARS[suffix]())
    return tree_sitter.Parser(language), tree_sitter.Query(language, "(comment) @c")


def _script(path: str, text: str) -> Found:
    parser, query = _comments_query("." + path.rsplit(".", 1)[-1].lower())
    data = text.encode("utf-8", "surrogatepass")
    tree = parser.parse(data)
    nodes = tree_sitter.QueryCursor(query).captures(tree.root_node).get("c", [])
    lines = text.split("\n")
    starts = _line_starts(lines)
    sites: list[Site] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        comment = data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")
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
    if _word(said, "eslint-disable-next-line"):
        return ("eslint-disable", "eslint", "next-line")
    if _word(said, "eslint-disable-line"):
        return ("eslint-disable", "eslint", "line")
    if _word(said, "eslint-disable"):
        return ("eslint-disable", "eslint", "file")
    if block and said.startswith(("eslint ", "eslint\t", "eslint\n")):
        return ("eslint-config", "eslint", "file")
    if _word(said, "biome-ignore-end"):
        return None
    if _word(said, "biome-ignore-all") or _word(said, "biome-ignore-start"):
        return ("biome-ignore", "biome", "file")
    if _word(said, "biome-ignore"):
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


def _line_starts(lines: list[str]) -> list[int]:
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    return starts
