"""Fault tests of the journalled writer racing an editor: a save during ``apply`` wins and nothing
of the patch remains, and the original mode is restored.
"""

from __future__ import annotations

import stat
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import StaleBase
from prewrite_daemon.writer.transaction import Transaction
from tests.faults.writer_tree import patch_bases, patch_changes, snapshot
from tests.faults.writer_workspace import Workspace

if TYPE_CHECKING:
    from pathlib import Path

    from tests.faults.writer_tree import Snapshot


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
