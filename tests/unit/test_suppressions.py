"""Suppressions a patch adds: found by the languages' own lexers, matched with the base, taken
out without moving a line; what they hide given to the directive that covers it.

The lexers are the real ones (Python's ``tokenize``, tree-sitter's grammars); the rungs run
again in ``judge`` are scripted here (their real runs are in ``tests/e2e/test_suppressions.py``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest

from prewrite.errors import BackendFailed, BadRequest
from prewrite.protocol import Diagnostic, Suppression
from prewrite.suppression_text import suppression_lines
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.suppression_mode import parse_suppressions, suppression_mode
from prewrite_daemon.ladder.suppression_reruns import Rerun
from prewrite_daemon.ladder.suppression_rung import judge, listed
from prewrite_daemon.ladder.suppressions import added_in, find_sites, strip
from prewrite_daemon.limits import Deadline

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


# --- judge: what each hides ---------------------------------------------------------------------


def diag(path: str, line: int, rule: str, end_line: int | None = None) -> Diagnostic:
    return Diagnostic(path, line, 1, end_line or line, 5, "error", rule, f"{rule} here", "t")


def scripted(
    rung: str, tools: set[str], found: list[Diagnostic], seen: list[PreparedPatch],
    before: tuple[Diagnostic, ...] = (), fail: bool = False, whole: bool = False,
) -> Rerun:  # fmt: skip
    async def run(patch: PreparedPatch) -> list[Diagnostic]:
        seen.append(patch)
        if fail:
            raise BackendFailed("the checker crashed")
        return found

    return Rerun(rung, frozenset(tools), run, lambda _path, _tool: True, before, whole)


NEW = "import os  # noqa: F401\nx: int = 'a'  # type: ignore\n# mypy: ignore-errors\ny: int = 'b'\n"
PATCH = PreparedPatch(Path("/ws"), (FileEdit("m.py", "", NEW), FileEdit("n.py", "", "n = 1\n")))


async def test_each_directive_gets_what_it_covers_and_the_rest_is_counted() -> None:
    seen: list[PreparedPatch] = []
    typed = scripted(
        "typecheck", {"pyright"},
        [diag("m.py", 2, "reportAssignmentType"), diag("m.py", 4, "other"), diag("m.py", 1, "w")],
        seen, before=(diag("m.py", 1, "w"),), whole=True,
    )  # fmt: skip
    linted = scripted("lint", {"ruff"}, [diag("m.py", 1, "F401")], seen)
    step = await judge(PATCH, [typed, linted], "report", Deadline(10))
    by_kind = {s.kind: s for s in step.suppressions}
    assert [d.rule for d in by_kind["type-ignore"].hidden] == ["reportAssignmentType"]
    assert [d.rule for d in by_kind["noqa"].hidden] == ["F401"]
    assert by_kind["mypy-config"].judged is False
    assert "prewrite does not run mypy" in by_kind["mypy-config"].note
    assert "1 finding(s) of those runs on no suppressed line" in step.detail
    assert step.refusal == []
    # the type check saw the whole patch, only its own directive taken out; lint the file alone
    [whole, alone] = sorted(seen, key=lambda p: -len(p.edits))
    assert [e.path for e in whole.edits] == ["m.py", "n.py"]
    assert whole.edits[0].new_text == NEW.replace("  # type: ignore", "")
    assert [e.new_text for e in alone.edits] == [NEW.replace("  # noqa: F401", "")]


async def test_refuse_names_each_directive_then_what_it_hides() -> None:
    seen: list[PreparedPatch] = []
    typed = scripted("typecheck", {"pyright"}, [diag("m.py", 2, "reportAssignmentType")], seen)
    step = await judge(PATCH, [typed], "refuse", Deadline(10))
    rules = [(d.path, d.line, d.rule) for d in step.refusal]
    assert rules == [
        ("m.py", 1, "suppressions"),
        ("m.py", 2, "suppressions"),
        ("m.py", 3, "suppressions"),
        ("m.py", 2, "reportAssignmentType"),
    ]
    assert 'suppressions = "refuse"' in step.refusal[0].message


async def test_a_carried_directive_hiding_nothing_new_is_not_reported() -> None:
    old = "x = g()  # type: ignore\n"
    patch = PreparedPatch(Path("/ws"), (FileEdit("m.py", old, "x = h()  # type: ignore\n"),))
    quiet = await judge(patch, [scripted("typecheck", {"pyright"}, [], [])], "refuse", Deadline(10))
    assert (quiet.suppressions, quiet.refusal) == ([], [])
    hides = scripted("typecheck", {"pyright"}, [diag("m.py", 1, "reportCallIssue")], [])
    loud = await judge(patch, [hides], "report", Deadline(10))
    assert [len(s.hidden) for s in loud.suppressions] == [1]


async def test_a_rerun_that_fails_or_is_too_slow_leaves_what_it_hides_unknown() -> None:
    failing = scripted("typecheck", {"pyright"}, [], [], fail=True)
    step = await judge(PATCH, [failing], "report", Deadline(10))
    type_ignore = next(s for s in step.suppressions if s.kind == "type-ignore")
    assert not type_ignore.judged
    assert "backend_failed" in type_ignore.note

    async def forever(_patch: PreparedPatch) -> list[Diagnostic]:
        await asyncio.Event().wait()
        return []

    slow = Rerun("typecheck", frozenset({"pyright"}), forever, lambda _p, _t: True)
    step = await judge(PATCH, [slow], "report", Deadline(0.25))
    assert "no answer within" in next(s.note for s in step.suppressions if s.tool == "pyright")


async def test_a_spent_deadline_costs_a_patch_without_suppressions_nothing() -> None:
    clean = PreparedPatch(Path("/ws"), (FileEdit("m.py", None, "x = 1\n"),))
    assert (await judge(clean, [], "report", Deadline(0))).suppressions == []
    step = await judge(PATCH, [scripted("typecheck", {"pyright"}, [], [])], "report", Deadline(0))
    assert "no time was left" in next(s.note for s in step.suppressions if s.tool == "pyright")


async def test_no_suppression_no_run() -> None:
    seen: list[PreparedPatch] = []
    clean = PreparedPatch(Path("/ws"), (FileEdit("m.py", None, "x = 1  # a note\n"),))
    step = await judge(clean, [scripted("lint", {"ruff"}, [], seen)], "refuse", Deadline(10))
    assert (step.suppressions, step.refusal, step.detail, seen) == ([], [], "", [])


def test_a_red_verdict_lists_them_without_what_they_hide() -> None:
    [s] = listed(PreparedPatch(Path("/ws"), (FileEdit("m.py", None, "x = 1  # noqa\n"),)), "lint")
    assert (s.kind, s.judged, s.note) == (
        "noqa", False, "what it hides was not computed: the check stopped at the lint rung"
    )  # fmt: skip


# --- the setting and how a suppression reads ---------------------------------------------------


def test_the_setting_defaults_to_report_and_refuses_bad_values() -> None:
    assert parse_suppressions({}) == "report"
    assert parse_suppressions({"suppressions": "refuse"}) == "refuse"
    with pytest.raises(BadRequest, match='"report" or "refuse"'):
        parse_suppressions({"suppressions": "ignore"})
    assert suppression_mode(object()) == "report"


def test_how_a_suppression_reads() -> None:
    hidden = [diag("m.py", 2, "reportAssignmentType")]
    ignore = Suppression("m.py", 2, "type-ignore", "# type: ignore", 15, "line", "pyright")
    noqa = Suppression("m.py", 1, "noqa", "# noqa", 11, "line", "ruff", [], True)
    mypy = Suppression("m.py", 3, "mypy-config", "# mypy: ignore-errors", 1, "file", "mypy")
    lines = suppression_lines(
        [
            msgspec.structs.replace(ignore, hidden=hidden, judged=True),
            noqa,
            msgspec.structs.replace(mypy, note="mypy's: not run"),
        ]
    )
    assert lines == [
        "m.py:2:15: the patch adds `# type: ignore` (silences pyright on its line), which hides "
        "1 diagnostic(s) it introduces:",
        "  m.py:2:1: error: reportAssignmentType here [reportAssignmentType]",
        "m.py:1:11: the patch adds `# noqa` (silences ruff on its line); it hides nothing this "
        "patch introduces",
        "m.py:3:1: the patch adds `# mypy: ignore-errors` (silences mypy in the whole file); "
        "mypy's: not run",
    ]
