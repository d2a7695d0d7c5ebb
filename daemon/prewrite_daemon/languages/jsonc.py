"""JSON with comments and trailing commas, as pyright and TypeScript read their configurations.

Three readers, cheapest first: the standard ``json`` (C speed); the same with comments and
trailing commas blanked out (``strip_jsonc``: same lines and columns); and ``json5`` for what only
a lenient reader takes (single quotes, unquoted keys). ``json5`` is a pure-Python parser — about
4 s for 200 kB, and the daemon's loop waits for it — so only a text of at most ``LENIENT_LIMIT``
characters goes there; a larger one that the first two refuse is ``ValueError``, as a text that
does not parse.
"""

from __future__ import annotations

import json
import re

import json5

LENIENT_LIMIT = 64 * 1024
_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"?|//[^\n]*|/\*(?:.*?\*/|.*\Z)|,(?=\s*[}\]])', re.DOTALL)


def strip_jsonc(text: str) -> str:
    r"""JSON with comments and trailing commas blanked out (same lines and columns). Linear: an
    unclosed comment or string takes the rest of its text or line in one match (the plain
    ``/\*.*?\*/`` scanned to the end for every unclosed ``/*``: 96 kB took 10 s)."""

    def blank(match: re.Match[str]) -> str:
        token = match.group(0)
        if token.startswith('"'):
            return token
        return re.sub(r"[^\n]", " ", token)

    return _TOKENS.sub(blank, text)


def loads(text: str) -> object:
    """The value of ``text``; ``ValueError`` when no reader takes it (see the module), nesting
    deeper than the readers go included."""
    try:
        return _first_reader(text)
    except RecursionError:
        raise ValueError("nested too deeply to read") from None


def _first_reader(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return json.loads(strip_jsonc(text))
    except ValueError:
        if len(text) > LENIENT_LIMIT:
            too_long = f"not JSON with comments, and over {LENIENT_LIMIT} characters"
            raise ValueError(too_long) from None
    return json5.loads(text)
