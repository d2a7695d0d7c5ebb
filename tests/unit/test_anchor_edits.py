"""Anchored find/replace with several edits: they apply in order against the evolving text, a later
edit does not see what an earlier one replaced, and may be made ambiguous by it.
"""

from __future__ import annotations

import pytest

from prewrite.errors import FindAmbiguous, FindMismatch
from prewrite_daemon.check.anchor import apply_edits
from tests.unit.anchor_helpers import messages as _messages


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
