"""Liquid (``.liquid``: Shopify themes, and any engine's ``.liquid`` files): provable-only checks.

A ``.liquid`` file is HTML with Liquid in it, so it gets both: first the template checks of
``template_tags`` under the Shopify dialect (an opener that never closes; ``if``/``unless``/
``case``/``for``/``tablerow``/``capture``/``ifchanged`` and Shopify's ``form``/``paginate``/
``style`` paired; ``raw``, ``comment``, ``doc``, ``schema``, ``javascript``, ``stylesheet`` bodies
skipped; ``{% liquid %}`` bodies paired on their own; ``{% schema %}`` is JSON), then the HTML
shell checks (``html``) on the file with its Liquid blanked out.

Why not python-liquid's parser. It is a real parser, but of one dialect: a theme's own tags
(``{% section %}``, ``{% render %}``, ``{% form %}``, a Jekyll ``{% include file.html %}``, an app's
custom tag) are syntax errors to it unless each is registered, and its expression grammar is
stricter than Shopify's lax mode in places. Every such error is a false red on a valid theme —
the comparative rule saves files that failed before, not an edit that adds the first custom tag
— and a file it already rejects loses every check. Measured on the corpus of published themes
(``tests/support/markup_corpus.py``), python-liquid 2.3.6's default environment rejects 179 of
its 249 valid templates (``schema``, ``content_for``, Jekyll and theme tags; Jekyll's
``{% include x.html a=b %}`` arguments). The scanner here fires only on what every Liquid
engine rejects, and rejects none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.ladder.formats.breakage import breakage
from prewrite_daemon.ladder.formats.html import shell_error
from prewrite_daemon.ladder.formats.template_tags import Dialect, Lines, blank, scan

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic

SHOPIFY = Dialect(
    name="liquid",
    blocks=frozenset("if unless case for tablerow capture ifchanged form paginate style".split()),
    opaque=frozenset({"raw", "comment", "doc", "schema", "javascript", "stylesheet"}),
    rendered=frozenset({"raw"}),
    json_bodies=frozenset({"schema"}),
)


def check(path: str, text: str) -> Diagnostic | None:
    """The first provable breakage of a Liquid template (its Liquid first, then its HTML)."""
    spans, finding = scan(text, SHOPIFY)
    if finding is not None:
        line, column = Lines(text).at(finding.offset)
        return breakage(path, text, line, column, finding.message, "liquid")
    return shell_error(path, text, blank(text, spans.hidden))
