"""Patch validation on real directories, the paths a patch may name (``normalize_path``): inside the
root only, never absolute, never ``.git`` in any case, files only, no symlink escaping the root or
into ``.git``, and paths the filesystem cannot hold.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from prewrite.errors import BadRequest, ForbiddenPath, PathOutsideWorkspace
from prewrite.protocol import FileChange
from prewrite_daemon.check.patch import normalize_path, prepare_patch


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "outside"
    path.mkdir()
    (path / "secret.py").write_text("SECRET = 1\n")
    return path


# --- normalize_path -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("b.py", "b.py"),
        ("./b.py", "b.py"),
        ("pkg//a.py", "pkg/a.py"),
        ("./pkg/./a.py", "pkg/a.py"),
        ("pkg/new/deep.py", "pkg/new/deep.py"),
        (".gitignore", ".gitignore"),
        ("pkg/.github/x.py", "pkg/.github/x.py"),
    ],
)
def test_normalize_accepts_paths_inside(root: Path, raw: str, expected: str) -> None:
    assert normalize_path(root, raw) == expected


@pytest.mark.parametrize(
    "raw",
    ["../x.py", "pkg/../../x.py", "./a/../../x", "/etc/passwd", str(Path("/tmp/x.py")), ".."],
)
def test_normalize_refuses_paths_outside(root: Path, raw: str) -> None:
    with pytest.raises(PathOutsideWorkspace) as exc_info:
        normalize_path(root, raw)
    assert [d.path for d in exc_info.value.details] == [raw]


def test_normalize_refuses_an_absolute_path_even_inside_the_root(root: Path) -> None:
    with pytest.raises(PathOutsideWorkspace):
        normalize_path(root, str(root / "b.py"))


@pytest.mark.parametrize(
    "raw",
    [".git/config", ".GIT/config", ".Git/HEAD", "./.git/config", "sub/.git/config", ".git/new"],
)
def test_normalize_refuses_git_in_any_case(root: Path, raw: str) -> None:
    with pytest.raises(ForbiddenPath) as exc_info:
        normalize_path(root, raw)
    assert exc_info.value.code == "forbidden_path"


@pytest.mark.parametrize("raw", ["", "pkg/", "a\x00.py", ".", "./"])
def test_normalize_refuses_non_file_paths(root: Path, raw: str) -> None:
    with pytest.raises(BadRequest):
        normalize_path(root, raw)


def test_file_symlink_escaping_the_root_is_refused(root: Path, outside: Path) -> None:
    (root / "link.py").symlink_to(outside / "secret.py")
    with pytest.raises(PathOutsideWorkspace):
        normalize_path(root, "link.py")


def test_dir_symlink_escaping_the_root_is_refused(root: Path, outside: Path) -> None:
    (root / "pkg" / "ext").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathOutsideWorkspace):
        normalize_path(root, "pkg/ext/secret.py")
    with pytest.raises(PathOutsideWorkspace):
        normalize_path(root, "pkg/ext/new.py")  # a new file behind the link, too


def test_relative_symlink_chain_escaping_the_root_is_refused(root: Path, outside: Path) -> None:
    (root / "hop").symlink_to("pkg/hop2", target_is_directory=True)
    (root / "pkg" / "hop2").symlink_to(os.path.relpath(outside, root / "pkg"))
    with pytest.raises(PathOutsideWorkspace):
        normalize_path(root, "hop/secret.py")


def test_dangling_symlink_to_outside_is_refused(root: Path, outside: Path) -> None:
    (root / "later").symlink_to(outside / "not-yet", target_is_directory=True)
    with pytest.raises(PathOutsideWorkspace):
        normalize_path(root, "later/new.py")


def test_symlink_to_the_root_itself_stays_inside(root: Path) -> None:
    (root / "self").symlink_to(root, target_is_directory=True)
    assert normalize_path(root, "self/b.py") == "b.py"  # the canonical name of the file
    with pytest.raises(BadRequest, match="workspace root"):
        normalize_path(root, "self")


def test_symlink_into_git_is_forbidden(root: Path) -> None:
    (root / "cfg").symlink_to(root / ".git" / "config")
    (root / "g").symlink_to(".git", target_is_directory=True)
    with pytest.raises(ForbiddenPath):
        normalize_path(root, "cfg")
    with pytest.raises(ForbiddenPath):
        normalize_path(root, "g/config")


# --- paths the filesystem cannot hold ---------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("n" * 256 + ".py", id="component-259-bytes"),
        pytest.param("pkg/" + "é" * 128 + ".py", id="component-259-utf8-bytes"),
        pytest.param("/".join(["d" * 200] * 21) + "/a.py", id="path-4200-bytes"),
    ],
)
def test_a_path_too_long_is_a_bad_request(root: Path, raw: str) -> None:
    with pytest.raises(BadRequest, match="bytes") as exc_info:
        normalize_path(root, raw)
    assert [d.path for d in exc_info.value.details] == [raw]
    with pytest.raises(BadRequest):
        prepare_patch(root, [FileChange(raw, None, "x = 1\n")])


def test_names_at_the_limits_are_accepted(root: Path) -> None:
    name = "n" * 252 + ".py"  # 255 bytes
    assert normalize_path(root, f"pkg/{name}") == f"pkg/{name}"
