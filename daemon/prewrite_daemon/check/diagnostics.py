"""Agent-facing diagnostics and the base-vs-candidate diff that keeps only what a patch introduced.

The diff is line-shift robust: base diagnostics are carried through a line alignment of the base
and candidate texts, so an unchanged error that merely moved is not reported. A candidate
diagnostic is "new" when no base diagnostic of the same file, rule, severity and message maps to
its line; a second pass pairs the leftovers by identity alone (code that moved as a block); a
third pairs what is left with a base diagnostic of the same rule and severity at the same place
(the mapped line, the same columns) whose message differs only inside its quoted types: the same
error, reworded. A warm checker's inference of an unannotated name depends on the order it
evaluated a module in (Django's ``utils/text.py``: ``"str | Unknown | Any"`` before a patch,
another union after it, the cold CLI a third in both), so an unchanged error can read as new.
Policy, shared with every oracle (they call ``introduced``): an error that was already at that
place is not one the patch introduced, even where the types it names changed. Before any pass,
each side's copies of one error (the same place, rule, severity and message, unions in any
order) count once: the warm server has reported Django's ``utils/text.py:122`` twice after a
patch, in two union orders, beside the one copy of its base and of the cold CLI.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from typing import TYPE_CHECKING, Protocol

from prewrite.protocol import Diagnostic, Severity
from prewrite_daemon.check.union_order import canonical

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from prewrite_daemon.backends.base import RawDiagnostic

REPORTED_SEVERITIES: frozenset[str] = frozenset({"error", "warning", "information"})

Key = tuple[str, str, str]


def _same(message: str) -> str:
    return message


def to_wire(
    raw: RawDiagnostic, rel_path: str, normalize: Callable[[str], str] = _same
) -> Diagnostic | None:
    """Convert a 0-based checker diagnostic to the wire form; hints (unused, unreachable) drop.

    ``normalize``: the language's rewrite of a server message into the cold CLI's form.
    """
    if raw.severity not in REPORTED_SEVERITIES:
        return None
    severity: Severity = (
        "error"
        if raw.severity == "error"
        else ("warning" if raw.severity == "warning" else "information")
    )
    return Diagnostic(
        path=rel_path,
        line=raw.line + 1,
        column=raw.column + 1,
        end_line=raw.end_line + 1,
        end_column=raw.end_column + 1,
        severity=severity,
        rule=raw.rule,
        message=normalize(raw.message),
        source=raw.source,
    )


def _key(d: Diagnostic) -> Key:
    # unions in one member order: the warm checker may print another than it did for the base
    return (d.rule, d.severity, canonical(d.message))


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them: only CRLF, CR and LF break (not form feeds, not U+2028).

    Like ``str.splitlines``, a final line break does not start another line.
    """
    parts = _LINE_BREAK.split(text)
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def line_map(base_text: str, candidate_text: str) -> dict[int, int]:
    """1-based base line -> 1-based candidate line, for lines the patch left untouched."""
    a = split_lines(base_text)
    b = split_lines(candidate_text)
    mapping: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            mapping[block.a + k + 1] = block.b + k + 1
    return mapping


def introduced(
    base: Sequence[Diagnostic],
    candidate: Sequence[Diagnostic],
    base_text: str | None,
    candidate_text: str | None,
) -> list[Diagnostic]:
    """The candidate diagnostics of one file that the patch introduced."""
    base, candidate = _distinct(base), _distinct(candidate)
    if not base:
        return list(candidate)
    if base_text is None or candidate_text is None or base_text == candidate_text:
        mapping: dict[int, int] | None = None
    else:
        mapping = line_map(base_text, candidate_text)

    def mapped(d: Diagnostic) -> int | None:
        return d.line if mapping is None else mapping.get(d.line)

    unpaired, base_left = _pair_identities(base, candidate, mapped)
    return _drop_reworded(unpaired, base_left, mapped) if unpaired else []


def _distinct(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` with each error once: a copy at the same place (line and columns) with
    the same rule, severity and message, its unions in any order, is dropped (the first kept)."""
    seen: set[tuple[int, int, int, int, Key]] = set()
    kept: list[Diagnostic] = []
    for d in diagnostics:
        place = (d.line, d.column, d.end_line, d.end_column, _key(d))
        if place not in seen:
            seen.add(place)
            kept.append(d)
    return kept


def _pair_identities(
    base: Sequence[Diagnostic],
    candidate: Sequence[Diagnostic],
    mapped: Callable[[Diagnostic], int | None],
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Passes 1 and 2: the candidate and base diagnostics left once each identity is paired,
    first at the mapped line, then anywhere in the file."""
    pool: dict[tuple[Key, int | None], list[Diagnostic]] = defaultdict(list)
    for d in base:
        pool[(_key(d), mapped(d))].append(d)
    leftovers: list[Diagnostic] = []
    for d in candidate:
        slot = pool.get((_key(d), d.line))
        if slot:
            slot.pop()
        else:
            leftovers.append(d)
    unmapped: dict[Key, list[Diagnostic]] = defaultdict(list)
    for (key, _line), left in pool.items():
        unmapped[key] += left
    unpaired: list[Diagnostic] = []
    for d in leftovers:
        left = unmapped.get(_key(d))
        if left:
            left.pop()
        else:
            unpaired.append(d)
    return unpaired, [b for left in unmapped.values() for b in left]


def _drop_reworded(
    unpaired: list[Diagnostic],
    base_left: list[Diagnostic],
    mapped: Callable[[Diagnostic], int | None],
) -> list[Diagnostic]:
    """Pass 3: ``unpaired`` less those with a base diagnostic left at the same place whose
    message differs only in what it quotes (the same error, reworded)."""
    places: dict[Place, int] = defaultdict(int)
    for b in base_left:
        line = mapped(b)
        if line is not None:
            places[_place(b, line)] += 1
    new: list[Diagnostic] = []
    for d in unpaired:
        place = _place(d, d.line)
        if places[place] > 0:
            places[place] -= 1
        else:
            new.append(d)
    return new


Place = tuple[str, str, int, int, int, int, str]


def _place(d: Diagnostic, line: int) -> Place:
    span = d.end_line - d.line
    return (d.rule, d.severity, line, d.column, span, d.end_column, _shape(d.message))


_QUOTED = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")


def _shape(message: str) -> str:
    """``message`` with every quoted part blanked: what two wordings of one error share."""
    return _QUOTED.sub('""', message)


def has_error(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)


class TextPair(Protocol):
    """A file's base and candidate text (``FileEdit`` is one)."""

    @property
    def old_text(self) -> str | None: ...

    @property
    def new_text(self) -> str | None: ...


def introduced_by_patch(
    base: Mapping[str, Sequence[Diagnostic]],
    candidate: Mapping[str, Sequence[Diagnostic]],
    texts: Mapping[str, TextPair],
    paths: Iterable[str],
) -> list[Diagnostic]:
    """What the patch introduced across ``paths``, sorted; unpatched files keep their lines."""
    new: list[Diagnostic] = []
    for rel in paths:
        pair = texts.get(rel)
        new += introduced(
            base.get(rel, []),
            candidate.get(rel, []),
            pair.old_text if pair else None,
            pair.new_text if pair else None,
        )
    new.sort(key=lambda d: (d.path, d.line, d.column, d.rule, d.message))
    return new
