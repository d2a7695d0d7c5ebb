"""``diff -u`` / ``diff -ruN`` output, and what the diff reader refuses: paths outside the root,
malformed hunks, colour, context-free insertions, files named twice, text that is not UTF-8."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import sha256_hex
from prewrite.diffs import changes_from_diff
from prewrite.diffs.parse import parse_diff
from prewrite.errors import BadRequest, FindMismatch, InvalidWorkspace, PathOutsideWorkspace
from prewrite.protocol import FileChange
from tests.support.git_diffs import gnu_diff, write_tree

if TYPE_CHECKING:
    from pathlib import Path

A = "import os\n\n\ndef f() -> int:\n    return 1\n"
SIMPLE = "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"


def trees(tmp_path: Path) -> Path:
    """``old/`` and ``new/`` beside each other (``diff -ruN old new``); returns ``old``."""
    write_tree(
        tmp_path,
        {
            "old/pkg/a.py": A,
            "new/pkg/a.py": A.replace("return 1", "return 2"),
            "old/pkg/gone.py": "x = 1\n",
            "new/pkg/born.py": "y = 2\n",
            "old/same.py": "s\n",
            "new/same.py": "s\n",
        },
    )
    return tmp_path / "old"


def test_diff_ruN_two_trees(tmp_path: Path) -> None:
    root = trees(tmp_path)
    diff = gnu_diff(tmp_path, "-ruN", "old", "new")
    assert "1970-01-01 00:00:00" in diff  # -N: a missing file is the empty one of the epoch
    patch = changes_from_diff(root, diff)
    assert patch.changes == [
        FileChange("pkg/a.py", sha256_hex(A.encode()), content=A.replace("return 1", "return 2")),
        FileChange("pkg/born.py", None, content="y = 2\n"),
        FileChange("pkg/gone.py", sha256_hex(b"x = 1\n"), delete=True),
    ]


def test_diff_r_without_N_is_refused(tmp_path: Path) -> None:
    trees(tmp_path)
    with pytest.raises(BadRequest, match=r"Only in new/pkg: born\.py.*use -ruN"):
        changes_from_diff(tmp_path / "old", gnu_diff(tmp_path, "-ru", "old", "new"))


def test_diff_u_of_one_file_in_the_root(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": A, "a.py.new": A + "x = 1\n"})
    diff = gnu_diff(tmp_path, "-u", "a.py", "a.py.new")
    assert changes_from_diff(tmp_path, diff).changes == [
        FileChange("a.py", sha256_hex(A.encode()), content=A + "x = 1\n")
    ]


def test_diff_u_from_dev_null_creates(tmp_path: Path) -> None:
    write_tree(tmp_path, {"n.py": "n = 1\n"})
    diff = gnu_diff(tmp_path, "-u", "/dev/null", "n.py")
    (tmp_path / "n.py").unlink()
    created = changes_from_diff(tmp_path, diff).changes
    assert created == [FileChange("n.py", None, content="n = 1\n")]


def test_a_traditional_diff_of_a_missing_file_creates_it_only_from_nothing(tmp_path: Path) -> None:
    """No /dev/null, no epoch: git apply's rule, a missing file whose hunks remove nothing."""
    creating = "--- a/n.py\n+++ b/n.py\n@@ -0,0 +1 @@\n+n\n"
    created = changes_from_diff(tmp_path, creating).changes
    assert created == [FileChange("n.py", None, content="n\n")]
    with pytest.raises(FindMismatch, match=r"x\.py: the diff changes this file, but it does not"):
        changes_from_diff(tmp_path, SIMPLE)


@pytest.mark.parametrize(
    "name", ["../outside.py", "/etc/hosts", "pkg/../../outside.py", "link/escape.py"]
)
def test_paths_outside_the_root_are_refused_before_any_read(tmp_path: Path, name: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "escape.py").write_text("a\nb\n")
    os.symlink(tmp_path / "elsewhere", root / "link")
    hunk = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    diff = f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n{hunk}"
    with pytest.raises(PathOutsideWorkspace):
        changes_from_diff(root, diff)
    with pytest.raises(PathOutsideWorkspace):
        changes_from_diff(root, f"--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+x\n")


