"""The base-vs-candidate diff: only what a patch introduced, robust to shifted and moved lines."""

from __future__ import annotations

from prewrite.protocol import Diagnostic, Severity
from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.check.diagnostics import introduced, line_map, to_wire
from prewrite_daemon.languages.python.language import PYTHON

ASSIGN = 'Type "Literal[\'a\']" is not assignable to declared type "int"'
UNDEFINED = '"nope" is not defined'


def diag(
    line: int,
    message: str = ASSIGN,
    rule: str = "reportAssignmentType",
    severity: Severity = "error",
    path: str = "m.py",
) -> Diagnostic:
    return Diagnostic(path, line, 10, line, 13, severity, rule, message, "Pyright")


def lines(*text: str) -> str:
    return "".join(f"{t}\n" for t in text)


# --- line_map -------------------------------------------------------------------------------


def test_line_map_of_identical_texts_is_the_identity() -> None:
    text = lines("a", "b", "c")
    assert line_map(text, text) == {1: 1, 2: 2, 3: 3}


def test_line_map_follows_lines_inserted_above() -> None:
    base = lines("a", "b", "c")
    candidate = lines("new1", "new2", "a", "b", "c")
    assert line_map(base, candidate) == {1: 3, 2: 4, 3: 5}


def test_line_map_leaves_changed_lines_unmapped() -> None:
    base = lines("a", "b", "c")
    candidate = lines("a", "B!", "c")
    assert line_map(base, candidate) == {1: 1, 3: 3}


def test_line_map_ignores_line_ending_style() -> None:
    assert line_map("a\r\nb\r\nc\r\n", "a\nb\nc\n") == {1: 1, 2: 2, 3: 3}


def test_line_map_counts_lines_as_the_language_server_does() -> None:
    """LSP lines end only at \\n, \\r\\n or \\r; a form feed (Emacs page break) is not one."""
    base = "#\x0c page\nx = 1\n"
    candidate = "import os\n#\x0c page\nx = 1\n"
    assert line_map(base, candidate) == {1: 2, 2: 3}


# --- introduced -----------------------------------------------------------------------------


def test_new_file_reports_everything() -> None:
    candidate = [diag(1), diag(2, UNDEFINED, "reportUndefinedVariable")]
    assert introduced([], candidate, None, "x: int = 'a'\nnope\n") == candidate


def test_pre_existing_errors_are_not_reported() -> None:
    text = lines("x: int = 'a'", "y = 1")
    assert introduced([diag(1)], [diag(1)], text, lines("x: int = 'a'", "y = 2")) == []


def test_unchanged_file_with_same_errors_reports_nothing() -> None:
    """An importer that was rechecked: no texts, same diagnostics."""
    base = [diag(3), diag(7, UNDEFINED, "reportUndefinedVariable")]
    assert introduced(base, list(reversed(base)), None, None) == []


def test_lines_inserted_above_an_error_add_nothing() -> None:
    base_text = lines("import os", "x: int = 'a'")
    candidate_text = lines("import os", "import sys", "", "", "x: int = 'a'")
    assert introduced([diag(2)], [diag(5)], base_text, candidate_text) == []


def test_a_fixed_error_gives_nothing() -> None:
    base_text = lines("x: int = 'a'")
    assert introduced([diag(1)], [], base_text, lines("x: int = 1")) == []


def test_a_duplicated_error_line_reports_exactly_the_copy() -> None:
    base_text = lines("def f() -> None:", "    x: int = 'a'", "    return None")
    candidate_text = lines(
        "def f() -> None:", "    x: int = 'a'", "    x: int = 'a'", "    return None"
    )
    new = introduced([diag(2)], [diag(2), diag(3)], base_text, candidate_text)
    assert len(new) == 1
    assert new[0].message == ASSIGN
    assert new[0].line in (2, 3)


