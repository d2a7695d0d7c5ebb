"""Unit tests of the journalled writer, in-process: a green apply, recovery's no-op and
half-written cases, and the refusal to write through a symlink. Crashes: tests/faults."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import ForbiddenPath
from prewrite_daemon.writer.journal import recover
from prewrite_daemon.writer.transaction import Transaction
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
    from pathlib import Path

STEPS = ["journal", "staged", "committed", *["swapped"] * 5, "done", "cleanup"]


def test_green_transaction_writes_everything_and_cleanup_removes_the_journal(
    tmp_path: Path,
) -> None:
    root, journal = tmp_path / "ws", tmp_path / "journal"
    make_tree(root)
    before = snapshot(root)
    steps: list[str] = []
    txn = Transaction(root, journal, patch_changes(), patch_bases(), steps.append)

    plan = txn.run()

    assert plan.state == "done"
    assert snapshot(root) == expected_after(before, patch_changes())
    [txn_dir] = journal.iterdir()
    assert json.loads((txn_dir / "journal.json").read_text())["state"] == "done"
    txn.cleanup(plan)
    assert steps == STEPS
    assert leftover_transactions(journal) == []
    assert temp_files(root) == []
    assert recover(journal) == []


def test_recover_on_a_missing_journal_dir_is_a_no_op(tmp_path: Path) -> None:
    assert recover(tmp_path / "missing") == []
    assert not (tmp_path / "missing").exists()


def test_recover_on_an_empty_journal_dir_is_a_no_op(tmp_path: Path) -> None:
    (tmp_path / "journal").mkdir()
    assert recover(tmp_path / "journal") == []
    assert list((tmp_path / "journal").iterdir()) == []


def test_recover_removes_a_half_written_transaction(tmp_path: Path) -> None:
    """A crash while the first journal was being written leaves a directory without it."""
    root, journal = tmp_path / "ws", tmp_path / "journal"
    make_tree(root)
    before = snapshot(root)
    half = journal / "0123456789ab"
    half.mkdir(parents=True)
    (half / "journal.tmp").write_bytes(b'{"txn": "0123')  # torn: json.loads would fail

    recover(journal)

    assert leftover_transactions(journal) == []
    assert snapshot(root) == before


SYMLINK_CASES = [
    pytest.param("zlink.py", "a.py", b"a = 1\n", id="target-is-a-symlink"),
    pytest.param("zlink.py", "nowhere.py", None, id="target-is-a-dangling-symlink"),
    pytest.param("zdir/keep.py", "pkg", b"keep = 1\n", id="change-under-a-symlinked-dir"),
    pytest.param("zdir/new.py", "pkg", None, id="add-under-a-symlinked-dir"),
]


@pytest.mark.parametrize(("rel", "link_to", "base"), SYMLINK_CASES)
def test_symlinked_target_is_forbidden_and_nothing_is_written(
    tmp_path: Path, rel: str, link_to: str, base: bytes | None
) -> None:
    """The symlinked path sorts last: the patch's other files would be planned before it."""
    root, journal = tmp_path / "ws", tmp_path / "journal"
    make_tree(root)
    os.symlink(link_to, root / rel.split("/")[0])
    before = snapshot(root)
    changes = {**patch_changes(), rel: b"through the link\n"}
    bases = {**patch_bases(), rel: base}

    with pytest.raises(ForbiddenPath):
        Transaction(root, journal, changes, bases).run()

    assert snapshot(root) == before
    assert temp_files(root) == []
    assert leftover_transactions(journal) == []
