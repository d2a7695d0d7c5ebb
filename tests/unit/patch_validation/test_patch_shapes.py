"""Patch validation on real directories, the patch's shapes (``prepare_patch``): an empty patch,
duplicate paths (a symlink alias too), exactly one of content or delete, a delete with a null base,
a directory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BadRequest
from prewrite.protocol import FileChange
from prewrite_daemon.check.patch import prepare_patch
from tests.unit.patch_validation.patch_helpers import sha256_of as _hash

if TYPE_CHECKING:
    from pathlib import Path


def test_empty_patch_is_a_bad_request(root: Path) -> None:
    with pytest.raises(BadRequest):
        prepare_patch(root, [])


@pytest.mark.parametrize("second", ["b.py", "./b.py", ".//b.py"])
def test_duplicate_paths_are_refused(root: Path, second: str) -> None:
    changes = [
        FileChange("b.py", _hash(root / "b.py"), "B = 3\n"),
        FileChange(second, _hash(root / "b.py"), "B = 4\n"),
    ]
    with pytest.raises(BadRequest) as exc_info:
        prepare_patch(root, changes)
    assert [d.path for d in exc_info.value.details] == ["b.py"]


@pytest.mark.parametrize(
    ("link", "target", "alias"),
    [("alias.py", "b.py", "alias.py"), ("here", ".", "here/b.py")],
    ids=["file-symlink", "dir-symlink"],
)
def test_a_symlink_alias_of_a_patched_file_is_a_duplicate(
    root: Path, link: str, target: str, alias: str
) -> None:
    """Two entries naming one file on disk would be judged as a tree that cannot exist."""
    (root / link).symlink_to(target)
    base = _hash(root / "b.py")
    changes = [FileChange("b.py", base, "B = 3\n"), FileChange(alias, base, "B = 4\n")]
    with pytest.raises(BadRequest):
        prepare_patch(root, changes)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(FileChange("b.py", "0" * 64, "x", delete=True), id="content-and-delete"),
        pytest.param(FileChange("b.py", "0" * 64), id="neither"),
        pytest.param(FileChange("new.py", None, "", delete=True), id="empty-content-and-delete"),
    ],
)
def test_exactly_one_of_content_or_delete(root: Path, change: FileChange) -> None:
    with pytest.raises(BadRequest, match="exactly one"):
        prepare_patch(root, [change])


def test_delete_with_null_base_is_a_bad_request(root: Path) -> None:
    with pytest.raises(BadRequest) as exc_info:
        prepare_patch(root, [FileChange("gone.py", None, delete=True)])
    assert [d.path for d in exc_info.value.details] == ["gone.py"]


def test_a_directory_is_not_a_file(root: Path) -> None:
    with pytest.raises(BadRequest, match="directory"):
        prepare_patch(root, [FileChange("pkg", None, "x")])
