"""The libraries' Protocols per environment (``protocols.library``), the scan as a process: it runs
isolated, a failed scan is logged and retried once, one past its deadline is killed, it waits while
requests are served, a paused scan ends when its daemon is killed and time paused does not count
against its deadline.
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite_daemon.languages.python.protocols.library import (
    MAX_ATTEMPTS,
    LibraryProtocols,
    ScanState,
    pause_scans,
    resume_scans,
)
from prewrite_daemon.languages.python.protocols.roots import for_environment
from tests.unit.library_protocols.library_helpers import PROTOCOL, SCAN_S

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


pytestmark = pytest.mark.timeout(300)


def test_the_scan_runs_isolated(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    hook = f"import pathlib\npathlib.Path({str(marker)!r}).touch()\n"
    here = tmp_path / "cwd"
    here.mkdir()
    for name in ("sitecustomize.py", "usercustomize.py", "typing.py", "json.py"):
        (here / name).write_text(hook)
    tree = tmp_path / "scanned"
    tree.mkdir()
    (tree / "sitecustomize.py").write_text(hook + PROTOCOL.format(cls="S", member="isolated"))
    (tree / "typing.py").write_text(hook + "Protocol = object\n")
    monkeypatch.chdir(here)
    monkeypatch.setenv("PYTHONPATH", str(here))
    monkeypatch.setenv("PYTHONSTARTUP", str(here / "typing.py"))
    found = for_environment([], outside=[tree], cache_dir=cache).wait(SCAN_S)
    assert found is not None
    assert "isolated" in found.members  # the scanned files were read...
    assert not marker.exists()  # ...and nothing of them or of the cwd ran


def test_a_failed_scan_is_logged_and_retried_once(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    levels = [{"kind": "tree", "roots": [str(tmp_path)], "key": None}]
    library = LibraryProtocols(blocker / "cache", levels)  # the cache dir cannot be made
    for attempt in range(1, MAX_ATTEMPTS + 2):
        assert library.wait(30) is None
        stats = library.statistics()
        assert stats.state is ScanState.FAILED
        assert stats.runs == min(attempt, MAX_ATTEMPTS)
    assert library.get() is None


def test_a_scan_past_its_deadline_is_killed(tmp_path: Path) -> None:
    levels = [{"kind": "tree", "roots": [str(tmp_path)], "key": None}]
    library = LibraryProtocols(tmp_path / "cache", levels, timeout_s=0.001)
    assert library.wait(30) is None
    stats = library.statistics()
    assert stats.state is ScanState.FAILED
    assert stats.error is not None
    assert "longer than" in stats.error


def _scan_processes() -> list[psutil.Process]:
    me = psutil.Process()
    return [
        p
        for p in me.children()
        if "prewrite_daemon.languages.python.protocols.scan" in " ".join(p.cmdline())
    ]


def _wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_scan_waits_while_requests_are_served(tmp_path: Path) -> None:
    """Started while paused, it starts stopped; resumed, it answers."""
    library = for_environment([], cache_dir=tmp_path / "cache")  # typeshed: seconds of work
    pause_scans()
    try:
        assert library.get() is None
        assert _wait_for(lambda: len(_scan_processes()) == 1)
        (scan,) = _scan_processes()
        assert _wait_for(lambda: scan.status() == psutil.STATUS_STOPPED)
    finally:
        resume_scans()
    assert _wait_for(lambda: scan.status() != psutil.STATUS_STOPPED)
    assert library.wait(SCAN_S) is not None


PAUSED_PARENT = """
import sys, time
from pathlib import Path
from prewrite_daemon.languages.python.protocols.roots import for_environment
from prewrite_daemon.languages.python.protocols.library import _live, pause_scans
library = for_environment([], cache_dir=Path(sys.argv[1]))
library.get()
while not _live:
    time.sleep(0.01)
pause_scans()
print(next(iter(_live)).pid, flush=True)
time.sleep(600)
"""


def test_a_paused_scan_ends_when_its_daemon_is_killed(tmp_path: Path) -> None:
    """The daemon SIGKILLed while a scan is stopped: the kernel hangs the orphaned group up."""
    with subprocess.Popen(
        [sys.executable, "-c", PAUSED_PARENT, str(tmp_path / "cache")],
        stdout=subprocess.PIPE, text=True,
    ) as parent:  # fmt: skip
        try:
            assert parent.stdout is not None
            scan = psutil.Process(int(parent.stdout.readline()))
            assert _wait_for(lambda: scan.status() == psutil.STATUS_STOPPED)
        finally:
            parent.kill()
            parent.wait(30)
    assert _wait_for(lambda: not scan.is_running() or scan.status() == psutil.STATUS_ZOMBIE)


def test_time_paused_does_not_count_against_a_scans_deadline(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "m.py").write_text(PROTOCOL.format(cls="P", member="paused_member"))
    levels = [{"kind": "tree", "roots": [str(tree)], "key": None}]
    # A deadline a loaded two-core machine meets (a scan of one file, its interpreter's start
    # included, took over 1.5 s at load 9), paused twice as long.
    library = LibraryProtocols(tmp_path / "cache", levels, timeout_s=4.0)
    pause_scans()
    try:
        assert library.get() is None
        time.sleep(8.0)  # paused twice as long as the deadline
    finally:
        resume_scans()
    found = library.wait(SCAN_S)
    assert found is not None, library.statistics()
    assert library.statistics().state is ScanState.READY