def test_dot_slash_and_doubled_slashes_are_the_same_path(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pkg/x.py": "a\nb\n"})
    diff = "--- ./pkg//x.py\n+++ ./pkg//x.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    assert changes_from_diff(tmp_path, diff).changes[0].path == "pkg/x.py"


@pytest.mark.parametrize(
    ("diff", "message"),
    [
        ("", "no file changes found"),
        ("*** a.py\n--- a.py\n***************\n", "no file changes found"),  # a context diff
        (SIMPLE[: SIMPLE.index("+c")], "ends early: the diff is truncated"),
        (SIMPLE.replace("-1,2 +1,2", "-1,1 +1,1"), "a line outside any hunk"),
        (SIMPLE.replace("-1,2 +1,2", "-1,3 +1,3") + "x\n", "'x' is not a hunk line"),
        (SIMPLE.replace("@@ -1,2 +1,2 @@", "@@ -1,2 +1,2"), "malformed hunk header"),
        (SIMPLE + SIMPLE[SIMPLE.index("@@") :], "overlaps or precedes"),
        ("\x1b[1mdiff --git a/x b/x\x1b[m\n", "colour codes: make it with --no-color"),
        ("diff --cc x.py\n", "combined"),
        ("diff --git a/l b/l\nnew file mode 120000\n", "symbolic link"),
        ("diff --git a/m b/m\nindex 1..2 160000\n--- a/m\n+++ b/m\n", "a submodule"),
        ("diff --git a/x.py b/x.py\nold mode 100644\nnew mode 100755\n", "changes no file's"),
        ("diff --git a/x b/y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n", "says no rename"),
        (SIMPLE + SIMPLE.replace("x.py", "./x.py"), "x.py is changed twice"),
    ],
)
def test_malformed_diffs_are_refused(tmp_path: Path, diff: str, message: str) -> None:
    write_tree(tmp_path, {"x.py": "a\nb\n", "m": "", "l": ""})
    with pytest.raises(BadRequest) as caught:
        changes_from_diff(tmp_path, diff)
    assert message in str(caught.value)


def test_a_context_free_insertion_is_refused_a_context_free_removal_applies(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"x.py": "a\nb\nc\n"})
    with pytest.raises(BadRequest, match="no context to place them"):
        changes_from_diff(tmp_path, "--- a/x.py\n+++ b/x.py\n@@ -1,0 +2 @@\n+new\n")
    removal = "--- a/x.py\n+++ b/x.py\n@@ -2 +1,0 @@\n-b\n"
    assert changes_from_diff(tmp_path, removal).changes[0].content == "a\nc\n"
    with pytest.raises(FindMismatch):  # -U0 hunks are placed only where their header says
        changes_from_diff(tmp_path, removal.replace("@@ -2 +1,0", "@@ -3 +2,0"))


def test_a_diff_turned_crlf_in_transit_still_applies_to_lf_and_crlf_files(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"lf.py": "a\nb\n", "crlf.py": "a\r\nb\r\n"})
    lf = SIMPLE + SIMPLE.replace("x.py", "crlf.py")
    diff = lf.replace("x.py", "lf.py").replace("\n", "\r\n")
    assert [c.content for c in changes_from_diff(tmp_path, diff).changes] == [
        "a\nc\n",
        "a\r\nc\r\n",
    ]


def test_the_root_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(InvalidWorkspace):
        changes_from_diff(tmp_path / "missing", SIMPLE)


def test_a_blank_line_in_a_hunk_is_empty_context(tmp_path: Path) -> None:
    write_tree(tmp_path, {"x.py": "a\n\nb\n"})
    stripped = "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n"
    assert changes_from_diff(tmp_path, stripped).changes[0].content == "a\n\nc\n"


def test_files_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_bytes(b"a\n\xff\n")
    with pytest.raises(BadRequest, match=r"x\.py is not UTF-8 text"):
        changes_from_diff(tmp_path, SIMPLE)


def test_a_hunk_line_may_start_with_dashes_and_pluses() -> None:
    """``-- x`` removed is ``--- x`` in the hunk; counted as a hunk line, not a file header."""
    diff = "--- a/s.sql\n+++ b/s.sql\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n keep\n"
    [file] = parse_diff(diff)
    assert [line for _, line in file.hunks[0].lines] == ["-- x\n", "++ y\n", "keep\n"]


def test_epoch_timestamps_in_any_zone(tmp_path: Path) -> None:
    write_tree(tmp_path, {"g.py": "x\n"})
    stamp = "1969-12-31 19:00:00.000000000 -0500"
    diff = f"--- o/g.py\t2024-01-01 00:00:00 +0000\n+++ n/g.py\t{stamp}\n@@ -1 +0,0 @@\n-x\n"
    assert changes_from_diff(tmp_path, diff).changes == [
        FileChange("g.py", sha256_hex(b"x\n"), delete=True)
    ]
