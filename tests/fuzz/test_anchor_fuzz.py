"""Anchored find/replace on generated texts: what anchors, where, and what it leaves intact.

Texts are built from a few tokens and whitespace runs so that repeats, near-repeats
("a = 1" in "a = 10") and whitespace drift are common, not rare.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from prewrite.errors import BadRequest, FindAmbiguous, FindMismatch
from prewrite_daemon.check.anchor import apply_edits, locate, normalize
from tests.fuzz.bounds import bounded

pytestmark = pytest.mark.fuzz

TOKENS = ("a", "b", "x", "=", "1", "10", "(", ")", "def", ":", "return", "'é'", "#")
SPACES = (" ", "  ", "\t", "\n", "\n\n", "    ", " \n", "\n    ")

tokens = st.sampled_from(TOKENS)
spaces = st.sampled_from(SPACES)
texts = st.lists(tokens | spaces, max_size=30).map("".join)
replaces = st.lists(tokens | spaces, max_size=6).map("".join)


def to_crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def occurrences(text: str, find: str) -> int:
    """Overlapping occurrences, as the anchor counts them."""
    return sum(text.startswith(find, i) for i in range(len(text)))


def expected_replace(text: str, replace: str) -> str:
    return to_crlf(replace) if "\r\n" in text else replace


@st.composite
def unique_substrings(draw: st.DrawFn) -> tuple[str, str]:
    text = draw(texts)
    assume(text)
    i = draw(st.integers(0, len(text) - 1))
    j = draw(st.integers(i + 1, len(text)))
    return text, text[i:j]


@bounded(300)
@given(pair=unique_substrings(), replace=replaces, crlf=st.booleans())
def test_a_unique_exact_find_is_str_replace(
    pair: tuple[str, str], replace: str, crlf: bool
) -> None:
    text, find = pair
    if crlf:
        text, find = to_crlf(text), to_crlf(find)
    assume(occurrences(text, find) == 1)
    got = apply_edits("m.py", text, [(find, replace)])
    assert got == text.replace(find, expected_replace(text, replace))


@bounded(200)
@given(text=texts, find=st.lists(tokens | spaces, max_size=5).map(lambda s: "".join(s) + "zz"))
def test_a_find_that_is_nowhere_is_find_mismatch(text: str, find: str) -> None:
    with pytest.raises(FindMismatch) as caught:
        apply_edits("m.py", text, [(find, "y")])
    assert caught.value.details, "a mismatch names the closest real lines"


@bounded(200)
@given(pair=unique_substrings(), replace=replaces)
def test_a_find_seen_twice_is_find_ambiguous(pair: tuple[str, str], replace: str) -> None:
    text, find = pair
    doubled = text + "\n" + text
    sites = occurrences(doubled, find)
    assert sites >= 2
    with pytest.raises(FindAmbiguous) as caught:
        apply_edits("m.py", doubled, [(find, replace)])
    assert len(caught.value.details) == 1 + sites  # a summary, then every site


@bounded(50)
@given(text=texts, replace=replaces)
def test_an_empty_find_is_bad_request(text: str, replace: str) -> None:
    with pytest.raises(BadRequest):
        apply_edits("m.py", text, [("", replace)])


@st.composite
def drifted(draw: st.DrawFn) -> tuple[str, str]:
    """A text and a find taken from it at token boundaries with its whitespace redrawn."""
    pieces = draw(st.lists(tokens | spaces, min_size=1, max_size=30))
    i = draw(st.integers(0, len(pieces) - 1))
    j = draw(st.integers(i + 1, len(pieces)))
    find = "".join(draw(spaces) if p in SPACES else p for p in pieces[i:j])
    return "".join(pieces), find


def _check_normalized_span(text: str, find: str, begin: int, end: int) -> None:
    """What a whitespace-normalized anchor promises about the real bytes it covers."""
    needle = normalize(find).text.strip(" ")
    assert normalize(text[begin:end]).text.strip(" ") == needle
    if find[:1].isspace():  # leading whitespace: from a line start, a line break or a word edge
        assert (
            begin == 0
            or text[begin] in "\r\n"
            or text[begin - 1] == "\n"
            or not text[begin - 1].isspace()
        )
    else:
        assert text[begin] == needle[0]
    if find.endswith("\n"):  # a whole line: never inside a longer one ("a = 1" in "a = 10")
        assert end == len(text) or text[end - 1] == "\n"
    elif find[-1:].isspace():
        assert end == len(text) or text[end] in "\r\n" or not text[end].isspace()
    else:
        assert text[end - 1] == needle[-1]


@bounded(250)
@given(pair=drifted(), replace=replaces)
@example(pair=("a = 10\nb\n", "a  =  1\n"), replace="c\n")
@example(pair=("x = 1\nxa = 1\n", " a = 1"), replace="y")
@example(pair=("if a:\n    x  = 1\n    return x\n", "x = 1\n    "), replace="x = 2\n    ")
def test_a_drifted_find_anchors_to_whole_real_text(pair: tuple[str, str], replace: str) -> None:
    text, find = pair
    assume(find.strip())
    assume(occurrences(text, find) == 0)
    spans = locate(text, find)
    for begin, end in spans:
        _check_normalized_span(text, find, begin, end)
    try:
        got = apply_edits("m.py", text, [(find, replace)])
    except FindMismatch:
        assert not spans
    except FindAmbiguous:
        assert len(spans) > 1
    else:
        [(begin, end)] = spans
        assert got == text[:begin] + replace + text[end:]


@st.composite
def crlf_edits(draw: st.DrawFn) -> tuple[str, str, str]:
    """A CRLF text, a find taken from its LF view (what an agent sees), an LF replacement."""
    lf_text = draw(texts)
    assume(lf_text.strip())
    i = draw(st.integers(0, len(lf_text) - 1))
    j = draw(st.integers(i + 1, len(lf_text)))
    return to_crlf(lf_text), lf_text[i:j], draw(replaces)


def _line_ends(text: str) -> tuple[int, int, int]:
    crlf = text.count("\r\n")
    return crlf, text.count("\n") - crlf, text.count("\r") - crlf


@bounded(300)
@given(edit=crlf_edits())
@example(edit=("a\r\nb", "\nb", "\nc"))
def test_a_crlf_file_keeps_crlf(edit: tuple[str, str, str]) -> None:
    text, find, replace = edit
    assume("\r\n" in text)
    try:
        got = apply_edits("m.py", text, [(find, replace)])
    except (FindMismatch, FindAmbiguous, BadRequest):
        return
    _crlf, lone_lf, lone_cr = _line_ends(got)
    assert (lone_lf, lone_cr) == (0, 0), f"{got!r} has a bare line ending"


@bounded(150)
@given(first=unique_substrings(), second=replaces, replace=replaces)
def test_edits_apply_in_order_against_the_evolving_text(
    first: tuple[str, str], second: str, replace: str
) -> None:
    base, find = first
    assume("\r" not in base)
    try:
        once = apply_edits("m.py", base, [(find, replace)])
        expected = apply_edits("m.py", once, [(second or "x", "y")])
    except (FindMismatch, FindAmbiguous):
        return
    assert apply_edits("m.py", base, [(find, replace), (second or "x", "y")]) == expected


@pytest.mark.parametrize(
    ("text", "find", "replace", "expected"),
    [
        pytest.param(
            "def f():\n    x  = 1\n    return x\n",
            "x = 1\n    ",
            "x = 2\n    ",
            "def f():\n    x = 2\n    return x\n",
            id="drifted-find-ending-in-indentation-does-not-double-it",
        ),
        pytest.param(
            "a = 1\r\nb = 2\r\n",
            "\nb = 2",
            "\nb = 3",
            "a = 1\r\nb = 3\r\n",
            id="lf-find-in-crlf-file-does-not-split-a-crlf",
        ),
    ],
)
def test_fuzz_findings_stay_fixed(text: str, find: str, replace: str, expected: str) -> None:
    """What the properties above found in anchor.py, pinned as plain examples."""
    assert apply_edits("m.py", text, [(find, replace)]) == expected
