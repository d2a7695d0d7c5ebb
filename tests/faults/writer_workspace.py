"""Shared by the journalled writer's fault tests: a before tree with its journal directory beside it
(outside the snapshot), and the child writer (``writer_child.py``) run to its end.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.faults.writer_child import CRASH_EXIT, ERROR_EXIT
from tests.faults.writer_tree import (
    expected_after,
    leftover_transactions,
    make_tree,
    patch_changes,
    snapshot,
    temp_files,
)

REPO = Path(__file__).resolve().parents[2]


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
