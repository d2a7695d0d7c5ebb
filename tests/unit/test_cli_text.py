"""The CLI contract's pure parts (issue 23): compiler-style text, the JSON object, the exit
status, the status table, and why a rung did not run, said once."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import msgspec
import pytest
from mcp.types import TextContent

from prewrite.cli_exits import EXIT_OK, EXIT_REFUSED, EXIT_WRITTEN_FAILED, apply_exit
from prewrite.cli_output import print_apply, print_error, print_json, print_status
from prewrite.errors import ErrorDetail, StaleBase
from prewrite.protocol import (
    ApplyReply,
    CandidateFile,
    CheckReply,
    Diagnostic,
    DiskResult,
    RungReport,
    StatusReply,
    WorkspaceStatus,
)
from prewrite.reply_json import error_object, reply_fields
from prewrite.reply_text import diagnostic_lines, disk_lines, rung_text, rungs_line
from prewrite_daemon.agents import guide
from prewrite_daemon.agents.answers import apply_result, status_result
from prewrite_daemon.ladder.config import load_config, no_tool_reason

if TYPE_CHECKING:
    from pathlib import Path

PYRIGHT = Diagnostic(
    "b.py", 3, 10, 3, 13, "error", "reportAssignmentType",
    'Type "str" is not assignable to declared type "int"\n  "str" is not assignable to "int"',
    "pyright",
)  # fmt: skip
GREEN = CheckReply(True, [], ["a.py"], {}, rungs=[RungReport("typecheck", "pass", 12.0)])
RED = CheckReply(False, [PYRIGHT], ["a.py", "b.py"], {}, failed_rung="typecheck")
RED_THEN_GREEN = CheckReply(
    True, [msgspec.structs.replace(PYRIGHT, severity="warning")], ["b.py"], {},
    rungs=[RungReport("typecheck", "pass", 3.0),
           RungReport("review", "off", detail="no [tool.prewrite] reviewer")],
)  # fmt: skip
WRITTEN = [CandidateFile("a.py", "ab" * 32)]
TESTS_FAILED = DiskResult("tests", "fail", 812.0, ["python", "-m", "pytest"], ["t::x"], "E\n")
UNTRUSTED = DiskResult(
    "tests", "skipped", 0.0, [], [], "the workspace is not trusted (prewrite trust ROOT)"
)


# --- diagnostics as a compiler prints them ---------------------------------------------------


def test_a_diagnostic_is_one_head_line_with_its_rule_and_indented_continuations() -> None:
    assert diagnostic_lines(PYRIGHT) == [
        'b.py:3:10: error: Type "str" is not assignable to declared type "int" '
        "[reportAssignmentType]",
        '    "str" is not assignable to "int"',
    ]


def test_continuations_are_indented_below_an_indented_head_and_blank_lines_dropped() -> None:
    d = msgspec.structs.replace(PYRIGHT, message="first\n\nnote: second", rule="")
    assert diagnostic_lines(d, "  ") == ["  b.py:3:10: error: first", "    note: second"]


# --- rungs: each reason said once -----------------------------------------------------------


@pytest.mark.parametrize(
    ("report", "text"),
    [
        (RungReport("lint", "pass", 4.4), "lint pass 4ms"),
        (RungReport("review", "off", detail="no [tool.prewrite] reviewer"), "review off"),
        (RungReport("review", "off", detail="off (no [tool.prewrite] reviewer)"), "review off"),
        (RungReport("tests", "skipped", detail="not requested (rungs)"),
         "tests skipped (not requested)"),
    ],
)  # fmt: skip
def test_a_rung_reads_as_its_outcome_never_a_doubled_reason(report: RungReport, text: str) -> None:
    assert rung_text(report) == text


def test_the_rungs_line_is_outcomes_and_times() -> None:
    assert (
        rungs_line([*GREEN.rungs, RungReport("review", "off")]) == "typecheck pass 12ms, review off"
    )


def test_the_ladders_reasons_do_not_repeat_the_outcome(tmp_path: Path) -> None:
    config = load_config(tmp_path)  # an empty directory: the defaults
    reasons = {rung: config.why_not_run(rung) for rung in ("format", "review")}
    assert reasons == {
        "format": ("off", "no formatter configured (the workspace has no ruff configuration)"),
        "review": ("off", "no [tool.prewrite] reviewer"),
    }
    assert no_tool_reason("format", False) == "no formatter configured for the patch's files"
    assert "interpreter" not in no_tool_reason("lint", True)


# --- disk rungs: a skip says why --------------------------------------------------------------


def test_a_skipped_disk_rung_says_why_and_a_failed_one_shows_its_command() -> None:
    assert disk_lines([UNTRUSTED, TESTS_FAILED]) == [
        "tests: skipped: the workspace is not trusted (prewrite trust ROOT)",
        "tests: fail in 812 ms (python -m pytest)",
        "  failed: t::x",
        "  | E",
    ]


def test_apply_output_says_what_happened_to_the_disk(capsys: pytest.CaptureFixture[str]) -> None:
    print_apply(ApplyReply(True, GREEN, WRITTEN, [UNTRUSTED]), 5.0)
    out = capsys.readouterr().out
    assert "prewrite: tests: skipped: the workspace is not trusted (prewrite trust ROOT)\n" in out
    assert "skipped in 0 ms" not in out
    assert out.endswith("prewrite: apply ok\n")
    print_apply(ApplyReply(False, GREEN, WRITTEN, [TESTS_FAILED]), 5.0)
    assert "apply FAILED after the write: the files hold the patch" in capsys.readouterr().out
    print_apply(ApplyReply(False, RED, [], []), 5.0)
    assert capsys.readouterr().out.endswith("prewrite: apply refused: nothing was written\n")


# --- exit status --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        (ApplyReply(True, GREEN, WRITTEN, [UNTRUSTED]), EXIT_OK),
        (ApplyReply(False, RED, [], []), EXIT_REFUSED),
        (ApplyReply(False, GREEN, WRITTEN, [TESTS_FAILED]), EXIT_WRITTEN_FAILED),
        (ApplyReply(False, GREEN, WRITTEN, [TESTS_FAILED], rolled_back=True), EXIT_REFUSED),
    ],
)
def test_apply_exit_status_says_what_happened_to_the_disk(reply: ApplyReply, code: int) -> None:
    assert apply_exit(reply) == code


# --- JSON: the reply's fields, never the wire frame ---------------------------------------------


def test_json_has_no_wire_tag_at_any_depth(capsys: pytest.CaptureFixture[str]) -> None:
    print_json(ApplyReply(True, GREEN, WRITTEN, []))
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    obj = json.loads(out)
    assert "op" not in obj
    assert "op" not in obj["check"]
    assert obj["check"]["rungs"] == [{"rung": "typecheck", "outcome": "pass", "ms": 12.0}]
    assert reply_fields(GREEN) == obj["check"]


def test_an_error_is_one_object_on_stdout_and_a_line_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    error = StaleBase("1 file(s) changed", [ErrorDetail("base is not the file's now", "a.py")])
    print_error(error, as_json=True)
    out, err = capsys.readouterr()
    assert json.loads(out) == error_object(error)
    assert json.loads(out)["error"] == {
        "code": "stale_base",
        "message": "1 file(s) changed",
        "details": [{"message": "base is not the file's now", "path": "a.py"}],
    }
    assert err.startswith("prewrite: error [stale_base]: 1 file(s) changed\n")
    print_error(error, as_json=False)
    assert capsys.readouterr().out == ""


# --- status: a trust column -------------------------------------------------------------------


def test_status_has_a_trust_column(capsys: pytest.CaptureFixture[str]) -> None:
    workspaces = [
        WorkspaceStatus("/w/py", "/usr/bin/python3", "running", 2, 3, server_pid=7,
                        checker="pyright 1.1.414", trusted=True),
        WorkspaceStatus("/w/ts", "", "idle", 0, 1, language="typescript", checker="tsc 5.9"),
    ]  # fmt: skip
    print_status(StatusReply(1, "0.1.0", "/run/daemon.sock", 9.0, workspaces))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "daemon pid 1, version 0.1.0, up 9s"
    assert lines[2].split() == ["TRUST", "LANGUAGE", "CHECKER", "STATE", "CHECKS", "ROOT"]
    assert lines[3].split() == ["trusted", "python", "pyright", "1.1.414", "running", "3", "/w/py"]
    assert "checker pid 7" in lines[4]
    assert "python /usr/bin/python3" in lines[4]
    assert lines[5].split() == ["untrusted", "typescript", "tsc", "5.9", "idle", "1", "/w/ts"]
    assert lines[2].index("ROOT") == lines[3].index("/w/py") == lines[5].index("/w/ts")
    assert "python" not in lines[6]


# --- the MCP answer reads as the CLI does --------------------------------------------------------


def test_the_mcp_answer_shares_the_text_and_the_json() -> None:
    result = apply_result(ApplyReply(True, RED_THEN_GREEN, WRITTEN, [UNTRUSTED]), {})
    (block,) = result.content
    assert isinstance(block, TextContent)
    warning = diagnostic_lines(RED_THEN_GREEN.diagnostics[0])
    assert warning[0].endswith("[reportAssignmentType]")
    assert "\n".join(warning) in block.text
    assert "tests: skipped: the workspace is not trusted (prewrite trust ROOT)" in block.text
    assert "rungs: typecheck pass 3ms, review off\n" in block.text
    assert "off (" not in block.text
    assert result.structured_content == reply_fields(
        ApplyReply(True, RED_THEN_GREEN, WRITTEN, [UNTRUSTED])
    )
    assert result.structured_content is not None
    assert "op" not in result.structured_content["check"]


def test_mcp_status_says_whether_each_workspace_is_trusted() -> None:
    ws = WorkspaceStatus("/w", "/usr/bin/python3", "running", 1, 1, trusted=True)
    (block,) = status_result(StatusReply(1, "0.1.0", "/s", 1.0, [ws])).content
    assert isinstance(block, TextContent)
    assert "trusted]" in block.text


def test_the_mcp_instructions_are_not_python_only() -> None:
    assert "Python patch" not in guide.INSTRUCTIONS
    assert "TypeScript" in guide.INSTRUCTIONS
