"""Anchored edits through ``prepare_patch``: applied to the file on disk, a mismatch names the file,
a stale or missing base, content and edits together, and empty edits are refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.changes import sha256_hex
from prewrite.errors import BadRequest, FindMismatch, StaleBase
from prewrite.protocol import Edit, FileChange
from prewrite_daemon.check.patch import prepare_patch

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    (path / "pkg").mkdir(parents=True)
    (path / "pkg" / "m.py").write_text("def f():\n    return  1\n")
    return path


def _base(root: Path, rel: str) -> str:
    return sha256_hex((root / rel).read_bytes())


def test_prepare_patch_applies_edits(root: Path) -> None:
    change = FileChange(
        "pkg/m.py",
        base_sha256=_base(root, "pkg/m.py"),
        edits=[Edit("return 1", "return 2"), Edit("def f():", "def g():")],
    )
    [edit] = prepare_patch(root, [change]).edits
    assert edit.path == "pkg/m.py"
    assert edit.old_text == "def f():\n    return  1\n"
    assert edit.new_text == "def g():\n    return 2\n"
    assert (root / "pkg" / "m.py").read_text() == "def f():\n    return  1\n"  # disk untouched


def test_prepare_patch_edits_mismatch_names_the_file(root: Path) -> None:
    change = FileChange(
        "pkg/m.py", base_sha256=_base(root, "pkg/m.py"), edits=[Edit("return 3", "return 4")]
    )
    with pytest.raises(FindMismatch) as caught:
        prepare_patch(root, [change])
    assert caught.value.details[0].path == "pkg/m.py"
    assert caught.value.details[1].message.startswith("line 2 ")


def test_prepare_patch_edits_on_a_stale_base(root: Path) -> None:
    change = FileChange("pkg/m.py", base_sha256="0" * 64, edits=[Edit("return", "yield")])
    with pytest.raises(StaleBase):
        prepare_patch(root, [change])


def test_prepare_patch_edits_without_base_is_a_bad_request(root: Path) -> None:
    change = FileChange("pkg/new.py", base_sha256=None, edits=[Edit("x", "y")])
    with pytest.raises(BadRequest):
        prepare_patch(root, [change])


def test_prepare_patch_content_and_edits_is_a_bad_request(root: Path) -> None:
    change = FileChange(
        "pkg/m.py",
        base_sha256=_base(root, "pkg/m.py"),
        content="x = 1\n",
        edits=[Edit("return", "yield")],
    )
    with pytest.raises(BadRequest):
        prepare_patch(root, [change])


def test_prepare_patch_empty_edits_is_a_bad_request(root: Path) -> None:
    change = FileChange("pkg/m.py", base_sha256=_base(root, "pkg/m.py"), edits=[])
    with pytest.raises(BadRequest):
        prepare_patch(root, [change])
