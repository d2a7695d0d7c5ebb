"""Anchored find/replace: exact and whitespace-drifted anchors, mismatches, ambiguity, CRLF."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import sha256_hex
from prewrite.errors import BadRequest, FindAmbiguous, FindMismatch, StaleBase
from prewrite.protocol import Edit, FileChange
from prewrite_daemon.check.anchor import apply_edits, closest_lines, locate, normalize
from prewrite_daemon.check.patch import prepare_patch

if TYPE_CHECKING:
    from pathlib import Path

LSQUO, RSQUO = "\u2018", "\u2019"  # typographic quotes, spelled out for the linter


def _messages(err: FindMismatch | FindAmbiguous) -> list[str]:
    return [d.message for d in err.details]


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


def test_zero_matches_report_the_closest_real_lines_best_first() -> None:
    text = "alpha = 1\nbeta = 2\ngamma = 3\ndelta = 4\nepsilon = 5\n"
    with pytest.raises(FindMismatch) as caught:
        apply_edits("pkg/m.py", text, [("gama = 3", "gamma = 30")])
    err = caught.value
    assert err.code == "find_mismatch"
    assert "pkg/m.py" in err.message
    assert "edit 1" in err.message
    assert err.details[0].path == "pkg/m.py"
    closest = _messages(err)[1:]
    assert 1 <= len(closest) <= 3
    assert closest[0].startswith("line 3 ")
    assert "gamma = 3" in closest[0]


def test_closest_lines_scores_multi_line_windows() -> None:
    text = "import os\n\n\ndef f():\n    x = 1\n    return x\n\n\ndef g():\n    return 2\n"
    found = [d.message for d in closest_lines(text, "def f():\n    x = 2\n")]
    assert found[0].startswith("line 4 ")
    assert "def f(): ⏎     x = 1" in found[0]
    assert len(found) == 3


def test_closest_lines_of_an_empty_file() -> None:
    [only] = closest_lines("", "x = 1")
    assert only.message.startswith("line 1 ")


# --- ambiguity ------------------------------------------------------------------------------


def test_several_exact_matches_are_ambiguous_with_one_snippet_per_site() -> None:
    text = "x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n"
    with pytest.raises(FindAmbiguous) as caught:
        apply_edits("m.py", text, [("x = 1", "x = 9")])
    err = caught.value
    assert err.code == "find_ambiguous"
    assert "3 places" in err.message
    assert _messages(err) == ["3 sites", "line 1: x = 1", "line 3: x = 1", "line 5: x = 1"]


def test_several_normalized_matches_are_ambiguous() -> None:
    text = "a\nx  = 1\nb\nx =\t1\n"
    with pytest.raises(FindAmbiguous) as caught:
        apply_edits("m.py", text, [("x   =   1", "x = 9")])
    assert _messages(caught.value) == ["2 sites", "line 2: x  = 1", "line 4: x =\t1"]


def test_exact_match_wins_over_normalized_ambiguity() -> None:
    text = "x = 1\nx  =  1\nx =\n1\n"
    assert locate(text, "x = 1") == [(0, 5)]
    assert apply_edits("m.py", text, [("x = 1", "x = 2")]) == "x = 2\nx  =  1\nx =\n1\n"


# --- several edits --------------------------------------------------------------------------


def test_edits_apply_in_order_against_the_evolving_text() -> None:
    text = "def main():\n    run()\n"
    edits = [
        ("    run()", "    prepare()\n    run()"),
        ("prepare()", "prepare(fast=True)"),  # only exists once edit 1 inserted it
    ]
    assert apply_edits("m.py", text, edits) == "def main():\n    prepare(fast=True)\n    run()\n"


def test_a_later_edit_does_not_see_text_an_earlier_edit_replaced() -> None:
    text = "a = 1\nb = 2\n"
    with pytest.raises(FindMismatch) as caught:
        apply_edits("m.py", text, [("a = 1", "a = 7"), ("a = 1", "a = 100")])
    assert "edit 2" in caught.value.message


def test_find_ending_in_a_newline_does_not_anchor_inside_a_longer_line() -> None:
    """``a = 1\n`` says the line ends after 1; it must not anchor to the start of ``a = 10``.

    Silently editing the wrong site is the failure anchoring exists to prevent.
    """
    with pytest.raises(FindMismatch):
        apply_edits("m.py", "a = 10\nb = 2\n", [("a = 1\n", "a = 2\n")])


def test_a_later_edit_made_ambiguous_by_an_earlier_one() -> None:
    text = "a = 1\nb = 2\n"
    with pytest.raises(FindAmbiguous) as caught:
        apply_edits("m.py", text, [("b = 2", "b = 2\na = 1"), ("a = 1", "a = 3")])
    assert "edit 2" in caught.value.message
    assert _messages(caught.value)[1:] == ["line 1: a = 1", "line 3: a = 1"]


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


def test_error_codes() -> None:
    assert FindMismatch.code == "find_mismatch"
    assert FindAmbiguous.code == "find_ambiguous"


# --- through prepare_patch ------------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    (path / "pkg").mkdir(parents=True)
    (path / "pkg" / "m.py").write_text("def f():\n    return  1\n")
    return path


def _base(root: Path, rel: str) -> str:
    return sha256_hex((root / rel).read_bytes())


def test_prepare_patch_applies_edits(root: Path) -> None:
    change = FileChange(
        "pkg/m.py",
        base_sha256=_base(root, "pkg/m.py"),
        edits=[Edit("return 1", "return 2"), Edit("def f():", "def g():")],
    )
    [edit] = prepare_patch(root, [change]).edits
    assert edit.path == "pkg/m.py"
    assert edit.old_text == "def f():\n    return  1\n"
    assert edit.new_text == "def g():\n    return 2\n"
    assert (root / "pkg" / "m.py").read_text() == "def f():\n    return  1\n"  # disk untouched


def test_prepare_patch_edits_mismatch_names_the_file(root: Path) -> None:
    change = FileChange(
        "pkg/m.py", base_sha256=_base(root, "pkg/m.py"), edits=[Edit("return 3", "return 4")]
    )
    with pytest.raises(FindMismatch) as caught:
        prepare_patch(root, [change])
    assert caught.value.details[0].path == "pkg/m.py"
    assert caught.value.details[1].message.startswith("line 2 ")


def test_prepare_patch_edits_on_a_stale_base(root: Path) -> None:
    change = FileChange("pkg/m.py", base_sha256="0" * 64, edits=[Edit("return", "yield")])
    with pytest.raises(StaleBase):
        prepare_patch(root, [change])


def test_prepare_patch_edits_without_base_is_a_bad_request(root: Path) -> None:
    change = FileChange("pkg/new.py", base_sha256=None, edits=[Edit("x", "y")])
    with pytest.raises(BadRequest):
        prepare_patch(root, [change])


def test_prepare_patch_content_and_edits_is_a_bad_request(root: Path) -> None:
    change = FileChange(
        "pkg/m.py",
        base_sha256=_base(root, "pkg/m.py"),
        content="x = 1\n",
        edits=[Edit("return", "yield")],
    )
    with pytest.raises(BadRequest):
        prepare_patch(root, [change])


def test_prepare_patch_empty_edits_is_a_bad_request(root: Path) -> None:
    change = FileChange("pkg/m.py", base_sha256=_base(root, "pkg/m.py"), edits=[])
    with pytest.raises(BadRequest):
        prepare_patch(root, [change])


@pytest.mark.timeout(60)  # unbudgeted: 0.35 s a window, 200 windows here, ~70 s
def test_closest_lines_stop_at_their_budget_with_the_best_so_far() -> None:
    """Issue 20: a mismatch's hint scored every window with ``SequenceMatcher.ratio``, up to
    O(n*m) each; 2,000 random characters a line made one request an hour of CPU."""
    rng = random.Random(7)
    text = "\n".join("".join(rng.choice("ab") for _ in range(2000)) for _ in range(200))
    found = closest_lines(text, "".join(rng.choice("ab") for _ in range(2000)))
    assert 1 <= len(found) <= 3


def test_a_long_find_over_a_run_of_its_characters_is_ambiguous_without_listing_all() -> None:
    text = "a" * (4 * 1024 * 1024)
    with pytest.raises(FindAmbiguous) as caught:
        apply_edits("m.txt", text, [("a" * (1024 * 1024), "b")])
    assert 3 <= len(caught.value.details) < 1 + 1024 * 1024
