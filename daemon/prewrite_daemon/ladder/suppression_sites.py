"""Where a text holds suppression directives: read from its real comments, never its strings.

This module reads Python and holds what both languages share (``Site``, ``Found``);
``suppression_scripts`` reads the JS/TS family; ``suppressions.find_sites`` picks by path.

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

Cost: a text holding none of the directives' marks is not lexed (a scan for ``PYTHON_MARKS`` /
``SCRIPT_MARKS``); one that does is lexed whole — Python's ``tokenize`` runs about 1 ms per KB on
3.11 — and the last texts' sites are kept (``KEPT``), since an agent checks against the same
base again and again. Lexing only the lines a patch changed would not be sound: an unchanged line
becomes a comment when the patch closes a string above it.
"""

from __future__ import annotations

import io
import itertools
import tokenize
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Scope = Literal["line", "next-line", "file"]
TEXT_CAP = 200  # characters of a directive kept as its ``text``
# Every directive holds one of these: a text without any has no suppression, so it is not
# tokenized at all (a necessary condition, not a detector: a hit is then read by the lexer).
PYTHON_MARKS = ("type:", "pyright:", "mypy:", "noqa")
KEPT = 16  # the last texts whose sites are kept (with the texts: a few MB at most)
_TRIVIA = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING, tokenize.INDENT,
     tokenize.DEDENT}
)  # fmt: skip


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


def python_sites(text: str) -> Found:
    """The directives of a Python text (lexed only when it holds one of ``PYTHON_MARKS``)."""
    lowered = text.lower()
    return _python(text) if any(m in lowered for m in PYTHON_MARKS) else Found(())


# --- Python ------------------------------------------------------------------------------


@lru_cache(maxsize=KEPT)
def _python(text: str) -> Found:
    lines = text.split("\n")
    starts = line_starts(lines)
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
    if body.startswith("type:") and starts_word(body[5:].lstrip(), "ignore"):
        return ("type-ignore", "pyright", "line" if seen_code else "file")
    if body.startswith("pyright:"):
        rest = body[8:].strip()
        if starts_word(rest, "ignore"):
            return ("pyright-ignore", "pyright", "line")
        return ("pyright-config", "pyright", "file") if _relaxes_pyright(rest) else None
    if body.startswith("mypy:"):
        return ("mypy-config", "mypy", "file") if _relaxes_mypy(body[5:]) else None
    low = body.lower()
    if starts_word(low, "noqa"):
        return ("noqa", "ruff", "line")
    head, colon, rest = low.partition(":")
    if colon and head.strip() in ("ruff", "flake8") and starts_word(rest.strip(), "noqa"):
        return ("ruff-noqa", "ruff", "file")
    return None


def starts_word(text: str, word: str) -> bool:
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


def line_starts(lines: list[str]) -> list[int]:
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    return starts
