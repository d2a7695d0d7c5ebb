"""The ``{{ }}`` / ``{% %}`` template family (Liquid, and Jinja, Django, Twig, Nunjucks in HTML):
the breakage every engine of a dialect agrees on, and nothing else.

There is no strict parser to borrow that knows every dialect (a theme's custom tags, Jekyll's
``{% include file.html %}``, Shopify's ``{% schema %}``), so this is a scanner, not a grammar,
and it only ever fires where every engine of the dialect raises:

- an opening ``{{`` or ``{%`` with no ``}}`` / ``%}`` anywhere after it. Never a stray closer:
  ``}}`` and ``%}`` are plain text to every engine, and bare braces fill inline JS and CSS;
- block pairing for the dialect's known block tags (``{% if %}`` … ``{% endif %}``): a block never
  closed, an end tag that closes nothing, blocks crossed. Unknown tags are ignored — their ends
  too — because a custom tag may or may not be a block;
- opaque bodies (``raw``, ``comment``, ``schema``, ``verbatim`` …) are skipped, only their end
  must exist; ``{% schema %}`` must hold JSON (with comments and trailing commas tolerated: that
  much is not provable);
- ``{% liquid %}`` bodies (one tag per line, no delimiters) pair their blocks on their own, as
  every Liquid engine parses them: a block cannot cross the tag's boundary.

Where engines disagree, the lenient reading wins: a token ends at the *first* closer (the Ruby
engine's reading; a quoted ``%}`` may end it earlier than LiquidJS thinks, which never makes an
unclosed opener), and a nested ``{% comment %}`` ends at its matching ``endcomment`` when there
is one, else at the last.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field

from prewrite_daemon.languages.jsonc import strip_jsonc


@dataclass(frozen=True)
class Dialect:
    """What one family of engines agrees on: its block tags and its opaque bodies."""

    name: str
    blocks: frozenset[str]  # must be closed by end<name>; their bodies are parsed
    opaque: frozenset[str]  # must be closed; bodies not parsed (raw, comment, schema, ...)
    rendered: frozenset[str] = frozenset()  # opaque bodies that reach the page (raw)
    json_bodies: frozenset[str] = frozenset()  # opaque bodies that must hold JSON
    hash_comments: bool = False  # {# ... #} comments (Jinja, Django, Twig, Nunjucks)


@dataclass(frozen=True)
class Finding:
    """A provable breakage at ``offset`` of the text."""

    offset: int
    message: str


@dataclass
class Scan:
    """The template spans of a text that parsed, for the HTML checks to blank out."""

    hidden: list[tuple[int, int]] = field(default_factory=lambda: [])  # not HTML


class _Broken(Exception):
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


_OPENER = re.compile(r"\{\{|\{%|\{#")
_TAG_NAME = re.compile(r"[-+~]?\s*(#|\w+)")
_LIQUID_LINE_NAME = re.compile(r"\s*(#|\w+)")


class Lines:
    """Offsets to 1-based (line, column), for messages and diagnostics."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self._starts, offset) - 1
        return index + 1, offset - self._starts[index] + 1

    def line(self, offset: int) -> int:
        return self.at(offset)[0]


