"""What a waiting user is told: the daemon's activity (``check/activity.py``) and the CLI's
progress lines (``prewrite.progress``)."""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING

from prewrite.progress import Progress, describe
from prewrite.protocol import WorkspaceStatus
from prewrite.runtime import RuntimePaths
from prewrite_daemon.check.activity import Activity

if TYPE_CHECKING:
    from pathlib import Path


def test_an_activity_counts_its_items_and_comes_back_after_a_nested_step() -> None:
    activity = Activity()
    assert activity.describe() == ("", 0.0)  # idle
    activity.begin("checking the importers", total=3)
    activity.advance()
    with activity.step("starting pyright 1.1.414"):
        assert activity.describe()[0] == "starting pyright 1.1.414"
    what, seconds = activity.describe()
    assert what == "checking the importers: 1 of 3 done"
    assert seconds >= 0.0
    activity.advance(5)
    assert activity.describe()[0] == "checking the importers: 3 of 3 done"  # never past total
    activity.end()
    assert activity.describe() == ("", 0.0)


def _ws(activity: str, checker: str = "pyright 1.1.414", state: str = "running") -> WorkspaceStatus:
    return WorkspaceStatus(
        root="/r", python="", backend_state=state, generation=1, checks=0, checker=checker,
        activity=activity, activity_s=3.2,
    )  # fmt: skip


def test_describe_names_the_checker_once_and_joins_languages() -> None:
    assert describe([_ws("")]) == ""
    assert describe([_ws("", state="starting")]) == "starting pyright 1.1.414"
    assert describe([_ws("type checking")]) == "pyright 1.1.414: type checking (3s)"
    line = describe([_ws("pyright 1.1.414: a cold run"), _ws("type checking", "typescript 5.9.3")])
    assert line == "pyright 1.1.414: a cold run (3s); typescript 5.9.3: type checking (3s)"


def _paths(tmp_path: Path) -> RuntimePaths:
    return RuntimePaths(tmp_path / "run")


def test_progress_prints_changes_after_the_quiet_period_and_nothing_after_the_answer(
    tmp_path: Path,
) -> None:
    said = iter(["", "starting pyright", "starting pyright", "checking 1 of 2"])
    out = io.StringIO()
    with Progress(_paths(tmp_path), "/r", out, after_s=0.0, poll=lambda: next(said, "")) as p:
        deadline = time.monotonic() + 30
        while len(p.lines) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    printed = out.getvalue().splitlines()
    assert [line.split(": ", 2)[2] for line in printed] == ["starting pyright", "checking 1 of 2"]
    assert all(line.startswith("prewrite: ") for line in printed)


def test_a_quick_answer_prints_nothing(tmp_path: Path) -> None:
    out = io.StringIO()
    with Progress(_paths(tmp_path), "/r", out, after_s=30.0, poll=lambda: "busy"):
        pass
    assert out.getvalue() == ""
