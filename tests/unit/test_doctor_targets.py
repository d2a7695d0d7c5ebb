"""The doctor's mypy targets beside CI's: prewrite checks every CI mypy run's targets at once
(``mypy_ci``), so a mismatch is a CI run checking what prewrite does not (a wrong green there),
or prewrite checking what no CI run does (its reds there are not CI's) — never one run of
several checking less than the union (structlog's tox: ``mypy src``, ``mypy tests/typing``)."""

from __future__ import annotations

from pathlib import Path

from prewrite_daemon.ci.runs import CiRun
from prewrite_daemon.doctor.compare import mismatches
from prewrite_daemon.doctor.report import RungTool


def _mypy(*targets: str) -> RungTool:
    return RungTool("typecheck", "mypy", "on", targets=list(targets), command=["mypy"])


def _run(where: str, *targets: str) -> CiRun:
    return CiRun("mypy", where, "mypy " + " ".join(targets), targets=list(targets))


def _targets(tool: RungTool, runs: list[CiRun]) -> list[str]:
    return [m.message for m in mismatches(Path("/ws"), [tool], runs, []) if m.kind == "targets"]


def test_several_ci_runs_united_are_no_mismatch() -> None:
    runs = [_run("tox.ini:20", "tests/typing"), _run("tox.ini:89", "src")]
    assert _targets(_mypy("tests/typing", "src"), runs) == []
    # a CI target inside one of prewrite's is covered by it
    assert _targets(_mypy("src", "tests"), [*runs, _run("ci.yml:3", "src/pkg")]) == [
        "prewrite's mypy checks tests, which no CI mypy run checks (tox.ini:20, tox.ini:89, "
        "ci.yml:3)"
    ]


def test_a_ci_target_prewrite_does_not_check_is_a_mismatch() -> None:
    runs = [_run("tox.ini:20", "tests/typing"), _run("tox.ini:89", "src")]
    assert _targets(_mypy("src"), runs) == [
        "CI's mypy checks tests/typing (tox.ini:20); prewrite's checks src"
    ]


def test_a_target_no_ci_run_checks_is_a_mismatch() -> None:
    runs = [_run("tox.ini:89", "src"), _run("noxfile.py:4", "src/pkg")]
    assert _targets(_mypy("src", "tests"), runs) == [
        "prewrite's mypy checks tests, which no CI mypy run checks (tox.ini:89, noxfile.py:4)"
    ]
