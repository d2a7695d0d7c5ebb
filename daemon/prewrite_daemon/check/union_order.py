"""One spelling per union in a diagnostic's message: members in a canonical order.

A checker prints a union's members in the order it met them: pyright's warm server, which
evaluated a module's names in another order than the cold CLI, writes ``"str | Unknown | Any"``
where the CLI writes ``"str | Any | Unknown"`` (Django's ``utils/text.py``); TypeScript 5 orders by
type ids. The same error before and after a patch must match in the base-vs-candidate diff, or an
unchanged error reads as new (a wrong red). ``canonical`` rewrites every quoted type in a message
with each union's members sorted, for matching only (the reply keeps the checker's words).

Conservative on purpose: a union level is reordered only when every member is a plain type — a
dotted name with optional brackets (``list[int | str]``, ``Literal['a']``, ``None``) — so a
callable's ``(x: int) -> str`` or a parameter list is never cut at a ``|`` it does not own; inside
brackets each comma-separated argument is canonicalised the same way. Two messages equal after
this quote the same sets of types: reordering a union never changes the type.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'")
_PLAIN = re.compile(r"[\w.]+(\[.*\])?")
_OPEN, _CLOSE = "[(", "])"


def canonical(message: str) -> str:
    """``message`` with every quoted type's unions in canonical order."""
    if "|" not in message:
        return message

    def rewrite(found: re.Match[str]) -> str:
        quote = '"' if found.group(1) is not None else "'"
        inner = found.group(1) if found.group(1) is not None else found.group(2)
        return quote + canonical_type(inner) + quote

    return _QUOTED.sub(rewrite, message)


def canonical_type(text: str) -> str:
    """A type's text with each union level sorted (where every member is a plain type)."""
    members = _split(text, " | ")
    if members is None:
        return text  # unbalanced brackets: not a type this understands
    members = [_canonical_member(m) for m in members]
    if len(members) > 1 and all(_PLAIN.fullmatch(m) for m in members):
        members.sort()
    return " | ".join(members)


def _canonical_member(member: str) -> str:
    start = member.find("[")
    if start <= 0 or not member.endswith("]"):
        return member
    args = _split(member[start + 1 : -1], ", ")
    if args is None:
        return member
    return member[: start + 1] + ", ".join(canonical_type(a) for a in args) + "]"


def _split(text: str, separator: str) -> list[str] | None:
    """``text`` split at ``separator`` outside brackets; None if the brackets don't balance."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        char = text[i]
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            start = i
            continue
        i += 1
    if depth != 0:
        return None
    parts.append(text[start:])
    return parts
