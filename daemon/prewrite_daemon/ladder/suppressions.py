"""The suppressions a patch *adds*, and its texts with them taken out.

A directive of the candidate (``suppression_sites``) is the base's when the base holds the same
directive over the same code: sites are matched by (directive, code of the line it silences) as
multisets, so a file whose lines moved keeps its suppressions, and one that already silenced a
line is not blamed on the patch. A directive whose line the patch rewrote is the patch's (it now
silences new code) — ``carried`` when the base held the same directive on a line the patch
replaced: the runner reports it only if it hides something the patch introduced.

``strip`` removes directives so a rung can run again without them. Every line stays where it
was and the code before each comment keeps its columns: a trailing comment goes with the spaces
before it (no trailing whitespace for a linter to find), a comment with code after it on its line
becomes spaces, a comment alone on its line leaves the line empty (a block comment keeps its line
breaks), and a Python comment holding other text keeps that text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.ladder.suppression_scripts import is_script, script_sites
from prewrite_daemon.ladder.suppression_sites import Found, Site, is_python, python_sites

if TYPE_CHECKING:
    from collections.abc import Sequence

    from prewrite_daemon.check.patch import FileEdit


@dataclass(frozen=True)
class Added:
    """A directive the patch adds to ``path``; ``carried``: the base had the same directive on
    a line the patch rewrote."""

    path: str
    site: Site
    carried: bool = False


@dataclass(frozen=True)
class FileSuppressions:
    """What one file of a patch adds; ``unreadable``: why it was not all read (the receipt)."""

    added: tuple[Added, ...]
    unreadable: str | None = None


def find_sites(path: str, text: str) -> Found:
    """The suppression directives of ``text`` as the file at ``path`` (none outside Python and
    the JS/TS family)."""
    if is_python(path):
        return python_sites(text)
    if is_script(path):
        return script_sites(path, text)
    return Found(())


def added_in(edit: FileEdit) -> FileSuppressions:
    """The directives ``edit``'s candidate adds to its base (a deleted file adds none)."""
    if edit.new_text is None:
        return FileSuppressions(())
    new = find_sites(edit.path, edit.new_text)
    if not new.sites:
        return FileSuppressions((), new.unreadable)
    # A base the lexer cannot read lends no directive: all of the candidate's are the patch's.
    old = find_sites(edit.path, edit.old_text) if edit.old_text is not None else Found(())
    budget = Counter(_key(s) for s in old.sites)
    fresh: list[Site] = []
    for site in new.sites:
        if budget[_key(site)] > 0:
            budget[_key(site)] -= 1
        else:
            fresh.append(site)
    left: Counter[str] = Counter()  # the base's directives left unmatched, by their text
    for (directive, _code), n in budget.items():
        left[directive] += n
    added: list[Added] = []
    for site in fresh:
        carried = left[_directive(site)] > 0
        if carried:
            left[_directive(site)] -= 1
        added.append(Added(edit.path, site, carried))
    return FileSuppressions(tuple(added), new.unreadable)


def _directive(site: Site) -> str:
    return " ".join(site.text.split())


def _key(site: Site) -> tuple[str, str]:
    return (_directive(site), " ".join(site.code.split()))


def strip(text: str, sites: Sequence[Site]) -> str:
    """``text`` without ``sites``' directives, each line where it was."""
    by_comment: dict[tuple[int, int], list[Site]] = {}
    for site in sites:
        by_comment.setdefault(site.comment, []).append(site)
    cuts: list[tuple[int, int, str]] = []
    for (start, end), group in by_comment.items():
        kept = _without(text[start:end], start, group)
        if kept.strip(" \t#/*"):
            cuts.append((start, end, kept.rstrip()))  # other words of a Python comment stay
        else:
            cuts.append(_whole(text, start, end))
    for start, end, replacement in sorted(cuts, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _without(comment: str, offset: int, sites: list[Site]) -> str:
    for site in sorted(sites, key=lambda s: s.span, reverse=True):
        a, b = site.span[0] - offset, site.span[1] - offset
        comment = comment[:a] + comment[b:]
    return comment


def _whole(text: str, start: int, end: int) -> tuple[int, int, str]:
    """The cut that removes the comment ``text[start:end]`` whole."""
    line_end = text.find("\n", end)
    after = text[end : len(text) if line_end < 0 else line_end]
    comment = text[start:end]
    if after.strip():  # code follows on its line: blanks keep that code's columns
        return start, end, "".join(c if c in "\r\n" else " " for c in comment)
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    breaks = "".join(c for c in comment if c in "\r\n")
    return start - (len(before) - len(before.rstrip(" \t"))), end, breaks
