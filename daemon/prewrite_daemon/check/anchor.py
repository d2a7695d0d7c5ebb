"""Anchored find/replace: locate each ``find`` in the file's real bytes, splice ``replace`` there.

The find string only locates; the file's own content survives around the edit. Exact match
first; failing that, a whitespace-normalized match whose every character maps back to offsets in
the original, so drift in indentation or line breaks still anchors to the real bytes. Nothing
else is forgiven: a straightened quote or a renamed identifier is a ``find_mismatch``, reported
with the closest-scoring lines of the real file; several sites are ``find_ambiguous``, with a
snippet of each. Edits to one file apply in order against the evolving text. In a CRLF file
``find`` and ``replace`` are read with CRLF line ends: an LF find never anchors between a CR
and its LF.

Bounded for any input (issue 20, item 8): sites are counted up to ``MAX_FIND_SITES`` and no
further (a find on two million sites is ``find_ambiguous`` at once, never two million spans);
the whitespace-normalized search is a plain search in the text with its runs collapsed, mapped
back in one pass for the sites found (no per-character map of the file); the closest lines of a
mismatch are scored on at most ``MAX_SCORED`` windows of at most ``MAX_COMPARED`` characters,
for at most ``SCORING_BUDGET_S``; sites of a long find stop being listed past ``VERIFY_BUDGET``.
"""

from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass

from prewrite.admission import MAX_FIND_SITES
from prewrite.errors import BadRequest, ErrorDetail, FindAmbiguous, FindMismatch

MAX_CLOSEST = 3
MAX_SCORED = 10_000  # windows of the file scored for a mismatch's closest lines
MAX_COMPARED = 2_000  # characters of the find and of a window compared
# ``SequenceMatcher.ratio`` is pure Python, up to O(n*m) per window: 2,000 random characters a
# line cost 0.35 s a window, so the scoring stops at this much time and ranks what it scored
SCORING_BUDGET_S = 1.0
VERIFY_BUDGET = 32 * 1024 * 1024  # characters of a find re-verified at its sites, in all
_SPACE_RUN = re.compile(r"\s+")  # what ``str.isspace`` calls whitespace, as ``normalize``
_INDENT = " \t\f\v"  # whitespace that does not end a line


@dataclass(frozen=True)
class Normalized:
    """Whitespace runs collapsed to one space; ``start``/``end`` map each char to the original."""

    text: str
    start: list[int]
    end: list[int]


def normalize(original: str) -> Normalized:
    """Whitespace runs of ``original`` collapsed, with the map back (the model ``locate``'s
    normalized search follows; it never builds one for the file)."""
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
    """Where ``needle`` starts (overlapping), up to ``MAX_FIND_SITES`` + 1 places."""
    found: list[int] = []
    at = haystack.find(needle)
    while at != -1 and len(found) <= MAX_FIND_SITES:
        found.append(at)
        if len(found) >= 2 and len(found) * len(needle) > VERIFY_BUDGET:
            # ambiguous already: a long needle in a run of its own characters is re-verified
            # at every offset (str.find holds the interpreter lock: 4 MiB in 16 MiB took 6.6 s)
            break
        at = haystack.find(needle, at + 1)
    return found


def _fuzzy(text: str, find: str) -> list[tuple[int, int]]:
    """The spans of ``text`` whose whitespace-normalized form is the find's (overlapping, at
    most ``MAX_FIND_SITES`` + 1), each from its first non-space character to its last's end."""
    needle = " ".join(find.split())
    if not needle:
        return []
    starts = _occurrences(_SPACE_RUN.sub(" ", text), needle)
    points = sorted({q for at in starts for q in (at, at + len(needle) - 1)})
    where = dict(zip(points, _to_original(text, points), strict=True))
    return [(where[at], where[at + len(needle) - 1] + 1) for at in starts]


def _to_original(text: str, points: list[int]) -> list[int]:
    """The offsets in ``text`` of the normalized text's non-space characters at ``points``
    (ascending): one pass over the whitespace runs before the last point, nothing kept."""
    offsets: list[int] = []
    shift = 0  # what the runs seen so far lost in the normalized text
    runs = _SPACE_RUN.finditer(text)
    run = next(runs, None)
    for point in points:
        while run is not None and run.start() - shift < point:
            shift += run.end() - run.start() - 1
            run = next(runs, None)
        offsets.append(point + shift)
    return offsets


def locate(text: str, find: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that ``find`` anchors to: exact ones, else whitespace-normalized ones
    (at most ``MAX_FIND_SITES`` + 1: more are not counted)."""
    exact = _occurrences(text, find)
    if exact:
        return [(at, at + len(find)) for at in exact]
    lead = find[: len(find) - len(find.lstrip())]
    trail = find[len(find.rstrip()) :]
    spans: list[tuple[int, int]] = []
    for first, last in _fuzzy(text, find):
        begin = _extend_back(text, first, lead)
        end = _extend_forward(text, last, trail)
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


def closest_lines(text: str, find: str) -> list[ErrorDetail]:
    """The windows of the real file that look most like ``find``, best first (bounded: see the
    module doc; in a larger file, the windows that hold the find's longest word come first)."""
    lines = text.splitlines()
    want = find.strip("\n").splitlines() or [find]
    size = max(1, len(want))
    target = "\n".join(w.strip() for w in want)[:MAX_COMPARED]
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)  # the target is indexed once, each window compared to it
    scored: list[tuple[float, int]] = []
    stop_at = time.monotonic() + SCORING_BUDGET_S
    for i in _windows(lines, find, size):
        if scored and time.monotonic() > stop_at:
            break  # a hint, not a verdict: the best of what was scored in the budget
        window = "\n".join(line.strip() for line in lines[i : i + size])[:MAX_COMPARED]
        matcher.set_seq1(window)
        scored.append((matcher.ratio(), i))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [
        ErrorDetail(f"line {i + 1} ({score:.0%} alike): " + " ⏎ ".join(lines[i : i + size])[:200])
        for score, i in scored[:MAX_CLOSEST]
    ]


def _windows(lines: list[str], find: str, size: int) -> list[int]:
    """The first lines of the windows to score: all of them in a file of at most ``MAX_SCORED``;
    else those holding the find's longest word, then the file's first, ``MAX_SCORED`` in all."""
    count = max(1, len(lines) - size + 1)
    if count <= MAX_SCORED:
        return list(range(count))
    word = max(find.split() or [find], key=len)
    chosen = [i for i in range(count) if word in lines[i]][:MAX_SCORED]
    return chosen or list(range(MAX_SCORED))


def _snippets(text: str, spans: list[tuple[int, int]]) -> list[ErrorDetail]:
    """The line and first line of each span (in order); lines counted once, not per span."""
    details: list[ErrorDetail] = []
    line, counted = 1, 0
    for begin, end in spans:
        line += text.count("\n", counted, begin)
        counted = begin
        piece = text[begin : min(end, begin + 1000)]
        first = piece.splitlines()[0] if piece else ""
        details.append(ErrorDetail(f"line {line}: {first[:200]}"))
    return details


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
            many = len(spans) > MAX_FIND_SITES  # counted no further
            count = f"more than {MAX_FIND_SITES}" if many else str(len(spans))
            raise FindAmbiguous(
                f"{path}: edit {index}: 'find' matches {count} places; make it longer",
                [ErrorDetail(f"{count} sites", path), *_snippets(text, spans[:MAX_FIND_SITES])],
            )
        begin, end = spans[0]
        text = text[:begin] + replace + text[end:]
    return text
