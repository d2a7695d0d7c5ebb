"""Anchored find/replace: locate each ``find`` in the file's real bytes, splice ``replace`` there.

The find string only locates; the file's own content survives around the edit. Exact match
first; failing that, a whitespace-normalized match whose every character maps back to offsets in
the original, so drift in indentation or line breaks still anchors to the real bytes. Nothing
else is forgiven: a straightened quote or a renamed identifier is a ``find_mismatch``, reported
with the closest-scoring lines of the real file; several sites are ``find_ambiguous``, with a
snippet of each. Edits to one file apply in order against the evolving text. In a CRLF file
``find`` and ``replace`` are read with CRLF line ends: an LF find never anchors between a CR
and its LF.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from prewrite.errors import BadRequest, ErrorDetail, FindAmbiguous, FindMismatch

MAX_CLOSEST = 3
_INDENT = " \t\f\v"  # whitespace that does not end a line


@dataclass(frozen=True)
class Normalized:
    """Whitespace runs collapsed to one space; ``start``/``end`` map each char to the original."""

    text: str
    start: list[int]
    end: list[int]


def normalize(original: str) -> Normalized:
    chars: list[str] = []
    start: list[int] = []
    end: list[int] = []
    i, n = 0, len(original)
    while i < n:
        if original[i].isspace():
            j = i
            while j < n and original[j].isspace():
                j += 1
            chars.append(" ")
            start.append(i)
            end.append(j)
            i = j
        else:
            chars.append(original[i])
            start.append(i)
            end.append(i + 1)
            i += 1
    return Normalized("".join(chars), start, end)


def _occurrences(haystack: str, needle: str) -> list[int]:
    found: list[int] = []
    at = haystack.find(needle)
    while at != -1:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


def locate(text: str, find: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that ``find`` anchors to: exact ones, else whitespace-normalized ones."""
    exact = _occurrences(text, find)
    if exact:
        return [(at, at + len(find)) for at in exact]
    norm = normalize(text)
    needle = normalize(find).text.strip(" ")
    if not needle:
        return []
    lead = find[: len(find) - len(find.lstrip())]
    trail = find[len(find.rstrip()) :]
    spans: list[tuple[int, int]] = []
    for at in _occurrences(norm.text, needle):
        begin = _extend_back(text, norm.start[at], lead)
        end = _extend_forward(text, norm.end[at + len(needle) - 1], trail)
        if begin is not None and end is not None:
            spans.append((begin, end))
    return spans


def _extend_forward(text: str, end: int, trail: str) -> int | None:
    """Honour the find's trailing whitespace: a line end must end a line, a space a word."""
    if not trail:
        return end
    rest = text[end:]
    run = rest[: len(rest) - len(rest.lstrip())]
    if not run and end != len(text):
        return None  # "a = 1\n" must not anchor inside "a = 10"
    newline = run.find("\n")
    if "\n" in trail:
        if newline == -1:
            return end + len(run) if end + len(run) == len(text) else None
        after = end + newline + 1  # through the line break (\r\n included)
        if trail.endswith("\n"):
            return after
        # The find ends with the next line's indentation: cover the real one, or the
        # replacement's indentation would be put in front of it (doubled indent).
        indent = run[newline + 1 :]
        return after + len(indent) - len(indent.lstrip(_INDENT))
    stop = newline if newline != -1 else len(run)
    if stop and run[stop - 1] == "\r":
        stop -= 1
    return end + stop  # over the spaces before the line break


def _extend_back(text: str, begin: int, lead: str) -> int | None:
    """Honour the find's leading whitespace: indentation, or the line break before it."""
    if not lead:
        return begin
    before = text[:begin]
    run = before[len(before.rstrip()) :]
    if not run and begin != 0:
        return None  # " x" must not anchor inside "ax"
    start = begin - len(run)
    newline = run.rfind("\n")
    if "\n" in lead:
        if newline == -1:
            return start if start == 0 else None
        at = start + newline
        return at - 1 if at > 0 and text[at - 1] == "\r" else at  # from the line break
    return start + newline + 1 if newline != -1 else start  # from the start of the line


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def closest_lines(text: str, find: str) -> list[ErrorDetail]:
    """The windows of the real file that look most like ``find``, best first."""
    lines = text.splitlines()
    want = find.strip("\n").splitlines() or [find]
    size = max(1, len(want))
    target = "\n".join(w.strip() for w in want)
    scored: list[tuple[float, int]] = []
    for i in range(max(1, len(lines) - size + 1)):
        window = "\n".join(line.strip() for line in lines[i : i + size])
        scored.append((difflib.SequenceMatcher(None, target, window).ratio(), i))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [
        ErrorDetail(f"line {i + 1} ({score:.0%} alike): " + " ⏎ ".join(lines[i : i + size])[:200])
        for score, i in scored[:MAX_CLOSEST]
    ]


def _snippet(text: str, span: tuple[int, int]) -> ErrorDetail:
    line = _line_of(text, span[0])
    first = text[span[0] : span[1]].splitlines()[0] if text[span[0] : span[1]] else ""
    return ErrorDetail(f"line {line}: {first[:200]}")


def _to_crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def apply_edits(path: str, text: str, edits: list[tuple[str, str]]) -> str:
    """Apply ``(find, replace)`` pairs in order; raise ``FindMismatch`` / ``FindAmbiguous``."""
    crlf = "\r\n" in text
    for index, (find, replace) in enumerate(edits, start=1):
        if not find:
            raise BadRequest(
                f"{path}: edit {index} has an empty 'find'", [ErrorDetail("empty find", path)]
            )
        if crlf:  # an LF find must not anchor between a \r and its \n
            find, replace = _to_crlf(find), _to_crlf(replace)
        spans = locate(text, find)
        if not spans:
            raise FindMismatch(
                f"{path}: edit {index}: 'find' matches nothing in the file",
                [
                    ErrorDetail("closest lines of the real file follow", path),
                    *closest_lines(text, find),
                ],
            )
        if len(spans) > 1:
            raise FindAmbiguous(
                f"{path}: edit {index}: 'find' matches {len(spans)} places; make it longer",
                [ErrorDetail(f"{len(spans)} sites", path), *(_snippet(text, s) for s in spans)],
            )
        begin, end = spans[0]
        text = text[:begin] + replace + text[end:]
    return text
