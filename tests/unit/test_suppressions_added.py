"""Suppressions a patch adds, matched with the base (a directive already there, moved by inserted
lines or carried by a rewritten line is not the patch's) and taken out without moving a line
(``strip`` keeps every line and the code's columns).
"""

from __future__ import annotations

import pytest

from prewrite_daemon.check.patch import FileEdit
from prewrite_daemon.ladder.suppressions import added_in, find_sites, strip

pytestmark = pytest.mark.timeout(30)


# --- added, against the base ------------------------------------------------------------------


def added(old: str | None, new: str, path: str = "m.py") -> list[tuple[str, int, bool]]:
    result = added_in(FileEdit(path, old, new))
    return [(a.site.kind, a.site.line, a.carried) for a in result.added]


BASE = "import os  # noqa: F401\n\n\ndef f() -> int:\n    return g()  # type: ignore\n"


def test_a_suppression_already_in_the_base_is_not_added() -> None:
    assert added(BASE, BASE + "\n\ndef h() -> int:\n    return 1\n") == []


def test_suppressions_moved_by_inserted_lines_are_not_added() -> None:
    moved = '"""Doc."""\n\nimport sys\n' + BASE.replace("def f", "X = 1\n\n\ndef f")
    assert added(BASE, moved) == []


def test_a_new_suppression_is_added_and_the_same_directive_elsewhere_too() -> None:
    new = BASE + "\n\ndef h() -> int:\n    return k()  # type: ignore\n"
    assert added(BASE, new) == [("type-ignore", 9, False)]
    assert added(None, BASE) == [("noqa", 1, False), ("type-ignore", 5, False)]


def test_a_suppressed_line_the_patch_rewrote_is_the_patchs_and_carried() -> None:
    new = BASE.replace("return g()", 'return "g"')
    assert added(BASE, new) == [("type-ignore", 5, True)]


def test_every_rewritten_line_of_the_base_carries_its_directive() -> None:
    old = "a = f()  # type: ignore\nb = g()  # type: ignore\n"
    new = "a = f(1)  # type: ignore\nb = g(1)  # type: ignore\n"
    assert added(old, new) == [("type-ignore", 1, True), ("type-ignore", 2, True)]


def test_script_suppressions_match_by_the_line_they_silence() -> None:
    old = "// @ts-expect-error\nlet a: number = 'a';\n"
    assert added(old, "const top = 1;\n" + old, "a.ts") == []
    assert added(old, old.replace("'a'", "'b'"), "a.ts") == [("ts-expect-error", 1, True)]


def test_a_deleted_file_adds_nothing() -> None:
    assert added(BASE, "") == []
    assert added_in(FileEdit("m.py", BASE, None)).added == ()


# --- strip --------------------------------------------------------------------------------------


def stripped(path: str, text: str) -> str:
    return strip(text, find_sites(path, text).sites)


def test_strip_keeps_every_line_and_the_codes_columns() -> None:
    text = (
        "# ruff: noqa\n"
        "x: int = 'a'  # type: ignore\n"
        "    # pyright: basic\n"
        "y = 1  # why  # noqa: E501\n"
        "z = 2  # noqa: E501  # why\n"
    )
    assert stripped("m.py", text) == "\nx: int = 'a'\n\ny = 1  # why\nz = 2  # why\n"


def test_strip_blanks_a_comment_with_code_after_it_and_keeps_block_line_breaks() -> None:
    text = "const a = /* @ts-ignore */ b;\n/* eslint-disable\n   no-console */\nlog();\r\n"
    out = stripped("a.ts", text)
    assert out == "const a =                  b;\n\n\nlog();\r\n"
    assert out.count("\n") == text.count("\n")


def test_strip_leaves_strings_alone() -> None:
    text = 's = "# noqa"  # noqa\n'
    assert stripped("m.py", text) == 's = "# noqa"\n'


def test_strip_only_the_sites_asked() -> None:
    text = "import os  # type: ignore  # noqa: F401\n"
    [type_ignore, _noqa] = find_sites("m.py", text).sites
    assert strip(text, [type_ignore]) == "import os  # noqa: F401\n"
