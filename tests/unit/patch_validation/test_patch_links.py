"""Patch validation on real directories: paths through in-root symlinks name the real file
(canonical paths, edits through a linked directory, errors naming the path as given, no delete
through a file link).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BadRequest, StaleBase
from prewrite.protocol import FileChange
from prewrite_daemon.check.patch import FileEdit, normalize_path, prepare_patch
from tests.unit.patch_validation.patch_helpers import sha256_of as _hash

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def linked(root: Path) -> Path:
    """``src -> real_src`` (a directory link) and ``alias.py -> b.py`` (a file link)."""
    (root / "real_src").mkdir()
    (root / "real_src" / "a.py").write_text("A = 1\n")
    (root / "src").symlink_to("real_src", target_is_directory=True)
    (root / "alias.py").symlink_to("b.py")
    return root


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("src/a.py", "real_src/a.py"),
        ("./src/new.py", "real_src/new.py"),
        ("src/deep/new.py", "real_src/deep/new.py"),
        ("alias.py", "b.py"),
        ("real_src/a.py", "real_src/a.py"),
    ],
)
def test_a_path_through_an_in_root_symlink_is_canonical(
    linked: Path, raw: str, canonical: str
) -> None:
    assert normalize_path(linked, raw) == canonical


def test_a_patch_through_a_linked_directory_edits_the_real_file(linked: Path) -> None:
    """Was a persistent stale_base: the shadow mirrors real files, not the link."""
    base = _hash(linked / "real_src" / "a.py")
    changes = [FileChange("src/a.py", base, "A = 2\n"), FileChange("src/new.py", None, "N = 1\n")]
    assert prepare_patch(linked, changes).edits == (
        FileEdit("real_src/a.py", "A = 1\n", "A = 2\n"),
        FileEdit("real_src/new.py", None, "N = 1\n"),
    )


def test_errors_through_a_link_name_the_path_as_given(linked: Path) -> None:
    with pytest.raises(StaleBase) as stale:
        prepare_patch(linked, [FileChange("src/a.py", "0" * 64, "A = 2\n")])
    assert [d.path for d in stale.value.details] == ["src/a.py"]
    base = _hash(linked / "real_src" / "a.py")
    both = [FileChange("real_src/a.py", base, "A = 2\n"), FileChange("./src/a.py", base, "A = 3\n")]
    with pytest.raises(BadRequest, match="twice") as twice:
        prepare_patch(linked, both)
    assert [d.path for d in twice.value.details] == ["src/a.py"]


def test_deleting_through_a_file_link_is_refused(linked: Path) -> None:
    """Deleting the target of ``alias.py`` would leave a dangling link: say so instead."""
    with pytest.raises(BadRequest, match="symlink") as exc_info:
        prepare_patch(linked, [FileChange("alias.py", _hash(linked / "b.py"), delete=True)])
    assert [d.path for d in exc_info.value.details] == ["alias.py"]
    assert (linked / "b.py").exists()
