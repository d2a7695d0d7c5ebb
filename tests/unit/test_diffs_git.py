"""``git diff`` output, made by git in temporary repositories, read into prewrite patches.

The disk is the diff's old side (the repository as committed): each case checks the changes
the diff stands for — full contents, deletes, base hashes of the bytes read — and that nothing
was written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.changes import sha256_hex
from prewrite.diffs import changes_from_diff
from prewrite.errors import BadRequest, FindAmbiguous, FindMismatch
from prewrite.protocol import FileChange
from tests.support.git_diffs import git, init_repo, staged_diff, unstaged_diff, write_tree

if TYPE_CHECKING:
    from pathlib import Path

LONG = "".join(f"line {i}\n" for i in range(1, 41))


def base(root: Path, rel: str) -> str:
    return sha256_hex((root / rel).read_bytes())


def test_a_modified_file_with_several_hunks_becomes_its_full_content(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"pkg/a.py": LONG})
    after = LONG.replace("line 3\n", "line three\n").replace("line 35\n", "line 35\nadded\n")
    diff = staged_diff(repo, {"pkg/a.py": after})
    assert diff.count("\n@@ ") == 2
    patch = changes_from_diff(repo, diff)
    assert patch.changes == [FileChange("pkg/a.py", base(repo, "pkg/a.py"), content=after)]
    assert patch.notes == []
    assert (repo / "pkg/a.py").read_text() == LONG  # read, never written


def test_unstaged_and_staged_diffs_read_alike(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"a.py": LONG})
    after = LONG.replace("line 20\n", "")
    assert changes_from_diff(repo, unstaged_diff(repo, {"a.py": after})).changes == [
        FileChange("a.py", base(repo, "a.py"), content=after)
    ]
    assert changes_from_diff(repo, staged_diff(repo, {"a.py": after})).changes == [
        FileChange("a.py", base(repo, "a.py"), content=after)
    ]


def test_new_files_full_and_empty_must_not_exist(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"keep.py": "x = 1\n"})
    diff = staged_diff(repo, {"pkg/new.py": "def f() -> int:\n    return 1\n", "empty.py": ""})
    assert "--- /dev/null" in diff
    assert "new file mode" in diff
    assert sorted(changes_from_diff(repo, diff).changes, key=lambda c: c.path) == [
        FileChange("empty.py", None, content=""),  # an empty new file has no ---/+++ lines
        FileChange("pkg/new.py", None, content="def f() -> int:\n    return 1\n"),
    ]


def test_deleted_files_are_deletes_with_their_base(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"old.py": LONG, "empty.py": "", "keep.py": "k\n"})
    diff = staged_diff(repo, {"old.py": None, "empty.py": None})
    assert "+++ /dev/null" in diff
    assert "deleted file mode" in diff
    assert sorted(changes_from_diff(repo, diff).changes, key=lambda c: c.path) == [
        FileChange("empty.py", base(repo, "empty.py"), delete=True),
        FileChange("old.py", base(repo, "old.py"), delete=True),
    ]


def test_a_deletion_of_a_file_that_grew_since_is_refused(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"old.py": "a\nb\n"})
    diff = staged_diff(repo, {"old.py": None})
    write_tree(repo, {"old.py": "a\nb\nc\n"})
    with pytest.raises(FindMismatch, match="holds lines the diff does not remove"):
        changes_from_diff(repo, diff)


@pytest.mark.parametrize("edited", [False, True])
def test_a_rename_is_a_delete_and_a_new_file(tmp_path: Path, edited: bool) -> None:
    repo = init_repo(tmp_path / "r", {"pkg/old_name.py": LONG})
    content = LONG.replace("line 2\n", "line two\n") if edited else LONG
    diff = staged_diff(repo, {"pkg/old_name.py": None, "pkg/new_name.py": content}, "-M")
    assert "rename from pkg/old_name.py" in diff
    assert ("@@" in diff) is edited
    assert changes_from_diff(repo, diff).changes == [
        FileChange("pkg/old_name.py", base(repo, "pkg/old_name.py"), delete=True),
        FileChange("pkg/new_name.py", None, content=content),
    ]


def test_a_copy_is_a_new_file_and_leaves_its_source(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"a.py": LONG})
    copied = LONG.replace("line 9\n", "line nine\n")
    diff = staged_diff(repo, {"b.py": copied}, "-C", "--find-copies-harder")
    assert "copy from a.py" in diff
    assert changes_from_diff(repo, diff).changes == [FileChange("b.py", None, content=copied)]


@pytest.mark.parametrize(
    ("before", "after"),
    [("a\nb\nc", "a\nB\nc"), ("a\nb\nc", "a\nb\nc\n"), ("a\nb\nc\n", "a\nb\nc"), ("", "x")],
)
def test_no_newline_at_end_of_file(tmp_path: Path, before: str, after: str) -> None:
    repo = init_repo(tmp_path / "r", {"f.txt": before})
    diff = staged_diff(repo, {"f.txt": after})
    assert "\\ No newline at end of file" in diff
    assert changes_from_diff(repo, diff).changes[0].content == after


def test_a_crlf_file_keeps_its_line_ends(tmp_path: Path) -> None:
    before = "a = 1\r\nb = 2\r\nc = 3\r\n"
    repo = init_repo(tmp_path / "r", {"w.py": before})
    after = "a = 1\r\nb = 20\r\nc = 3\r\nd = 4\r\n"
    diff = staged_diff(repo, {"w.py": after})
    assert "+b = 20\r\n" in diff
    assert changes_from_diff(repo, diff).changes[0].content == after


def test_an_lf_diff_applies_to_the_crlf_file_on_disk(tmp_path: Path) -> None:
    """core.autocrlf: git diffs the normalized (LF) text while the work tree holds CRLF."""
    repo = init_repo(tmp_path / "r", {"w.py": "a = 1\nb = 2\nc = 3\n"})
    diff = staged_diff(repo, {"w.py": "a = 1\nb = 20\nc = 3\n"})
    write_tree(repo, {"w.py": "a = 1\r\nb = 2\r\nc = 3\r\n"})
    assert changes_from_diff(repo, diff).changes[0].content == "a = 1\r\nb = 20\r\nc = 3\r\n"


def test_mode_changes_are_ignored_with_a_note(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"run.py": "print(1)\n", "lib.py": "x = 1\n"})
    only_mode = staged_diff(repo, {}, chmod="run.py")
    assert "new mode 100755" in only_mode
    with pytest.raises(BadRequest, match=r"changes no file's content: run\.py: mode change"):
        changes_from_diff(repo, only_mode)
    both = staged_diff(repo, {"lib.py": "x = 2\n"}, chmod="run.py")
    patch = changes_from_diff(repo, both)
    assert patch.changes == [FileChange("lib.py", base(repo, "lib.py"), content="x = 2\n")]
    assert patch.notes == ["run.py: mode change to 100755 ignored (contents only)"]


@pytest.mark.parametrize("options", [(), ("--binary",)])
def test_binary_patches_are_refused(tmp_path: Path, options: tuple[str, ...]) -> None:
    repo = init_repo(tmp_path / "r", {"img.bin": b"\x00\x01\x02", "a.py": "a\n"})
    diff = staged_diff(repo, {"img.bin": b"\x00\x01\x03", "a.py": "b\n"}, *options)
    with pytest.raises(BadRequest, match=r"img\.bin: .*binary"):
        changes_from_diff(repo, diff)


def test_names_with_spaces_and_non_ascii_bytes(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"sp ace.py": "a\n", "dir/ü.py": "u\n"})
    diff = staged_diff(repo, {"sp ace.py": "b\n", "dir/ü.py": "v\n", "nëw file.py": "n\n"})
    assert '"a/dir/\\303\\274.py"' in diff  # git quotes bytes over 127 (core.quotepath)
    assert sorted(changes_from_diff(repo, diff).changes, key=lambda c: c.path) == [
        FileChange("dir/ü.py", base(repo, "dir/ü.py"), content="v\n"),
        FileChange("nëw file.py", None, content="n\n"),
        FileChange("sp ace.py", base(repo, "sp ace.py"), content="b\n"),
    ]


def test_a_renamed_name_with_spaces(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"old name.py": LONG})
    moved = LONG + "tail\n"
    diff = staged_diff(repo, {"old name.py": None, "new name.py": moved}, "-M")
    assert changes_from_diff(repo, diff).changes == [
        FileChange("old name.py", base(repo, "old name.py"), delete=True),
        FileChange("new name.py", None, content=moved),
    ]


def test_no_prefix_diffs(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"pkg/a.py": "a\n"})
    diff = staged_diff(repo, {"pkg/a.py": "b\n"}, "--no-prefix")
    assert "--- pkg/a.py" in diff
    assert changes_from_diff(repo, diff).changes[0].path == "pkg/a.py"


def test_a_format_patch_mail_reads_past_its_message_and_signature(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"a.py": LONG})
    write_tree(repo, {"a.py": LONG.replace("line 5\n", "line five\n")})
    git(repo, "commit", "-qam", "subject\n\n--- not a diff\nbody")
    mail = git(repo, "format-patch", "--stdout", "-1")
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    assert mail.rstrip().endswith(git(repo, "--version").split()[-1])  # "-- \n2.x"
    assert changes_from_diff(repo, mail).changes[0].content == LONG.replace("line 5", "line five")


def test_a_hunk_that_no_longer_matches_names_file_and_hunk(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"pkg/a.py": LONG})
    diff = staged_diff(repo, {"pkg/a.py": LONG.replace("line 3\n", "x\n").replace("37\n", "y\n")})
    write_tree(repo, {"pkg/a.py": LONG.replace("line 36\n", "line 36 edited\n")})
    with pytest.raises(FindMismatch) as caught:
        changes_from_diff(repo, diff)
    assert "pkg/a.py: hunk 2 of 2 (@@ -34,7 +34,7 @@) does not match the file" in str(caught.value)
    assert "line 36 is 'line 36 edited\\n'; the diff expects 'line 36\\n'" in str(caught.value)
    assert caught.value.details[0].path == "pkg/a.py"


def test_a_diff_applied_already_says_so(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"a.py": LONG})
    after = LONG.replace("line 7\n", "line seven\n")
    diff = unstaged_diff(repo, {"a.py": after})
    write_tree(repo, {"a.py": after})
    with pytest.raises(FindMismatch, match="already holds this hunk's result"):
        changes_from_diff(repo, diff)


def test_a_hunk_whose_lines_moved_is_found_once_and_refused_when_repeated(
    tmp_path: Path,
) -> None:
    repo = init_repo(tmp_path / "r", {"a.py": LONG})
    after = LONG.replace("line 20\n", "line twenty\n")
    diff = staged_diff(repo, {"a.py": after})
    write_tree(repo, {"a.py": "new head\n" * 5 + LONG})
    assert changes_from_diff(repo, diff).changes[0].content == "new head\n" * 5 + after
    write_tree(repo, {"a.py": "x\n" + LONG + LONG})  # its lines twice, neither where it says
    with pytest.raises(FindAmbiguous, match="match 2 places"):
        changes_from_diff(repo, diff)


def test_later_hunks_move_as_far_as_the_first_one_did(tmp_path: Path) -> None:
    """The second hunk's lines occur twice; it goes where its header says, moved as far as the
    first hunk (found once, three lines down) was: not refused as ambiguous."""
    unique = "".join(f"u{i}\n" for i in range(12))
    repeated = "".join(f"r{i}\n" for i in range(8))
    before = unique + repeated + "".join(f"v{i}\n" for i in range(8)) + repeated
    repo = init_repo(tmp_path / "r", {"a.py": before})
    after = before.replace("u6\n", "u six\n").replace("r4\n", "r four\n", 1)
    diff = staged_diff(repo, {"a.py": after})
    assert diff.count("\n@@ ") == 2
    write_tree(repo, {"a.py": "top\n" * 3 + before})
    assert changes_from_diff(repo, diff).changes[0].content == "top\n" * 3 + after
