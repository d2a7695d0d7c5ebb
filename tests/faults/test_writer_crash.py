"""Fault tests of the journalled writer: crashes, SIGKILLs, editor races, full disk, read-only dirs.

The writer runs in a child process (``writer_child.py``) wherever the fault kills or limits the
process; recovery and every check run here. After any fault the workspace must be byte-equal to
all-before or all-after, with no temporary file and no transaction left in the journal.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.daemon_start import wait_for_daemon
from prewrite.errors import StaleBase
from prewrite.runtime import RuntimePaths
from prewrite_daemon.writer.journal import recover
from prewrite_daemon.writer.transaction import Transaction
from tests.faults.writer_child import CRASH_EXIT, ERROR_EXIT, READY
from tests.faults.writer_tree import (
    expected_after,
    leftover_transactions,
    make_tree,
    patch_bases,
    patch_changes,
    snapshot,
    temp_files,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.faults.writer_tree import Snapshot

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534
CHILD_TIMEOUT_S = 20


class Workspace:
    """A before tree at ``root`` with its journal directory beside it (outside the snapshot)."""

    def __init__(self, base: Path, size: int = 0) -> None:
        self.root = base / "ws"
        self.journal = base / "journal"
        self.size = size
        self.reset()
        self.before = snapshot(self.root)
        self.after = expected_after(self.before, patch_changes(size))

    def reset(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.journal, ignore_errors=True)
        make_tree(self.root, self.size)

    def assert_clean(self) -> None:
        assert temp_files(self.root) == []
        assert leftover_transactions(self.journal) == []


def child_argv(ws: Workspace, *options: str) -> list[str]:
    return [sys.executable, "-m", "tests.faults.writer_child", str(ws.root), str(ws.journal),
            "--size", str(ws.size), *options]  # fmt: skip


def run_child(ws: Workspace, *options: str) -> tuple[int, dict[str, str]]:
    """Run the child writer to its end; its exit code and last JSON line (empty if none)."""
    proc = subprocess.run(
        child_argv(ws, *options), cwd=REPO, capture_output=True, timeout=CHILD_TIMEOUT_S
    )
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode in (0, ERROR_EXIT, CRASH_EXIT), proc.stderr.decode()
    return proc.returncode, (json.loads(lines[-1]) if lines else {})


# --- crashes at every numbered step ----------------------------------------------------------

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


# --- an editor saving while the patch is applied ---------------------------------------------

EDITOR_BYTES = b"# saved by the editor\n"


def apply_with_editor(ws: Workspace, rel: str, at_step: str) -> tuple[StaleBase, list[str]]:
    """Apply the patch in-process; an editor saves ``rel`` at the first ``at_step``.

    Returns the error and the steps the writer reached.
    """
    steps: list[str] = []

    def hook(step: str) -> None:
        if step == at_step and at_step not in steps:
            (ws.root / rel).write_bytes(EDITOR_BYTES)
        steps.append(step)

    txn = Transaction(ws.root, ws.journal, patch_changes(), patch_bases(), hook)
    with pytest.raises(StaleBase) as caught:
        txn.run()
    assert at_step in steps, f"the hook never reached {at_step}"
    return caught.value, steps


@pytest.mark.parametrize("at_step", ["staged", "swapped"])
@pytest.mark.parametrize("rel", ["pkg/b.py", "pkg/c.py", "top_added.py"])
def test_editor_save_during_apply_wins_and_nothing_of_the_patch_remains(
    tmp_path: Path, at_step: str, rel: str
) -> None:
    """At ``staged`` (before the re-read) or between two renames: the editor's bytes stay."""
    ws = Workspace(tmp_path)

    error, steps = apply_with_editor(ws, rel, at_step)

    if at_step == "staged":  # the re-read of every target aborts before the commit
        assert steps == ["journal", "staged"]
    assert [d.path for d in error.details] == [rel]
    expected: Snapshot = {**ws.before, rel: EDITOR_BYTES}
    assert snapshot(ws.root) == expected
    ws.assert_clean()


def test_editor_race_restores_the_original_mode(tmp_path: Path) -> None:
    """``a.py`` (0o755) is swapped first, then undone because an editor saved ``pkg/b.py``."""
    ws = Workspace(tmp_path)
    (ws.root / "a.py").chmod(0o755)

    apply_with_editor(ws, "pkg/b.py", "swapped")

    assert (ws.root / "a.py").read_bytes() == ws.before["a.py"]
    assert stat.S_IMODE((ws.root / "a.py").stat().st_mode) == 0o755


# --- resource limits and permissions ---------------------------------------------------------


def test_full_disk_while_staging_is_write_failed_and_nothing_changes(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    # The journal, the undo copies and the first stages fit; the last, 1 MiB, stage does not.
    big = ["--grow", "top_added.py", "--change-size", str(1024 * 1024)]
    code, result = run_child(ws, *big, "--fsize-limit", str(64 * 1024))

    assert (code, result.get("outcome")) == (ERROR_EXIT, "write_failed"), result
    assert snapshot(ws.root) == ws.before
    ws.assert_clean()


@pytest.fixture
def open_base() -> Iterator[Path]:
    """A temporary directory an unprivileged user can traverse (pytest's tmp_path is 0o700)."""
    with tempfile.TemporaryDirectory(prefix="pw-writer-", dir="/tmp") as d:
        base = Path(d)
        base.chmod(0o755)
        yield base


def make_read_only_dir(ws: Workspace, rel_dir: str) -> list[str]:
    """Make ``rel_dir`` unwritable for the child; the child's extra options to get there."""
    ws.journal.mkdir()
    if os.geteuid() == 0:  # root writes through any mode: the child drops to nobody instead
        for path in [ws.root, ws.journal, *ws.root.rglob("*"), *ws.journal.rglob("*")]:
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)
        os.chown(ws.root / rel_dir, 0, 0)
        (ws.root / rel_dir).chmod(0o755)
        return ["--as-user", str(NOBODY)]
    (ws.root / rel_dir).chmod(0o555)
    probe = ws.root / rel_dir / "probe"
    try:
        probe.touch()
    except PermissionError:
        return []
    probe.unlink()
    (ws.root / rel_dir).chmod(0o755)
    pytest.skip("not root, and chmod 0o555 does not stop this user writing (capabilities?)")


def test_read_only_target_dir_is_write_failed_and_nothing_changes(open_base: Path) -> None:
    ws = Workspace(open_base)
    options = make_read_only_dir(ws, "pkg")
    try:
        code, result = run_child(ws, *options)
    finally:
        (ws.root / "pkg").chmod(0o755)

    assert (code, result.get("outcome")) == (ERROR_EXIT, "write_failed"), result
    assert snapshot(ws.root) == ws.before
    ws.assert_clean()


def test_modes_existing_kept_new_from_umask(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    (ws.root / "a.py").chmod(0o755)
    (ws.root / "pkg/b.py").chmod(0o600)

    code, result = run_child(ws, "--umask", "027")

    assert (code, result.get("outcome")) == (0, "done"), result
    assert snapshot(ws.root) == ws.after
    modes = {
        rel: stat.S_IMODE((ws.root / rel).stat().st_mode)
        for rel in ["a.py", "pkg/b.py", "newdir/sub/added.py", "top_added.py"]
    }
    assert modes == {
        "a.py": 0o755,
        "pkg/b.py": 0o600,
        "newdir/sub/added.py": 0o640,
        "top_added.py": 0o640,
    }


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
