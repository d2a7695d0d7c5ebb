"""Anchored find/replace, where an anchor lands: ``normalize`` and ``locate``, exact and
whitespace-drifted anchors (replacing the real bytes, whole lines, the text around untouched), what
is not forgiven (straightened quotes), CRLF files, an empty find and unicode.
"""

from __future__ import annotations

import pytest

from prewrite.errors import BadRequest, FindMismatch
from prewrite_daemon.check.anchor import apply_edits, locate, normalize

LSQUO, RSQUO = "\u2018", "\u2019"  # typographic quotes, spelled out for the linter


# --- normalize / locate ---------------------------------------------------------------------


def test_normalize_collapses_runs_and_maps_back_to_the_original() -> None:
    original = "a \t b\n\n  c"
    norm = normalize(original)
    assert norm.text == "a b c"
    for i, char in enumerate(norm.text):
        piece = original[norm.start[i] : norm.end[i]]
        if char == " ":
            assert piece.isspace()
        else:
            assert piece == char
    # The whitespace run between b and c is the whole "\n\n  ".
    assert original[norm.start[3] : norm.end[3]] == "\n\n  "


def test_locate_exact_spans() -> None:
    assert locate("x = 1\ny = 2\n", "y = 2") == [(6, 11)]


def test_locate_normalized_span_covers_the_real_bytes() -> None:
    text = "head\nx   =\t1\ntail\n"
    [(begin, end)] = locate(text, "x = 1")
    assert text[begin:end] == "x   =\t1"


def test_locate_whitespace_only_find_that_is_absent_matches_nothing() -> None:
    assert locate("x=1\n", "   ") == []


# --- exact and drifted matches ----------------------------------------------------------------


def test_exact_match_replaces_only_that_site() -> None:
    text = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    out = apply_edits("m.py", text, [("return 2", "return 3")])
    assert out == "def f():\n    return 1\n\n\ndef g():\n    return 3\n"


@pytest.mark.parametrize(
    ("text", "find", "replace", "expected"),
    [
        pytest.param(
            "def f():\n    if a:\n        return 1\n    return 2\n",
            "if a:\n  return 1",
            "if b:\n        return 1",
            "def f():\n    if b:\n        return 1\n    return 2\n",
            id="indentation",
        ),
        pytest.param(
            "before\nx  =  compute( a,   b )\nafter\n",
            "x = compute( a, b )",
            "x = compute(a, b)",
            "before\nx = compute(a, b)\nafter\n",
            id="collapsed-spaces",
        ),
        pytest.param(
            "before\nx = compute(a, b)\nafter\n",
            "x    =    compute(a,    b)",
            "y = compute(a, b)",
            "before\ny = compute(a, b)\nafter\n",
            id="expanded-spaces",
        ),
        pytest.param(
            "total = add(\n    first,\n    second,\n)\nafter = 1\n",
            "add( first, second, )",
            "add(first, second, third)",
            "total = add(first, second, third)\nafter = 1\n",
            id="line-breaks-vs-spaces",
        ),
        pytest.param(
            "if x:\n\treturn 1\nend = 0\n",
            "if x:\n    return 1",
            "if x:\n\treturn 2",
            "if x:\n\treturn 2\nend = 0\n",
            id="tabs-vs-spaces",
        ),
    ],
)
def test_whitespace_drift_anchors_to_the_real_bytes(
    text: str, find: str, replace: str, expected: str
) -> None:
    assert apply_edits("m.py", text, [(find, replace)]) == expected


def test_text_around_a_drifted_edit_survives_byte_for_byte() -> None:
    # Odd bytes on both sides: trailing spaces, tabs, a form feed, non-ASCII, no final newline.
    prefix = "# héllo  \n\tKEEP = 'é'   \n\x0c\n"
    site = "value  =  compute(\n        a,\n        b)"
    suffix = "  # trailing  \n\n\tTAIL = 1"
    out = apply_edits("m.py", prefix + site + suffix, [("value = compute( a, b)", "value = 2")])
    assert out == prefix + "value = 2" + suffix


