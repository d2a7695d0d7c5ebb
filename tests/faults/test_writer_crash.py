"""Fault tests of the journalled writer killed mid-write: a crash at every numbered step then
recovery, random SIGKILLs, and a starting daemon finishing an interrupted write. The writer runs in
a child process (``writer_child.py``); recovery and every check run here. After any fault the
workspace must be byte-equal to all-before or all-after, with no temporary file and no transaction
left in the journal.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from prewrite.daemon_start import wait_for_daemon
from prewrite.runtime import RuntimePaths
from prewrite_daemon.writer.journal import recover
from tests.faults.writer_child import CRASH_EXIT, READY
from tests.faults.writer_tree import leftover_transactions, snapshot
from tests.faults.writer_workspace import CHILD_TIMEOUT_S, REPO, Workspace, child_argv, run_child

CRASH_POINTS = [
    pytest.param("journal", 1, "before", id="journal"),
    pytest.param("staged", 1, "before", id="staged"),
    pytest.param("committed", 1, "after", id="committed"),
    pytest.param("swapped", 1, "after", id="swapped-first"),
    pytest.param("swapped", 3, "after", id="swapped-third"),
    pytest.param("swapped", 4, "after", id="swapped-after-delete"),
    pytest.param("swapped", 5, "after", id="swapped-last"),
    pytest.param("done", 1, "after", id="done"),
    pytest.param("cleanup", 1, "after", id="cleanup"),
]


@pytest.mark.parametrize(("step", "occurrence", "expected"), CRASH_POINTS)
def test_crash_then_recover_is_all_before_or_all_after(
    tmp_path: Path, step: str, occurrence: int, expected: str
) -> None:
    ws = Workspace(tmp_path)
    code, _ = run_child(ws, "--crash-at", step, "--occurrence", str(occurrence))
    assert code == CRASH_EXIT, f"the child never reached {step} #{occurrence}"
    assert len(leftover_transactions(ws.journal)) == 1

    recovered = recover(ws.journal)

    assert len(recovered) == 1
    assert snapshot(ws.root) == (ws.before if expected == "before" else ws.after)
    ws.assert_clean()


# --- random SIGKILLs -------------------------------------------------------------------------

KILL_AFTER = [READY, "journal", "staged", "committed", "swapped", "done"]
KILL_ITERATIONS = 30
MIN_EACH_OUTCOME = 3


def kill_child_at_random(ws: Workspace, rng: random.Random) -> None:
    """Start the child, wait for a random step of its progress, SIGKILL it a random while later."""
    wait_for = rng.choice(KILL_AFTER)
    delay_s = rng.uniform(0, 0.005)
    with subprocess.Popen(
        child_argv(ws, "--progress"), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.decode().strip() == wait_for:
                break
        time.sleep(delay_s)  # the point of the test: the kill lands anywhere in the next steps
        proc.send_signal(signal.SIGKILL)  # no-op if it already exited (Popen polls first)
        _, err = proc.communicate(timeout=CHILD_TIMEOUT_S)
    assert proc.returncode in (0, -signal.SIGKILL), err.decode()


def test_random_sigkills_leave_all_before_or_all_after(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, size=64 * 1024)
    rng = random.Random(20240601)
    outcomes = {"before": 0, "after": 0}
    for iteration in range(KILL_ITERATIONS):
        kill_child_at_random(ws, rng)
        recover(ws.journal)
        tree = snapshot(ws.root)
        assert tree in (ws.before, ws.after), f"iteration {iteration}: a mixed tree"
        ws.assert_clean()
        outcomes["before" if tree == ws.before else "after"] += 1
        ws.reset()
    assert min(outcomes.values()) >= MIN_EACH_OUTCOME, outcomes


# --- recovery by a starting daemon ------------------------------------------------------------


def test_a_starting_daemon_finishes_an_interrupted_write(tmp_path: Path) -> None:
    """A write cut off after its commit is completed by the next daemon, before it serves."""
    runtime = Path(tempfile.mkdtemp(prefix="pw-", dir="/tmp"))
    try:
        ws = Workspace(tmp_path)
        ws.journal = runtime / "state" / "journal" / "ws0"  # where a daemon looks for journals
        code, _ = run_child(ws, "--crash-at", "swapped", "--occurrence", "2")
        assert code == CRASH_EXIT
        assert snapshot(ws.root) not in (ws.before, ws.after)  # half-applied, as the crash left it
        paths = RuntimePaths(runtime)
        env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(runtime), PREWRITE_PYRIGHT_DIST="/none")
        daemon = subprocess.Popen(
            [sys.executable, "-m", "prewrite_daemon"], env=env, cwd=REPO,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            with wait_for_daemon(paths, 30.0):
                pass  # listening: recovery ran before the socket was served
            assert snapshot(ws.root) == ws.after
            ws.assert_clean()
        finally:
            daemon.terminate()
            daemon.wait(30)
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
