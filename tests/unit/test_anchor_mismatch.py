"""Anchored find/replace that does not land once: zero matches report the closest real lines (best
first, within a budget), several matches are ambiguous (one snippet per site, an exact match winning
over normalized ones, never listing them all), and the error codes.
"""

from __future__ import annotations

import random

import pytest

from prewrite.errors import FindAmbiguous, FindMismatch
from prewrite_daemon.check.anchor import apply_edits, closest_lines, locate
from tests.unit.anchor_helpers import messages as _messages


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


def test_error_codes() -> None:
    assert FindMismatch.code == "find_mismatch"
    assert FindAmbiguous.code == "find_ambiguous"


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