def test_drifted_whole_line_find_replaces_whole_lines() -> None:
    """A find that quotes whole lines (indent to newline) with drift inside them.

    The model quoted the indentation and the final newline correctly; only the spacing inside
    the first line drifted. The edit must replace those lines, not splice the replacement's own
    indentation and newline inside the file's (doubled indent = IndentationError, extra newline).
    """
    text = "def f():\n    x = 1\n    y = 2\n    return x\n"
    out = apply_edits("m.py", text, [("    x  =  1\n    y = 2\n", "    x = 10\n    y = 2\n")])
    assert out == "def f():\n    x = 10\n    y = 2\n    return x\n"


# --- what is not forgiven -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "find"),
    [
        pytest.param('msg = "Don\'t panic"\n', f'msg = "Don{RSQUO}t panic"', id="curly-in-find"),
        pytest.param(f'msg = "Don{RSQUO}t panic"\n', 'msg = "Don\'t panic"', id="straight-in-find"),
        pytest.param(f"print({LSQUO}hi{RSQUO})\n", "print('hi')", id="single-quotes"),
    ],
)
def test_straightened_quotes_do_not_match(text: str, find: str) -> None:
    with pytest.raises(FindMismatch) as caught:
        apply_edits("m.py", text, [(find, "msg = 1")])
    assert caught.value.code == "find_mismatch"
    # The real line (with its real quote) is offered as the closest one.
    assert caught.value.details[1].message.startswith("line 1 ")
    assert text.rstrip("\n") in caught.value.details[1].message


# --- CRLF -----------------------------------------------------------------------------------


def test_crlf_file_lf_find_anchors_and_replacement_becomes_crlf() -> None:
    text = "a = 1\r\nb = 2\r\nc = 3\r\n"
    out = apply_edits("m.py", text, [("a = 1\nb = 2", "a = 10\nb = 20\nb2 = 21")])
    assert out == "a = 10\r\nb = 20\r\nb2 = 21\r\nc = 3\r\n"
    assert out.count("\n") == out.count("\r\n")


def test_crlf_file_replacement_already_crlf_is_not_doubled() -> None:
    text = "a = 1\r\nb = 2\r\n"
    out = apply_edits("m.py", text, [("a = 1", "a = 1\r\nz = 0")])
    assert out == "a = 1\r\nz = 0\r\nb = 2\r\n"


def test_crlf_file_whole_line_lf_find_adds_no_blank_line() -> None:
    """An LF find quoting whole lines of a CRLF file: the file's line ending is replaced."""
    text = "a = 1\r\nb = 2\r\nc = 3\r\n"
    out = apply_edits("m.py", text, [("b = 2\n", "b = 20\n")])
    assert out == "a = 1\r\nb = 20\r\nc = 3\r\n"


def test_lf_file_keeps_lf() -> None:
    out = apply_edits("m.py", "a = 1\nb = 2\n", [("a = 1", "a = 1\nz = 0")])
    assert out == "a = 1\nz = 0\nb = 2\n"
    assert "\r" not in out


# --- shapes, unicode, codes -----------------------------------------------------------------


def test_empty_find_is_a_bad_request() -> None:
    with pytest.raises(BadRequest) as caught:
        apply_edits("m.py", "x = 1\n", [("x = 1", "x = 2"), ("", "y = 1")])
    assert caught.value.code == "bad_request"
    assert "edit 2" in caught.value.message


def test_unicode_text_and_drift() -> None:
    text = "naïve = 'café'  # 日本語\nπ = 3.14159\nemoji = '🐍'\n"
    out = apply_edits("m.py", text, [("π  =  3.14159", "π = 3.14"), ("'🐍'", "'🦀'")])
    assert out == "naïve = 'café'  # 日本語\nπ = 3.14\nemoji = '🦀'\n"
