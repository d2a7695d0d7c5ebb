"""Patch validation on real directories: path policy, shapes, base hashes, base texts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from prewrite.changes import sha256_hex
from prewrite.errors import BadRequest, ForbiddenPath, PathOutsideWorkspace, StaleBase
from prewrite.protocol import FileChange
from prewrite_daemon.check.patch import FileEdit, normalize_path, prepare_patch


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "outside"
    path.mkdir()
    (path / "secret.py").write_text("SECRET = 1\n")
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace with a package, a .git dir and ordinary files."""
    path = tmp_path.resolve() / "ws"
    (path / "pkg").mkdir(parents=True)
    (path / "pkg" / "__init__.py").write_text("")
    (path / "pkg" / "a.py").write_text("A = 1\n")
    (path / "b.py").write_text("B = 2\n")
    (path / ".git").mkdir()
    (path / ".git" / "config").write_text("[core]\n")
    return path


def _hash(path: Path) -> str:
    return sha256_hex(path.read_bytes())


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


# --- prepare_patch: shapes --------------------------------------------------------------------


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


# --- prepare_patch: base hashes ---------------------------------------------------------------


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


# --- paths through in-root symlinks name the real file ----------------------------------------


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
