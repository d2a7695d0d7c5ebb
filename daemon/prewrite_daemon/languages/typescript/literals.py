"""A module specifier's text as TypeScript reads it: JavaScript string escapes decoded.

``import "./\\u0061"`` imports ``./a``: TypeScript resolves the *cooked* value of the literal, so
the import graph must too, or the importer is missed (a wrong green). The modelled fragment is
ECMAScript's ``EscapeSequence`` as TypeScript's scanner (``scanEscapeSequence``) cooks it:

- ``\\b \\f \\n \\r \\t \\v``, ``\\0`` not followed by a digit, ``\\xHH``, ``\\uHHHH`` and
  ``\\u{H...}`` (UTF-16 surrogate pairs joined), a backslash before a line terminator (the line
  continuation: nothing), and a backslash before any other character (that character).
- Legacy octal escapes (``\\1``, ``\\07``), ``\\8``/``\\9`` and malformed hex or unicode escapes
  are errors in a module; they answer ``None`` (unknown), and the caller takes the safe path.
"""

from __future__ import annotations

_SIMPLE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_LINE_TERMINATORS = frozenset("\n\r\u2028\u2029")
_HEX = frozenset("0123456789abcdefABCDEF")


def _hex_value(digits: str) -> int | None:
    if not digits or any(c not in _HEX for c in digits):
        return None
    value = int(digits, 16)
    return value if value <= 0x10FFFF else None


def _escape(raw: str, i: int) -> tuple[str, int] | None:
    """The text of the escape whose character follows the backslash at ``raw[i]``, and where
    the literal goes on; None for an escape a module may not contain (or a malformed one)."""
    c = raw[i]
    if c in _SIMPLE:
        return _SIMPLE[c], i + 1
    if c == "0" and not raw[i + 1 : i + 2].isdigit():
        return "\0", i + 1
    if c.isdigit():
        return None  # legacy octal, \8, \9
    if c == "\r":
        return "", i + 2 if raw[i + 1 : i + 2] == "\n" else i + 1
    if c in _LINE_TERMINATORS:
        return "", i + 1
    if c == "x":
        value = _hex_value(raw[i + 1 : i + 3]) if len(raw) >= i + 3 else None
        return None if value is None else (chr(value), i + 3)
    if c == "u":
        if raw[i + 1 : i + 2] == "{":
            end = raw.find("}", i + 2)
            value = _hex_value(raw[i + 2 : end]) if end > 0 else None
            return None if value is None else (chr(value), end + 1)
        value = _hex_value(raw[i + 1 : i + 5]) if len(raw) >= i + 5 else None
        return None if value is None else (chr(value), i + 5)
    return c, i + 1


def cook(raw: str) -> str | None:
    """The value of a string literal (or a template without substitutions) whose source text
    between the quotes is ``raw``; None if it holds an escape TypeScript rejects in a module."""
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(raw):
            return None
        escaped = _escape(raw, i + 1)
        if escaped is None:
            return None
        text, i = escaped
        out.append(text)
    cooked = "".join(out)
    try:  # \uD83D\uDE00 is one character: join surrogate pairs as UTF-16 does
        return cooked.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        return None  # a lone surrogate names no file