def test_a_new_error_above_a_pre_existing_one_is_the_one_reported() -> None:
    base_text = lines("x: int = 'a'")
    candidate_text = lines("y: int = 'a'", "x: int = 'a'")
    assert introduced([diag(1)], [diag(1), diag(2)], base_text, candidate_text) == [diag(1)]


def test_a_new_error_is_located_correctly_after_a_form_feed() -> None:
    """Line numbers come from the language server, which does not break lines at a form feed."""
    base_text = "#\x0c page\nx: int = 'a'\n"
    candidate_text = "#\x0c page\ny: int = 'a'\nx: int = 'a'\n"
    assert introduced([diag(2)], [diag(2), diag(3)], base_text, candidate_text) == [diag(2)]


def test_a_moved_block_keeps_its_error_unreported() -> None:
    block = ["def g() -> int:", "    return 'no'"]
    filler = [f"v{i} = {i}" for i in range(6)]
    base_text = lines(*block, *filler)
    candidate_text = lines(*filler, *block)
    message = 'Type "Literal[\'no\']" is not assignable to return type "int"'
    base = [diag(2, message, "reportReturnType")]
    candidate = [diag(8, message, "reportReturnType")]
    assert line_map(base_text, candidate_text).get(2) is None  # the move is not a shift
    assert introduced(base, candidate, base_text, candidate_text) == []


def test_same_message_with_another_rule_or_severity_is_new() -> None:
    text = lines("x: int = 'a'")
    warning = diag(1, severity="warning")
    other_rule = diag(1, rule="reportGeneralTypeIssues")
    new = introduced([diag(1)], [diag(1), warning, other_rule], text, text)
    assert new == [warning, other_rule]


def test_more_copies_than_before_reports_the_surplus() -> None:
    base_text = lines("a", "b")
    candidate_text = lines("a", "b", "c", "d")
    base = [diag(1, UNDEFINED)]
    candidate = [diag(1, UNDEFINED), diag(3, UNDEFINED), diag(4, UNDEFINED)]
    assert introduced(base, candidate, base_text, candidate_text) == [
        diag(3, UNDEFINED),
        diag(4, UNDEFINED),
    ]


# --- the same error, reworded (pass 3) -----------------------------------------------------

OPERATOR = 'Operator "+=" not supported for types "{}" and "str"'
OPERATOR_RULE = "reportOperatorIssue"


def operator(line: int, left: str, column: int = 10) -> Diagnostic:
    message = OPERATOR.format(left)
    return Diagnostic("m.py", line, column, line, 13, "error", OPERATOR_RULE, message, "Pyright")


def test_an_error_at_the_same_place_whose_types_changed_is_not_new() -> None:
    """Django's ``utils/text.py``: the warm server printed another union after a patch than
    before it, at an unchanged line the patch did not touch."""
    base_text = lines("def capfirst(x):", "    return x", "s += t")
    candidate_text = lines("def capfirst(x):", "    return x or ''", "s += t")
    base = [operator(3, "str | Unknown | Any")]
    candidate = [operator(3, "str | Any")]
    assert introduced(base, candidate, base_text, candidate_text) == []


def test_the_same_rewording_after_a_shift_is_not_new() -> None:
    base_text = lines("s += t")
    candidate_text = lines("import os", "s += t")
    assert introduced([operator(1, "int")], [operator(2, "bytes")], base_text, candidate_text) == []


def test_a_reworded_error_elsewhere_is_new() -> None:
    """Another line, another column, or a changed line: not the same place."""
    text = lines("s += t", "u += v")
    assert introduced([operator(1, "int")], [operator(2, "bytes")], text, text) == [
        operator(2, "bytes")
    ]
    moved = operator(1, "bytes", column=4)
    assert introduced([operator(1, "int")], [moved], text, text) == [moved]
    changed_text = lines("s += t + 1", "u += v")
    assert introduced([operator(1, "int")], [operator(1, "bytes")], text, changed_text) == [
        operator(1, "bytes")
    ]


