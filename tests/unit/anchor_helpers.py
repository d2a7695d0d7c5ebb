"""Shared by the anchored find/replace tests (``test_anchor_*.py``): the messages of a mismatch's or
an ambiguity's details.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite.errors import FindAmbiguous, FindMismatch


def messages(err: FindMismatch | FindAmbiguous) -> list[str]:
    return [d.message for d in err.details]
