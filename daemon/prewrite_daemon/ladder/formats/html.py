"""HTML: the shell checks a browser cannot forgive — not HTML validation.

Browsers accept nearly anything (optional end tags, void elements, stray end tags), so general
tag balance proves nothing and a home-made balancer would reject valid pages forever. What is
certain breakage, found with the tokenizer rules of the HTML standard (tags read with their
quoted attributes, ``<textarea>``/``<title>``/``<noscript>``/``<iframe>``… bodies read as text):

- a ``<!--`` with no ``-->`` after it: the rest of the document is a comment;
- a ``<script>``/``<style>`` that never closes: the rest of the document is script or CSS;
- a ``</script>``/``</style>`` that closes nothing: an earlier one was ended too soon (a
  ``'</script>'`` inside a script's string) or its opening tag was lost, and its body now shows
  as text. A ``<script/>`` without any end after it is allowed: in ``<svg>`` it is complete;
- every ``<script type="application/ld+json">`` holds strict JSON (what its readers parse);
  a body with template syntax in it is not JSON until rendered, so it is not judged.

The ladder calls this comparatively: a page that already failed one of these before the patch
(a ``document.write('<script>')`` that was always there) stays editable, with a warning.

Templates. An HTML file that is a template of the ``{{ }}``/``{% %}`` family — YAML front matter
(Jekyll and Eleventy render those), a template directory (``_layouts``, ``_includes``,
``templates``, ``layouts``, ``partials``, ``snippets``, ``sections``) or a complete ``{% end… %}``
/ ``{% include %}`` / ``{% extends %}`` … tag — is first checked as one: only what Liquid, Jinja,
Django, Twig and Nunjucks agree on (``template_tags``): unclosed openers, the pairing of
``if``/``for``/``unless``/``case``/``capture``/``tablerow``/``ifchanged``, and ``raw``,
``verbatim``, ``comment`` and ``{# #}`` bodies skipped. A plain page that merely mentions
``{%`` in its prose is not a template and is not judged as one. The shell checks then run on
the page with its template spans blanked out, so a ``'<!--'`` inside ``{{ }}`` is not a comment.

Inline script bodies are not parsed: the check sees one text, not the edit, so a body that was
already unparseable (legacy ``<!--`` wrappers, a template's ``{{ }}`` inside JavaScript) would
make the whole page "already odd" and hide every later finding; ``.js`` files get the real parser.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from prewrite_daemon.ladder.formats.breakage import breakage
from prewrite_daemon.ladder.formats.template_tags import Dialect, Finding, Lines, blank, scan

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic

# What every engine of the {% %} family agrees on, inside an HTML file.
HTML_TEMPLATES = Dialect(
    name="template",
    blocks=frozenset({"if", "unless", "for", "case", "capture", "tablerow", "ifchanged"}),
    opaque=frozenset({"raw", "comment", "verbatim"}),
    rendered=frozenset({"raw", "verbatim"}),
    hash_comments=True,
)
_TEMPLATE_DIRS = frozenset(
    {"_layouts", "_includes", "templates", "layouts", "includes", "partials", "_partials",
     "snippets", "sections"}
)  # fmt: skip
_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_TEMPLATE_TAG = re.compile(
    r"\{%[-+~]?\s*(?:end\w+|include|render|extends|block|assign|set|load|raw|verbatim)(?!\w)"
    r"[^\n]*?%\}"
)
_MARKUP = re.compile(r"<(?:!|\?|/?[A-Za-z])")
_NAME = re.compile(r"[A-Za-z][^\s/>]*")
_RAW_TEXT = frozenset({"script", "style"})
_TEXT_ONLY = frozenset(
    {"textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"}
)
_LD_JSON = re.compile(r"""\btype\s*=\s*["']?\s*application/ld\+json""", re.IGNORECASE)
_TEMPLATED = re.compile(r"\{\{|\{%")


def is_template(path: str, text: str) -> bool:
    """Whether ``path`` is rendered by a ``{% %}``-family engine before a browser sees it."""
    parts = path.lower().split("/")
    return (
        _FRONT_MATTER.match(text) is not None
        or any(part in _TEMPLATE_DIRS for part in parts[:-1])
        or _TEMPLATE_TAG.search(text) is not None
    )


def check(path: str, text: str) -> Diagnostic | None:
    """The first provable breakage of an HTML page (a template's first), or None."""
    page = text
    if is_template(path, text):
        spans, finding = scan(text, HTML_TEMPLATES)
        if finding is not None:
            return _diagnostic(path, text, finding, "template")
        page = blank(text, spans.hidden)
    return shell_error(path, text, page)


