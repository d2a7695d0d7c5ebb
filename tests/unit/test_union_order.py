"""Union members in one order for matching base and candidate diagnostics (``check.union_order``):
the same error printed with its union in another order is not new; different types never match."""

from __future__ import annotations

import pytest

from prewrite.protocol import Diagnostic
from prewrite_daemon.check.diagnostics import introduced
from prewrite_daemon.check.union_order import canonical, canonical_type

DJANGO_WARM = 'Operator "+=" not supported for types "str | Unknown | Any" and "str | None"'
DJANGO_COLD = 'Operator "+=" not supported for types "str | Any | Unknown" and "str | None"'


def test_the_same_union_in_another_order_reads_the_same() -> None:
    assert canonical(DJANGO_WARM) == canonical(DJANGO_COLD)
    assert canonical("Type 'Reaction | Atom' is not assignable") == canonical(
        "Type 'Atom | Reaction' is not assignable"
    )
    assert canonical_type("list[int | str] | None") == canonical_type("None | list[str | int]")
    assert canonical_type("dict[str, B | A]") == "dict[str, A | B]"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("list[int] | str", "list[str] | int"),
        ("A[x | y] | B[z]", "A[x | B[z] | y]"),
        ("int | str", "int | bytes"),
        ("(x: int) -> str | None", "None | (x: int) -> str"),  # not plain: never reordered
    ],
)
def test_different_types_never_read_the_same(one: str, other: str) -> None:
    assert canonical_type(one) != canonical_type(other)


def test_messages_without_plain_unions_are_left_as_they_are() -> None:
    prose = "X can't be \"a | b\" and doesn't match"
    assert canonical(prose) == prose
    assert canonical_type("Callable[[int], str") == "Callable[[int], str"  # unbalanced
    assert canonical('"{ a: number; } | undefined"') == '"{ a: number; } | undefined"'


def _d(line: int, message: str) -> Diagnostic:
    return Diagnostic("m.py", line, 1, line, 5, "error", "reportOperatorIssue", message, "Pyright")


def test_an_unchanged_error_printed_in_another_order_is_not_introduced() -> None:
    base, text = [_d(3, DJANGO_COLD)], "a\nb\nc\n"
    assert introduced(base, [_d(3, DJANGO_WARM)], text, text) == []  # on any line
    assert introduced(base, [_d(2, DJANGO_WARM)], text, text) == []
    # another type on another line: new (at the same place it is the same error, reworded:
    # tests/unit/test_diagnostics_diff.py)
    other = _d(2, DJANGO_WARM.replace('"str | None"', '"bytes | None"'))
    assert introduced(base, [other], text, text) == [other]
