"""What the suppressions a patch adds hide, given to the directive that covers it (``judge``; the
rungs run again there are scripted here, their real runs are in ``tests/e2e/test_suppressions.py``),
the verdict that lists them, the setting and how a suppression reads.
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
from prewrite_daemon.limits import Deadline

pytestmark = pytest.mark.timeout(30)


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