def shell_error(path: str, text: str, page: str) -> Diagnostic | None:
    """The first shell breakage of ``page`` (``text`` with template spans blanked), or None."""
    finding = _shell(text, page)
    return None if finding is None else _diagnostic(path, text, finding, "html")


def _diagnostic(path: str, text: str, finding: Finding, source: str) -> Diagnostic:
    line, column = Lines(text).at(finding.offset)
    return breakage(path, text, line, column, finding.message, source)


def _shell(text: str, page: str) -> Finding | None:
    lines = Lines(page)
    pos = 0
    while (markup := _MARKUP.search(page, pos)) is not None:
        start = markup.start()
        if page.startswith("<!--", start):
            end = _comment_end(page, start)
            if end < 0:
                return Finding(
                    start,
                    f"the comment <!-- opened on line {lines.line(start)} never closes (no "
                    "--> after it): the rest of the page is hidden in it",
                )
            pos = end
            continue
        if page[start + 1] in "!?":  # doctype, CDATA, processing instruction: to the next >
            end = page.find(">", start)
            if end < 0:
                return None
            pos = end + 1
            continue
        closing = page[start + 1] == "/"
        found = _NAME.match(page, start + 1 + closing)
        if found is None:
            return None  # cannot happen: _MARKUP saw a letter
        name = found.group().lower()
        end = _tag_end(page, found.end())
        if end < 0:
            return None  # the file ends inside a tag: not judged
        if closing:
            if name in _RAW_TEXT:
                return Finding(
                    start,
                    f"</{name}> on line {lines.line(start)} closes no <{name}>: an earlier one "
                    f"ended too soon (a '</{name}>' inside it?) or its opening tag is gone",
                )
            pos = end + 1
            continue
        if name in _RAW_TEXT or name in _TEXT_ONLY:
            outcome = _raw_body(text, page, name, start, end, lines)
            if isinstance(outcome, Finding) or outcome is None:
                return outcome
            pos = outcome
            continue
        pos = end + 1
    return None


def _comment_end(page: str, start: int) -> int:
    """Where the comment at ``start`` ends (after its ``-->``), or -1 when it never does."""
    if page.startswith(("<!-->", "<!--->"), start):
        return page.index(">", start) + 1
    ends = [i for i in (page.find("-->", start + 4), page.find("--!>", start + 4)) if i >= 0]
    if not ends:
        return -1
    first = min(ends)
    return first + (3 if page.startswith("-->", first) else 4)


def _tag_end(page: str, pos: int) -> int:
    """The ``>`` ending the tag whose attributes start at ``pos`` (quoted values skipped)."""
    length = len(page)
    while pos < length:
        char = page[pos]
        if char == ">":
            return pos
        pos += 1
        if char != "=":
            continue
        while pos < length and page[pos] in " \t\n\r\f":
            pos += 1
        if pos < length and page[pos] in "\"'":
            close = page.find(page[pos], pos + 1)
            if close < 0:
                return -1
            pos = close + 1
    return -1


def _raw_body(
    text: str, page: str, name: str, start: int, tag_end: int, lines: Lines
) -> Finding | int | None:
    """Skip the text body of ``<name>``: where scanning goes on, a finding, or None (stop)."""
    if name == "plaintext":
        return None
    close = re.compile(rf"</{name}[\s/>]", re.IGNORECASE).search(page, tag_end + 1)
    if close is None:
        if name not in _RAW_TEXT or page[tag_end - 1] == "/":
            return None  # the rest is text, or an <svg> <script/> that needs no end
        return Finding(
            start,
            f"<{name}> opened on line {lines.line(start)} never closes (no </{name}> after it): "
            f"the rest of the page is read as {'script' if name == 'script' else 'CSS'}",
        )
    if name == "script" and _LD_JSON.search(page, start, tag_end):
        finding = _json_ld(text, tag_end + 1, close.start(), lines)
        if finding is not None:
            return finding
    after = page.find(">", close.start())
    return len(page) if after < 0 else after + 1


def _json_ld(text: str, start: int, end: int, lines: Lines) -> Finding | None:
    body = text[start:end]
    if not body.strip() or _TEMPLATED.search(body):
        return None  # empty, or not JSON until a template engine renders it
    try:
        json.loads(body)
    except json.JSONDecodeError as exc:
        return Finding(
            start + exc.pos,
            f"the JSON-LD block opened on line {lines.line(start)} is not JSON: {exc.msg}",
        )
    return None
