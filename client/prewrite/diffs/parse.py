"""A unified diff read into its files and hunks, strictly: a hunk whose line counts do not add
up, a stray line where a hunk should be or a binary patch is refused, never guessed past.

Text before, between and after the files' sections (a commit message, ``diff -ruN``'s command
lines, ``index`` lines, a ``format-patch`` signature) is skipped, as ``git apply`` skips it.
The lines of a hunk keep their line ends: ``foo\\r`` of a CRLF file is ``foo\\r\\n``, and
``\\ No newline at end of file`` takes the line end off the line before it. A blank line
inside a hunk is an empty context line (mail and editors strip the single space).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from prewrite.diffs.names import (
    git_header_names,
    git_name,
    git_prefixes,
    strip_first_directory,
    traditional_name,
)
from prewrite.errors import BadRequest

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_REGULAR_MODES = ("100644", "100755", "100664")
Tag = Literal[" ", "-", "+"]
_TAGS: dict[str, Tag] = {" ": " ", "-": "-", "+": "+"}


@dataclass(frozen=True)
class Hunk:
    """One ``@@ -a,b +c,d @@`` hunk: its header's numbers and its lines, each with its end."""

    old_start: int
    old_len: int
    new_start: int
    new_len: int
    header: str
    lines: tuple[tuple[Tag, str], ...]

    @property
    def before(self) -> list[str]:
        """The file's lines this hunk expects (context and removed)."""
        return [text for tag, text in self.lines if tag != "+"]

    @property
    def after(self) -> list[str]:
        """The lines it leaves in their place (context and added)."""
        return [text for tag, text in self.lines if tag != "-"]

    @property
    def leading(self) -> int:
        """Context lines before its first change."""
        return next((i for i, (tag, _) in enumerate(self.lines) if tag != " "), len(self.lines))

    @property
    def trailing(self) -> int:
        """Context lines after its last change."""
        tags = [tag for tag, _ in reversed(self.lines)]
        return next((i for i, tag in enumerate(tags) if tag != " "), len(tags))


@dataclass
class FileDiff:
    """One file's section. ``old`` is None for a file the diff creates, ``new`` None for one it
    deletes; both set and different for a rename (or a copy, ``copy``). ``created`` is None
    when a traditional diff does not say (no ``/dev/null``, no epoch): the disk decides."""

    old: str | None
    new: str | None
    line: int  # where its section starts in the diff (1-based), for messages
    created: bool | None = False
    renamed: bool = False
    copy: bool = False
    hunks: list[Hunk] = field(default_factory=lambda: list[Hunk]())
    notes: list[str] = field(default_factory=lambda: list[str]())

    @property
    def path(self) -> str:
        """The name it is known by: its new name, else its old."""
        return self.new or self.old or "?"


