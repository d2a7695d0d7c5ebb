"""Unified diffs of random edits, made by ``difflib`` and by ``git diff --no-index``: reading one
and applying it to the text it was made from gives the edited text, exactly.

Texts are lines from a small alphabet (so repeated lines, which make hunks ambiguous to place,
are common), with LF or CRLF ends, blank lines, and a last line with or without its end.
"""

from __future__ import annotations

import difflib
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from prewrite.diffs.hunks import apply_hunks, split_lines
from prewrite.diffs.parse import parse_diff
from tests.fuzz.bounds import bounded
from tests.support.git_diffs import no_index_diff

pytestmark = pytest.mark.fuzz

WORDS = ("a", "b", "x = 1", "", "    return x", "def f():", "é", "\t# c", "-- x", "+ y")
ENDS = ("\n", "\n", "\r\n")

lines = st.tuples(st.sampled_from(WORDS), st.sampled_from(ENDS)).map("".join)


@st.composite
def texts(draw: st.DrawFn) -> str:
    body = draw(st.lists(lines, max_size=25))
    last = draw(st.sampled_from(["", "tail", "a"]))  # a last line without its line end
    return "".join(body) + last


@st.composite
def edited(draw: st.DrawFn) -> tuple[str, str]:
    """A text and the same text after a few line insertions, removals and replacements."""
    before = draw(texts())
    after = split_lines(before)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(after)))
        match draw(st.sampled_from(["insert", "remove", "replace"])):
            case "insert":
                after[at:at] = draw(st.lists(lines, min_size=1, max_size=3))
            case "remove":
                del after[at : at + draw(st.integers(1, 3))]
            case _:
                after[at : at + 1] = [draw(lines)]  # replace
    text = "".join(after)
    if draw(st.booleans()) and text and not text.endswith("\n"):
        text += "\n"  # the edit adds the missing line end
    return before, text


def difflib_diff(before: str, after: str, context: int) -> str:
    """``difflib.unified_diff`` made a valid patch: it does not say when a line has no end."""
    out: list[str] = []
    old, new = split_lines(before), split_lines(after)
    for line in difflib.unified_diff(old, new, "a/f", "b/f", n=context):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def applied(diff: str, before: str) -> str:
    [file] = parse_diff(diff)
    assert file.path == "f"
    return apply_hunks("f", before, file.hunks)


@bounded(400)
@given(pair=edited(), context=st.integers(1, 4), mangled=st.booleans())
def test_difflib_diffs_apply_to_what_they_were_made_from(
    pair: tuple[str, str], context: int, mangled: bool
) -> None:
    before, after = pair
    assume(before != after)
    diff = difflib_diff(before, after, context)
    if mangled:  # a mailer or an editor strips the space of blank context lines
        diff = "".join("\n" if line == " \n" else line for line in diff.splitlines(True))
    assert applied(diff, before) == after


@bounded(120)
@given(
    pair=edited(),
    options=st.sampled_from(
        [("-U3",), ("-U1",), ("-U5", "--diff-algorithm=patience"), ("--diff-algorithm=histogram",)]
    ),
)
def test_git_diffs_apply_to_what_they_were_made_from(
    pair: tuple[str, str], options: tuple[str, ...]
) -> None:
    before, after = pair
    assume(before != after)
    with tempfile.TemporaryDirectory() as tmp:
        diff = no_index_diff(Path(tmp), before, after, *options)
    assert applied(diff, before) == after
