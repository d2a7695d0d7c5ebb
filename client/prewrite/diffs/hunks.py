"""A file's hunks applied to its text, exactly: every context and removed line must be the
file's own, character for character, or the diff is refused naming the file and the hunk.

Where a hunk goes: where its header says (moved by what the hunks before it added or removed);
failing that, the one other place after the previous hunk where all its lines match, as
``git apply`` finds a hunk whose lines moved, never with fuzz. Several such places are
``find_ambiguous``; none is ``find_mismatch``, with the first line that differs where the header
points, and a word when the file already holds the hunk's result (a diff applied already). As
in ``git apply``: a hunk starting at line 1 must match at the file's start, one without trailing
context at its end; a hunk without any context (``-U0``) only where its header says, and one that
only adds lines with no context to place them is refused in a non-empty file. In a CRLF file a
hunk whose lines end in LF is read with CRLF ends (as the daemon reads anchored edits).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.errors import BadRequest, ErrorDetail, FindAmbiguous, FindMismatch

if TYPE_CHECKING:
    from prewrite.diffs.parse import Hunk

SEARCH_BUDGET = 20_000_000  # line comparisons spent looking for moved hunks, per file
_SHOWN = 120  # characters of a line shown in an error


def split_lines(text: str) -> list[str]:
    """``text``'s lines, each with its LF (its CR stays inside); the last may have none."""
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])


class _Placer:
    """Finds where each hunk of one file goes, within a budget of line comparisons."""

    def __init__(self, path: str, lines: list[str]) -> None:
        self.path = path
        self.lines = lines
        self.budget = SEARCH_BUDGET

    def matches(self, at: int, want: list[str]) -> bool:
        if want and (at >= len(self.lines) or self.lines[at] != want[0]):
            return False  # the common case of a search, without building a slice
        self.budget -= len(want)
        if self.budget < 0:
            raise BadRequest(
                f"{self.path}: placing the diff's hunks took too long (a very repetitive file); "
                "make the diff against the file as it is now"
            )
        return self.lines[at : at + len(want)] == want

    def place(self, hunk: Hunk, want: list[str], expected: int, floor: int) -> int | None:
        """Where ``want`` (the hunk's expected lines) goes; None when nowhere."""
        end = len(self.lines) - len(want)
        if expected >= floor and self.matches(expected, want) and self._allowed(hunk, expected):
            return expected
        if hunk.leading == len(hunk.lines) or (hunk.leading == 0 and hunk.trailing == 0):
            return None  # no context (-U0), or a hunk of context only: where the header says
        if hunk.old_start <= 1:
            candidates = [0]
        elif hunk.trailing == 0:
            candidates = [end]
        else:
            candidates = range(floor, end + 1)
        found = [at for at in candidates if at >= floor and self.matches(at, want)]
        if len(found) > 1:
            raise FindAmbiguous(
                f"{self.path}: hunk {hunk.header} is not where its header says, and its lines "
                f"match {len(found)} places; make the diff against the file as it is now",
                [ErrorDetail(f"line {at + 1}", self.path) for at in found[:20]],
            )
        return found[0] if found else None

    def _allowed(self, hunk: Hunk, at: int) -> bool:
        """``git apply``'s anchors: line 1 means the start, no trailing context the end."""
        if hunk.leading == len(hunk.lines) or not any(t == " " for t, _ in hunk.lines):
            return True  # no context to anchor by: the header's place is all there is
        if hunk.old_start <= 1 and at != 0:
            return False
        return hunk.trailing != 0 or at + len(hunk.before) == len(self.lines)


def apply_hunks(path: str, text: str, hunks: list[Hunk]) -> str:
    """``text`` with ``hunks`` applied, in order; ``FindMismatch`` / ``FindAmbiguous`` naming
    ``path`` and the hunk that does not fit."""
    lines = split_lines(text)
    placer = _Placer(path, lines)
    crlf = "\r\n" in text
    out: list[str] = []
    pos = 0  # the first line of the file not yet copied or replaced
    drift = 0  # how far the hunks placed so far sat from where their headers said
    for number, hunk in enumerate(hunks, start=1):
        _refuse_unplaceable(path, hunk, lines)
        header_at = hunk.old_start if hunk.old_len == 0 else hunk.old_start - 1
        before, after = hunk.before, hunk.after
        at = placer.place(hunk, before, header_at + drift, pos)
        if at is None and crlf and not any("\r\n" in line for line in before + after):
            before, after = _crlf(before), _crlf(after)
            at = placer.place(hunk, before, header_at + drift, pos)
        if at is None:
            raise _mismatch(path, number, len(hunks), hunk, lines, header_at + drift)
        out += lines[pos:at]
        out += after
        pos = at + len(before)
        drift = at - header_at
    out += lines[pos:]
    if any(not line.endswith("\n") for line in out[:-1]):
        raise BadRequest(
            f"{path}: the diff leaves a line without a line end before the last line "
            "(a misplaced '\\ No newline at end of file')"
        )
    return "".join(out)


def _refuse_unplaceable(path: str, hunk: Hunk, lines: list[str]) -> None:
    """A hunk that only adds lines, with no context, in a non-empty file: nothing says where."""
    if lines and all(tag == "+" for tag, _ in hunk.lines):
        raise BadRequest(
            f"{path}: hunk {hunk.header} adds lines with no context to place them (diff -U0?); "
            "make the diff with context lines (git diff, diff -u)"
        )


def _crlf(lines: list[str]) -> list[str]:
    return [line[:-1] + "\r\n" if line.endswith("\n") else line for line in lines]


def _mismatch(
    path: str, number: int, count: int, hunk: Hunk, lines: list[str], at: int
) -> FindMismatch:
    """Where the header points, the first line that differs; and whether the hunk's result
    is there already (the diff was applied, or made the other way round)."""
    before, after = hunk.before, hunk.after
    details: list[ErrorDetail] = []
    for offset, want in enumerate(before):
        have = lines[at + offset] if 0 <= at + offset < len(lines) else None
        if have != want:
            shown = "the end of the file" if have is None else repr(have[:_SHOWN])
            details.append(
                ErrorDetail(
                    f"line {at + offset + 1} is {shown}; the diff expects {want[:_SHOWN]!r}"
                )
            )
            break
    if after and 0 <= at and lines[at : at + len(after)] == after:
        details.append(
            ErrorDetail("the file already holds this hunk's result: was the diff applied already?")
        )
    return FindMismatch(
        f"{path}: hunk {number} of {count} ({hunk.header}) does not match the file; "
        "make the diff against the file as it is now",
        [ErrorDetail(d.message, path) for d in details],
    )
