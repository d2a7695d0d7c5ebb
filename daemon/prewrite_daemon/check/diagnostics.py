"""Agent-facing diagnostics and the base-vs-candidate diff that keeps only what a patch introduced.

The diff is line-shift robust: base diagnostics are carried through a line alignment of the base
and candidate texts, so an unchanged error that merely moved is not reported. A candidate
diagnostic is "new" when no base diagnostic of the same file, rule, severity and message maps to
its line; a second pass pairs the leftovers by identity alone (code that moved as a block).
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
    if not base:
        return list(candidate)
    if base_text is None or candidate_text is None or base_text == candidate_text:
        mapping: dict[int, int] | None = None
    else:
        mapping = line_map(base_text, candidate_text)

    # Pass 1: same identity at the mapped line.
    pool: dict[tuple[Key, int], int] = defaultdict(int)
    unmapped: dict[Key, int] = defaultdict(int)
    for d in base:
        line = d.line if mapping is None else mapping.get(d.line)
        if line is None:
            unmapped[_key(d)] += 1
        else:
            pool[(_key(d), line)] += 1
    leftovers: list[Diagnostic] = []
    for d in candidate:
        slot = (_key(d), d.line)
        if pool[slot] > 0:
            pool[slot] -= 1
        else:
            leftovers.append(d)

    # Pass 2: identity alone, against base diagnostics not consumed in pass 1.
    for (key, _line), count in pool.items():
        unmapped[key] += count
    new: list[Diagnostic] = []
    for d in leftovers:
        if unmapped[_key(d)] > 0:
            unmapped[_key(d)] -= 1
        else:
            new.append(d)
    return new


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
