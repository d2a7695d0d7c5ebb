"""Suppressions a patch adds, found by the languages' own lexers (Python's ``tokenize``,
tree-sitter's grammars): every kind of directive in Python and script files, JSX comments,
look-alikes that tighten rather than suppress, and strings, templates and regexes that only look
like comments.
"""

from __future__ import annotations

import pytest

from prewrite_daemon.ladder.suppressions import find_sites

pytestmark = pytest.mark.timeout(30)


def kinds(path: str, text: str) -> list[tuple[str, str, str, int, int]]:
    """(kind, tool, scope, line, target) of each directive."""
    return [(s.kind, s.tool, s.scope, s.line, s.target) for s in find_sites(path, text).sites]


# --- every kind -----------------------------------------------------------------------------

PYTHON_KINDS = [
    ("x: int = 'a'  # type: ignore\n", ("type-ignore", "pyright", "line")),
    ("x: int = 'a'  # type:ignore[assignment]\n", ("type-ignore", "pyright", "line")),
    (
        "x: int = 'a'  # pyright: ignore[reportAssignmentType]\n",
        ("pyright-ignore", "pyright", "line"),
    ),
    ("x = 1\n# pyright: basic\n", ("pyright-config", "pyright", "file")),
    ("x = 1\n# pyright: reportAssignmentType=false\n", ("pyright-config", "pyright", "file")),
    ("x = 1\n# pyright: strict, reportX=warning\n", ("pyright-config", "pyright", "file")),
    ("# mypy: ignore-errors\nx = 1\n", ("mypy-config", "mypy", "file")),
    ("# mypy: disable-error-code=attr-defined\nx = 1\n", ("mypy-config", "mypy", "file")),
    ("import os  # noqa\n", ("noqa", "ruff", "line")),
    ("import os  # NOQA: F401\n", ("noqa", "ruff", "line")),
    ("import os  # unused on purpose # noqa:F401\n", ("noqa", "ruff", "line")),
    ("# ruff: noqa\nimport os\n", ("ruff-noqa", "ruff", "file")),
    ("# ruff: noqa: F401\nimport os\n", ("ruff-noqa", "ruff", "file")),
    ("# flake8: noqa\nimport os\n", ("ruff-noqa", "ruff", "file")),
]


@pytest.mark.parametrize(("text", "expected"), PYTHON_KINDS)
def test_every_python_kind(text: str, expected: tuple[str, str, str]) -> None:
    assert [k[:3] for k in kinds("m.py", text)] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n# pyright: strict\n",
        "x = 1\n# pyright: reportAssignmentType=true, reportX=error\n",
        "# mypy: disallow-untyped-defs, warn-unreachable\nx = 1\n",
        "x: int = 1  # type: int\n",
        "x = 1  # type: ignored-by-nobody\n",
        "x = 1  # fmt: skip\n",
        "x = 1  # a note about noqa-like things\n",
    ],
)
def test_tightening_and_look_alike_comments_are_not_suppressions(text: str) -> None:
    assert kinds("m.py", text) == []


def test_a_type_ignore_before_any_code_is_the_files() -> None:
    text = '#!/usr/bin/env python\n# type: ignore\n"""doc."""\nx = 1  # type: ignore\n'
    assert kinds("m.py", text) == [
        ("type-ignore", "pyright", "file", 2, 0),
        ("type-ignore", "pyright", "line", 4, 4),
    ]


def test_one_comment_may_hold_several_directives() -> None:
    text = "import os  # type: ignore  # noqa: F401\n"
    assert [k[0] for k in kinds("m.py", text)] == ["type-ignore", "noqa"]


SCRIPT = """\
// @ts-expect-error

// a note
let y: number = "a";
/// @ts-ignore
z();
/** @ts-ignore */ w();
// @ts-nocheck
/* eslint-disable */
foo(); // eslint-disable-line no-console
// eslint-disable-next-line no-undef
bar();
/* eslint no-console: "off" */
// biome-ignore lint/style/useConst: kept
let q = 1;
// biome-ignore-all lint: generated
// biome-ignore-end
"""


def test_every_script_kind_and_what_it_silences() -> None:
    assert kinds("a.ts", SCRIPT) == [
        ("ts-expect-error", "typescript", "next-line", 1, 4),  # past a blank and a // line
        ("ts-ignore", "typescript", "next-line", 5, 6),
        ("ts-ignore", "typescript", "next-line", 7, 9),
        ("ts-nocheck", "typescript", "file", 8, 0),
        ("eslint-disable", "eslint", "file", 9, 0),
        ("eslint-disable", "eslint", "line", 10, 10),
        ("eslint-disable", "eslint", "next-line", 11, 12),
        ("eslint-config", "eslint", "file", 13, 0),
        ("biome-ignore", "biome", "next-line", 14, 15),
        ("biome-ignore", "biome", "file", 16, 0),
    ]


def test_jsx_comments_are_read_in_tsx_and_jsx() -> None:
    text = "export const el = (\n  <div>\n    {/* @ts-ignore */}\n    {bad}\n  </div>\n);\n"
    for path in ("a.tsx", "a.jsx"):
        assert kinds(path, text) == [("ts-ignore", "typescript", "next-line", 3, 4)]


# --- strings that look like comments ----------------------------------------------------------


def test_python_strings_that_look_like_suppressions_are_not() -> None:
    text = (
        's = "# type: ignore"\n'
        "t = '''\n# noqa\n# pyright: basic\n'''\n"
        'u = f"{s}  # noqa"\n'
        'def f() -> None:\n    """Say `# mypy: ignore-errors`."""\n'
        "r = rb'# noqa'\n"
    )
    assert kinds("m.py", text) == []


def test_script_strings_templates_and_regexes_are_not_comments() -> None:
    text = (
        'const s = "// @ts-ignore";\n'
        "const t = `/* eslint-disable */ ${s} // @ts-expect-error`;\n"
        "const r = /\\/\\/ @ts-ignore/;\n"
        "const u = '/* biome-ignore x */';\n"
    )
    assert kinds("a.ts", text) == []
    jsx = "export const el = <p>// @ts-ignore is text here</p>;\n"
    assert kinds("a.jsx", jsx) == []


def test_other_files_have_no_suppressions() -> None:
    assert kinds("notes.md", "# type: ignore\n<!-- eslint-disable -->\n") == []
    assert kinds("conf.toml", "a = 1  # noqa\n") == []


def test_python_read_up_to_a_tokenizer_error_says_so() -> None:
    found = find_sites("m.py", "x = 1  # noqa\ns = '''never closed # type: ignore\n")
    assert [s.kind for s in found.sites] == ["noqa"]
    assert found.unreadable is not None