class _Lines:
    """The diff's lines (split on LF only: a CR belongs to the line) and a cursor."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()  # the LF that ends the last line does not start another
        self.at = 0

    def peek(self, ahead: int = 0) -> str | None:
        i = self.at + ahead
        return self.lines[i] if i < len(self.lines) else None


def parse_diff(text: str) -> list[FileDiff]:
    """The files of the unified diff ``text``, in order; ``BadRequest`` naming the line (and
    file) for anything malformed, binary or not a unified diff."""
    if "\x1b[" in text:
        raise BadRequest("the diff holds terminal colour codes: make it with --no-color")
    if _crlf_converted(text):
        text = text.replace("\r\n", "\n")  # a CRLF file's hunks are then read as CRLF again
    src = _Lines(text)
    files: list[FileDiff] = []
    while (line := src.peek()) is not None:
        if line.startswith("diff --git "):
            files.append(_git_section(src))
        elif line.startswith(("diff --cc ", "diff --combined ")):
            raise _bad(src, "a combined (merge) diff cannot be applied; diff against one parent")
        elif line.startswith("--- ") and (src.peek(1) or "").startswith("+++ "):
            files.append(_traditional_section(src))
        elif line.startswith("Binary files ") and line.endswith(" differ"):
            raise _bad(src, f"{line}: a binary file; prewrite checks text files only")
        elif line.startswith("Only in "):
            raise _bad(src, f"'{line}': diff -r without -N leaves out the file's content; use -ruN")
        else:
            src.at += 1  # a commit message, an "index" line, "diff -ruN a b": not a file's diff
    if not files:
        raise BadRequest(
            "no file changes found: give a unified diff (git diff, diff -u, diff -ruN)"
        )
    return files


def _crlf_converted(text: str) -> bool:
    """Whether the diff's own lines were turned to CRLF in transit (a Windows editor, a mail):
    its first file header ends in CR, which neither git nor diff ever writes there."""
    first = re.search(r"^(diff --git |--- ).*$", text, flags=re.MULTILINE)
    return first is not None and first.group(0).endswith("\r")


def _bad(src: _Lines, message: str, path: str | None = None) -> BadRequest:
    where = f"{path}: " if path else ""
    return BadRequest(f"diff line {src.at + 1}: {where}{message}")


def _git_section(src: _Lines) -> FileDiff:
    """``diff --git``, its extended header lines, then ``---`` / ``+++`` and the hunks."""
    start = src.at
    header = git_header_names(src.lines[start][len("diff --git ") :])
    old_prefix, new_prefix = git_prefixes(header)
    named = None if header is None else (header[0][len(old_prefix) :], header[1][len(new_prefix) :])
    src.at += 1
    diff = FileDiff(old=named and named[0], new=named and named[1], line=start + 1)
    while (line := src.peek()) is not None and not line.startswith(("diff --git ", "--- ", "@@ ")):
        if not _git_extended(src, line, diff):
            break
        src.at += 1
    if (src.peek() or "").startswith("--- ") and (src.peek(1) or "").startswith("+++ "):
        old_field, new_field = src.lines[src.at][4:], src.lines[src.at + 1][4:]
        if header is None:  # names with spaces that differ (a rename): the prefixes are here
            sides = (git_name(old_field, "") or "a/", git_name(new_field, "") or "b/")
            old_prefix, new_prefix = git_prefixes(sides)
        old, new = git_name(old_field, old_prefix), git_name(new_field, new_prefix)
        diff.old, diff.new, diff.created = old, new, old is None
        src.at += 2
    moved = diff.renamed or diff.copy
    if named is None and not moved and diff.old is None and diff.new is None:
        raise BadRequest(f"diff line {start + 1}: cannot tell the file names of this git diff")
    if diff.old is not None and diff.new is not None and diff.old != diff.new and not moved:
        raise BadRequest(
            f"diff line {start + 1}: {diff.old} and {diff.new} differ but the diff says no "
            "rename (git diff --no-index of two files?): name the same file on both sides"
        )
    _hunks(src, diff)
    return diff


def _git_extended(src: _Lines, line: str, diff: FileDiff) -> bool:
    """Read one extended header line into ``diff``; False when ``line`` is not one."""
    keyword, _, value = line.partition(" ")
    words = line.split(" ")
    if line.startswith(("rename from ", "copy from ")):
        diff.old = git_name(line.split(" ", 2)[2], "")
        diff.renamed, diff.copy = keyword == "rename", keyword == "copy"
    elif line.startswith(("rename to ", "copy to ")):
        diff.new = git_name(line.split(" ", 2)[2], "")
    elif line.startswith("new file mode "):
        _regular(src, words[3], diff)
        diff.old, diff.created = None, True
    elif line.startswith("deleted file mode "):
        _regular(src, words[3], diff)
        diff.new = None
    elif keyword in ("old", "new") and value.startswith("mode "):
        _regular(src, words[2], diff)
        if keyword == "new":
            diff.notes.append(f"{diff.path}: mode change to {words[2]} ignored (contents only)")
    elif line.startswith("GIT binary patch") or (
        line.startswith("Binary files ") and line.endswith(" differ")
    ):
        raise _bad(src, "a binary patch; prewrite checks text files only", diff.path)
    elif keyword == "index" and len(words) == 3:  # "index abc..def 160000": a submodule
        _regular(src, words[2], diff)
    elif keyword not in ("index", "similarity", "dissimilarity"):
        return False
    return True


def _regular(src: _Lines, mode: str, diff: FileDiff) -> None:
    if mode not in _REGULAR_MODES:
        what = {"120000": "a symbolic link", "160000": "a submodule"}.get(mode, f"mode {mode}")
        raise _bad(src, f"{what}; prewrite patches regular files only", diff.path)


def _traditional_section(src: _Lines) -> FileDiff:
    """``--- old<TAB>time`` / ``+++ new<TAB>time`` and the hunks (``diff -u``, ``-ruN``)."""
    start = src.at
    old, old_epoch = traditional_name(src.lines[start][4:])
    new, new_epoch = traditional_name(src.lines[start + 1][4:])
    src.at += 2
    old_gone, new_gone = old == "/dev/null" or old_epoch, new == "/dev/null" or new_epoch
    both = [n for n in (old, new) if n != "/dev/null"]
    strip = any("/" in n for n in both)
    old = None if old_gone else (strip_first_directory(old) if strip else old)
    new = None if new_gone else (strip_first_directory(new) if strip else new)
    if old is not None and new is not None and old != new:
        new = old if new.startswith(old) else new  # "a.py" vs "a.py.new": git apply's choice
        old = new
    created = True if old_gone else (False if new_gone else None)
    diff = FileDiff(old=old, new=new, line=start + 1, created=created)
    if old_gone and new_gone:
        raise _bad(src, "neither side of this diff names a file")
    _hunks(src, diff)
    return diff


def _hunks(src: _Lines, diff: FileDiff) -> None:
    """The hunks that follow, in order; then nothing hunk-like may remain before the next
    file (a hunk whose header counts too few lines would otherwise lose its last ones)."""
    while (line := src.peek()) is not None and line.startswith("@@ "):
        hunk = _hunk(src, diff)
        if diff.hunks and hunk.old_start < diff.hunks[-1].old_start + diff.hunks[-1].old_len:
            raise _bad(src, f"hunk {hunk.header} overlaps or precedes the one before", diff.path)
        diff.hunks.append(hunk)
    line = src.peek()
    if line is None or line.startswith(("diff ", "--- ")) or line == "-- ":
        return
    if line.startswith(("+", "-", " ", "\\")):
        raise _bad(src, "a line outside any hunk (its header counts too few lines?)", diff.path)


def _hunk(src: _Lines, diff: FileDiff) -> Hunk:
    header_line = src.lines[src.at]
    match = _HUNK.match(header_line)
    if match is None:
        raise _bad(src, f"malformed hunk header {header_line[:80]!r}", diff.path)
    a, b, c, d = match.groups()
    old_start, new_start = int(a), int(c)
    old_len, new_len = (1 if b is None else int(b)), (1 if d is None else int(d))
    header = match.group(0)
    src.at += 1
    lines: list[tuple[Tag, str]] = []
    old_left, new_left = old_len, new_len
    while old_left > 0 or new_left > 0:
        line = src.peek()
        if line is None:
            raise _bad(src, f"hunk {header} ends early: the diff is truncated", diff.path)
        tag = _TAGS.get(line[:1] or " ")  # a blank line: an empty context line
        if line.startswith("\\") and lines:
            lines[-1] = _without_end(lines[-1])
        elif tag is None:
            raise _bad(
                src, f"hunk {header} ends early: {line[:80]!r} is not a hunk line", diff.path
            )
        else:
            old_left -= tag != "+"
            new_left -= tag != "-"
            if old_left < 0 or new_left < 0:
                raise _bad(src, f"hunk {header} has more lines than its header counts", diff.path)
            lines.append((tag, line[1:] + "\n"))
        src.at += 1
    if (src.peek() or "").startswith("\\") and lines:
        lines[-1] = _without_end(lines[-1])
        src.at += 1
    return Hunk(old_start, old_len, new_start, new_len, header, tuple(lines))


def _without_end(line: tuple[Tag, str]) -> tuple[Tag, str]:
    """``\\ No newline at end of file``: the line before it has no line end."""
    return line[0], line[1].removesuffix("\n")