def test_a_different_error_at_the_same_place_is_new() -> None:
    """Only the quoted parts may differ: another sentence, rule or severity is another error."""
    text = lines("s += t")
    other = Diagnostic("m.py", 1, 10, 1, 13, "error", OPERATOR_RULE, '"s" is unbound', "Pyright")
    assert introduced([operator(1, "int")], [other], text, text) == [other]
    other_rule = Diagnostic(
        "m.py", 1, 10, 1, 13, "error", "reportCallIssue", OPERATOR.format("x"), "Pyright"
    )
    assert introduced([operator(1, "int")], [other_rule], text, text) == [other_rule]


def test_one_base_error_pairs_with_one_reworded_error_only() -> None:
    text = lines("s += t")
    twice = [operator(1, "bytes"), operator(1, "float")]
    assert len(introduced([operator(1, "int")], twice, text, text)) == 1


def test_a_base_error_paired_by_identity_is_not_paired_again() -> None:
    """Passes 1 and 2 take theirs first: a reworded copy beside an unchanged one is new."""
    text = lines("s += t")
    new = introduced([operator(1, "int")], [operator(1, "int"), operator(1, "str")], text, text)
    assert new == [operator(1, "str")]


def test_two_copies_of_one_error_in_two_union_orders_count_once() -> None:
    """Django's ``utils/text.py:122``: after a patch of ``capfirst`` the warm server reported
    the base's error twice, ``"str | Any | Unknown"`` and ``"str | Unknown | Any"``."""
    text = lines("s += t")
    twice = [operator(1, "str | Any | Unknown"), operator(1, "str | Unknown | Any")]
    assert introduced([operator(1, "str | Any | Unknown")], twice, text, text) == []
    assert introduced([], twice, text, text) == [twice[0]]


def test_copies_of_one_message_elsewhere_still_count() -> None:
    """Only a copy at the very same place is dropped: another column is another error."""
    text = lines("s += t")
    beside = [operator(1, "str | Any"), operator(1, "Any | str", column=4)]
    assert introduced([operator(1, "str | Any")], beside, text, text) == [beside[1]]


# --- to_wire --------------------------------------------------------------------------------


def raw(severity: str, message: str = "m") -> RawDiagnostic:
    return RawDiagnostic(4, 0, 4, 7, severity, "reportX", message, "Pyright")


def test_to_wire_is_one_based() -> None:
    assert to_wire(raw("error"), "pkg/a.py") == Diagnostic(
        "pkg/a.py", 5, 1, 5, 8, "error", "reportX", "m", "Pyright"
    )


def test_to_wire_keeps_errors_warnings_and_information() -> None:
    kept = [to_wire(raw(s), "a.py") for s in ("error", "warning", "information")]
    assert [d.severity if d else None for d in kept] == ["error", "warning", "information"]


def test_to_wire_drops_hints() -> None:
    """Hints are 'unused' / 'unreachable' greying, not findings."""
    assert to_wire(raw("hint"), "a.py") is None


def test_to_wire_normalizes_nbsp_indentation() -> None:
    message = 'Type "str" is not assignable\n\u00a0\u00a0"str" is not "int"'
    wired = to_wire(raw("error", message), "a.py", PYTHON.normalize_message)
    assert wired is not None
    assert wired.message == 'Type "str" is not assignable\n  "str" is not "int"'
    unchanged = to_wire(raw("error", message), "a.py")  # no language: the message as sent
    assert unchanged is not None
    assert unchanged.message == message


def test_nbsp_and_space_variants_of_one_error_are_the_same_error() -> None:
    text = lines("x: int = 'a'")
    base = to_wire(raw("error", "bad\n\u00a0\u00a0detail"), "a.py", PYTHON.normalize_message)
    candidate = to_wire(raw("error", "bad\n  detail"), "a.py", PYTHON.normalize_message)
    assert base is not None
    assert candidate is not None
    assert introduced([base], [candidate], text, text) == []
