"""Fault tests of the journalled writer under resource limits and permissions: a full disk while
staging (``RLIMIT_FSIZE``, in a child process) and a read-only target directory are ``write_failed``
with nothing changed; existing files keep their modes and new ones take the umask.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.faults.writer_child import ERROR_EXIT
from tests.faults.writer_tree import snapshot
from tests.faults.writer_workspace import Workspace, run_child

if TYPE_CHECKING:
    from collections.abc import Iterator


NOBODY = 65534


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
