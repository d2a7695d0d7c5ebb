"""Patch validation on real directories, base hashes and base texts (``prepare_patch``): stale bases
are listed file by file, a non-UTF-8 base is refused, the happy path returns the base and new texts,
and validation never writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BadRequest, StaleBase
from prewrite.protocol import FileChange
from prewrite_daemon.check.patch import FileEdit, prepare_patch
from tests.unit.patch_validation.patch_helpers import sha256_of as _hash

if TYPE_CHECKING:
    from pathlib import Path


def test_null_base_for_an_existing_file_is_stale(root: Path) -> None:
    with pytest.raises(StaleBase) as exc_info:
        prepare_patch(root, [FileChange("b.py", None, "B = 3\n")])
    assert [d.path for d in exc_info.value.details] == ["b.py"]


def test_missing_file_with_a_hash_is_stale(root: Path) -> None:
    with pytest.raises(StaleBase) as exc_info:
        prepare_patch(root, [FileChange("nope.py", "ab" * 32, "x = 1\n")])
    assert [d.path for d in exc_info.value.details] == ["nope.py"]


def test_stale_base_lists_every_mismatching_file(root: Path) -> None:
    (root / "c.py").write_text("C = 3\n")
    (root / "d.py").write_text("D = 4\n")
    changes = [
        FileChange("b.py", "0" * 64, "B = 1\n"),  # wrong hash
        FileChange("c.py", _hash(root / "c.py"), "C = 1\n"),  # fine
        FileChange("pkg/a.py", _hash(root / "b.py"), "A = 2\n"),  # another file's hash
        FileChange("missing.py", "ab" * 32, "M = 1\n"),  # gone from disk
        FileChange("d.py", None, "D = 1\n"),  # exists, but null base
        FileChange("old.py", "cd" * 32, delete=True),  # deleting a missing file
    ]
    with pytest.raises(StaleBase) as exc_info:
        prepare_patch(root, changes)
    err = exc_info.value
    assert err.code == "stale_base"
    assert sorted(d.path or "" for d in err.details) == [
        "b.py",
        "d.py",
        "missing.py",
        "old.py",
        "pkg/a.py",
    ]
    assert err.message.startswith("5 ")


def test_non_utf8_base_is_a_bad_request(root: Path) -> None:
    (root / "latin.py").write_bytes(b"name = '\xe9t\xe9'\n")
    with pytest.raises(BadRequest, match="UTF-8") as exc_info:
        prepare_patch(root, [FileChange("latin.py", _hash(root / "latin.py"), "name = ''\n")])
    assert [d.path for d in exc_info.value.details] == ["latin.py"]


# --- prepare_patch: the happy path ------------------------------------------------------------


def test_happy_path_returns_the_base_and_new_texts(root: Path) -> None:
    (root / "crlf.py").write_bytes(b"X = 1\r\nY = '\xc3\xbc'\r\n")
    (root / "README.md").write_text("# hi\n")
    changes = [
        FileChange("./pkg/a.py", _hash(root / "pkg" / "a.py"), "A = 2\n"),
        FileChange("crlf.py", _hash(root / "crlf.py").upper(), "X = 2\r\n"),
        FileChange("pkg/new.py", None, "N = 1\n"),
        FileChange("b.py", _hash(root / "b.py"), delete=True),
        FileChange("README.md", _hash(root / "README.md"), "# hello\n"),
    ]
    prepared = prepare_patch(root, changes)
    assert prepared.root == root
    assert prepared.edits == (
        FileEdit("pkg/a.py", "A = 1\n", "A = 2\n"),
        FileEdit("crlf.py", "X = 1\r\nY = 'ü'\r\n", "X = 2\r\n"),  # bytes exact: CRLF kept
        FileEdit("pkg/new.py", None, "N = 1\n"),
        FileEdit("b.py", "B = 2\n", None),
        FileEdit("README.md", "# hi\n", "# hello\n"),
    )
    assert [e.is_python for e in prepared.edits] == [True, True, True, True, False]


def test_validation_reads_but_never_writes(root: Path) -> None:
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    prepare_patch(
        root,
        [
            FileChange("b.py", _hash(root / "b.py"), delete=True),
            FileChange("pkg/a.py", _hash(root / "pkg" / "a.py"), "A = 9\n"),
            FileChange("pkg/new.py", None, "N = 1\n"),
        ],
    )
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