def scan(text: str, dialect: Dialect) -> tuple[Scan, Finding | None]:
    """The template spans of ``text``, and its first provable breakage under ``dialect``."""
    lines = Lines(text)
    result = Scan()
    tags: list[tuple[str, int]] = []
    try:
        _tokens(text, dialect, lines, result, tags)
        _pair(tags, dialect, lines)
    except _Broken as broken:
        return result, broken.finding
    return result, None


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` turned to spaces (newlines kept: lines and columns stay)."""
    parts: list[str] = []
    last = 0
    for start, end in sorted(spans):
        if start < last:
            start = last
        parts.append(text[last:start])
        parts.append(re.sub(r"[^\n]", " ", text[start:end]))
        last = max(last, end)
    parts.append(text[last:])
    return "".join(parts)


def _tokens(
    text: str, dialect: Dialect, lines: Lines, result: Scan, tags: list[tuple[str, int]]
) -> None:
    pos = 0
    while (opener := _OPENER.search(text, pos)) is not None:
        start, kind = opener.start(), opener.group()
        if kind == "{#":
            close = text.find("#}", start + 2) if dialect.hash_comments else -1
            if close >= 0:
                result.hidden.append((start, close + 2))
                pos = close + 2
            else:
                pos = start + 2  # plain text where {# means nothing (or an engine's own error)
            continue
        closer = "}}" if kind == "{{" else "%}"
        close = text.find(closer, start + 2)
        if close < 0:
            line = lines.line(start)
            raise _Broken(
                Finding(
                    start, f"the {kind} opened on line {line} never closes (no {closer} after it)"
                )
            )
        end = close + 2
        result.hidden.append((start, end))
        pos = end
        if kind == "{{":
            continue
        name_match = _TAG_NAME.match(text, start + 2, close)
        name = name_match.group(1) if name_match else ""
        if name in dialect.opaque:
            pos = _opaque_body(text, name, start, end, dialect, lines, result)
        elif name == "liquid":
            _liquid_tag(
                text, (name_match.end() if name_match else start + 2), close, dialect, lines
            )
        else:
            tags.append((name, start))


def _end_tag(name: str) -> re.Pattern[str]:
    return re.compile(r"\{%[-+~]?\s*(" + name + "|end" + name + r")(?!\w).*?%\}", re.DOTALL)


def _opaque_body(
    text: str, name: str, start: int, body_start: int, dialect: Dialect, lines: Lines, result: Scan
) -> int:
    """Skip an opaque body; return where scanning goes on. Its end tag must exist."""
    depth, matched, last = 1, None, None
    for tag in _end_tag(name).finditer(text, body_start):
        if tag.group(1) == name:
            depth += name == "comment"  # only comments nest
            continue
        last = tag
        depth -= 1
        if depth == 0 or name != "comment":
            matched = tag
            break
    end = matched or last
    if end is None:
        raise _Broken(
            Finding(
                start,
                f"{{% {name} %}} on line {lines.line(start)} never closes (no {{% end{name} %}})",
            )
        )
    if name not in dialect.rendered:
        result.hidden.append((body_start, end.start()))
    if name in dialect.json_bodies:
        _json_body(text, name, body_start, end.start(), lines)
    return end.end()


def _json_body(text: str, name: str, start: int, end: int, lines: Lines) -> None:
    body = text[start:end]
    if not body.strip():
        return
    try:
        json.loads(body)
    except json.JSONDecodeError as strict:
        try:
            json.loads(strip_jsonc(body))  # newlines kept: offsets hold
        except json.JSONDecodeError:
            message = f"the {{% {name} %}} body on line {lines.line(start)} is not JSON: "
            raise _Broken(Finding(start + strict.pos, message + strict.msg)) from None


def _liquid_tag(text: str, start: int, end: int, dialect: Dialect, lines: Lines) -> None:
    """``{% liquid %}``: one tag per line; its blocks pair inside it (every engine agrees)."""
    tags: list[tuple[str, int]] = []
    in_comment = False
    offset = start
    for line in text[start:end].split("\n"):
        found = _LIQUID_LINE_NAME.match(line)
        name = found.group(1) if found else ""
        here = offset + (found.start(1) if found else 0)
        offset += len(line) + 1
        if in_comment:
            in_comment = name != "endcomment"
        elif name == "comment":
            in_comment = True
        elif name:
            tags.append((name, here))
    _pair(tags, dialect, lines)


def _pair(tags: list[tuple[str, int]], dialect: Dialect, lines: Lines) -> None:
    """Known blocks must nest: never left open, never closed twice, never crossed."""
    stack: list[tuple[str, int]] = []
    for name, offset in tags:
        if name in dialect.blocks:
            stack.append((name, offset))
            continue
        opened = name.removeprefix("end")
        if opened == name or opened not in dialect.blocks:
            continue  # not a block's end, or an unknown tag's
        if stack and stack[-1][0] == opened:
            stack.pop()
            continue
        line = lines.line(offset)
        if any(n == opened for n, _ in stack):
            inner, at = stack[-1]
            raise _Broken(
                Finding(
                    at,
                    f"{{% {inner} %}} on line {lines.line(at)} is not closed before "
                    f"{{% {name} %}} on line {line} (add {{% end{inner} %}})",
                )
            )
        raise _Broken(Finding(offset, f"{{% {name} %}} on line {line} closes no {{% {opened} %}}"))
    if stack:
        name, at = stack[-1]
        raise _Broken(
            Finding(
                at,
                f"{{% {name} %}} on line {lines.line(at)} never closes (no {{% end{name} %}} "
                "after it)",
            )
        )
