"""Protocol abuse on a raw socket against a real daemon process: checks that fail before any checker
is involved — a bad root, patch errors, and a checker that cannot start (``PREWRITE_PYRIGHT_DIST``
points nowhere) is ``backend_failed``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.protocol import CheckRequest, FileChange, StatusReply, StatusRequest
from tests.faults.raw_daemon import RawConnection, error_code, expect

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize("root", ["relative/root", "/no/such/prewrite/root"])
def test_a_bad_root_is_invalid_workspace(conn: RawConnection, root: str) -> None:
    conn.hello()
    reply = conn.ask(CheckRequest(root=root, changes=[FileChange("a.py", None, "x = 1\n")]))
    assert error_code(reply) == "invalid_workspace"
    expect(conn.ask(StatusRequest()), StatusReply)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (FileChange("../escape.py", None, "x = 1\n"), "path_outside_workspace"),
        (FileChange(".git/config", None, "x"), "forbidden_path"),
        (FileChange("a.py", "0" * 64, "x = 2\n"), "stale_base"),
        (FileChange("a.py", None), "bad_request"),
    ],
    ids=["outside", "git", "stale", "shape"],
)
def test_patch_errors_come_before_starting_a_checker(
    conn: RawConnection, tmp_path: Path, change: FileChange, code: str
) -> None:
    """The checker cannot start here; a patch that is wrong anyway must say why it is wrong."""
    (tmp_path / "a.py").write_text("x = 1\n")
    conn.hello()
    reply = conn.ask(CheckRequest(root=str(tmp_path), changes=[change], python=sys.executable))
    assert error_code(reply) == code


def test_a_checker_that_cannot_start_is_backend_failed(conn: RawConnection, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    conn.hello()
    request = CheckRequest(
        root=str(tmp_path), changes=[FileChange("b.py", None, "y = 2\n")], python=sys.executable
    )
    assert error_code(conn.ask(request)) == "backend_failed"
    expect(conn.ask(StatusRequest()), StatusReply)
