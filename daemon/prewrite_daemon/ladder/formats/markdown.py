"""Markdown: text a UTF-8 file can hold, front matter that parses, code fences that close.

Every text is valid Markdown, so breakage here is what makes a file render other than written:

- U+FFFD, the replacement character a failed decoding leaves where bytes were lost, or a lone
  surrogate, which cannot be written as UTF-8 at all.
- Front matter — a first line ``---`` up to a closing ``---`` (or ``...``) line — is YAML, as
  Jekyll, Hugo and MkDocs read it (GitHub shows an error box for front matter that does not
  parse); ``+++`` front matter is TOML (Hugo). A first ``---`` never closed is a thematic break.
- A code fence that never closes runs to the end of the document: the rest of the file renders
  as code. Fences are found by markdown-it's CommonMark block parser, not a regex: a fence
  closes only with its own character, at least as long, indented at most three spaces relative
  to its container (list item, block quote); a fence inside an indented code block or an HTML
  block is no fence. An unclosed fence that its container ends before the document does (a
  list item followed by the next item) renders as written, and is not flagged.
"""

from __future__ import annotations

import re
import tomllib
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt

from prewrite_daemon.ladder.formats import yaml as yaml_format
from prewrite_daemon.ladder.formats.breakage import breakage

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic

# Block structure is all a fence needs; inline parsing would double the cost.
_BLOCKS = MarkdownIt("commonmark").disable("inline")
_LOST = re.compile("[\ud800-\udfff\ufffd]")
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def check(path: str, text: str) -> Diagnostic | None:
    """The first of: a character lost to decoding, front matter that does not parse, a code
    fence that never closes."""
    lost = _LOST.search(text)
    if lost is not None:
        return _lost_character(path, text, lost.start())
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    end = _front_matter_end(lines)
    if end:
        found = _front_matter_error(path, text, lines, end)
        if found is not None:
            return found
        lines = [""] * end + lines[end:]  # keeps the line numbers of what follows
    return _unclosed_fence(path, text, lines)


def _lost_character(path: str, text: str, index: int) -> Diagnostic:
    line = text.count("\n", 0, index) + 1
    column = index - text.rfind("\n", 0, index)
    char = text[index]
    if char == "\ufffd":
        message = "U+FFFD, the mark of bytes a decoding could not read: text here was lost"
    else:
        message = f"lone surrogate U+{ord(char):04X}: the file cannot be written as UTF-8"
    return breakage(path, text, line, column, message, "markdown", "encoding")


def _front_matter_end(lines: list[str]) -> int:
    """How many lines the front matter takes (its delimiters included), 0 for none."""
    opener = lines[0].lstrip("\ufeff").rstrip()
    if opener not in ("---", "+++"):
        return 0
    closers = ("---", "...") if opener == "---" else ("+++",)
    return next((i + 1 for i in range(1, len(lines)) if lines[i].rstrip() in closers), 0)


def _front_matter_error(path: str, text: str, lines: list[str], end: int) -> Diagnostic | None:
    # Blank first line: the body's line numbers are the file's.
    body = "\n" + "\n".join(lines[1 : end - 1])
    if lines[0].lstrip("\ufeff").rstrip() == "---":
        return yaml_format.check_stream(path, body, text)
    try:
        tomllib.loads(body)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_POSITION.search(str(exc))
        line, column = (int(found[1]), int(found[2])) if found else (1, 1)
        message = f"TOML front matter does not parse: {exc}"
        return breakage(path, text, line, column, message, "markdown", "front-matter")
    return None


def _unclosed_fence(path: str, text: str, lines: list[str]) -> Diagnostic | None:
    """The first fence whose block runs to the end of the document without a closing fence.

    markdown-it maps a closed fence to its lines plus both fence lines, an unclosed one to its
    lines plus the opening line only; that difference is the test.
    """
    last = len(lines) - 1 if lines[-1] == "" else len(lines)
    for token in _BLOCKS.parse("\n".join(lines)):
        if token.type != "fence" or token.map is None:
            continue
        start, end = token.map
        content = token.content
        body = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        if end - start == body + 1 and end >= last:
            column = lines[start].find(token.markup) + 1 or 1
            message = (
                f"code fence {token.markup} opened here never closes: the rest of the file "
                f"renders as code (it closes with a line of at least {len(token.markup)} "
                f"{token.markup[0]!r})"
            )
            return breakage(path, text, start + 1, column, message, "markdown", "unclosed-fence")
    return None
