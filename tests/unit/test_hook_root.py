"""Which workspace judges a file the hook sees (issue 20, items 3 and 13): the repository's top
or a registered root, nearest first — never a folder a patch could have made a root. Real
directories; a FIFO named ``.git`` must not block the walk.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite.hook_root import find_target, is_repository_top, registered_roots
from prewrite.hook_watchdog import DEFAULT_DEADLINE_S, Budget, Watchdog, hook_deadline_s

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.timeout(20)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "pkg").mkdir()
    (root / "pkg" / "pyproject.toml").write_text('[tool.prewrite.hook]\nblock = "never"\n')
    (root / "pyproject.toml").write_text("")
    return root


def test_the_repositorys_top_wins_over_any_nearer_pyproject(repo: Path) -> None:
    target = find_target(str(repo / "pkg" / "m.py"), "/")
    assert target is not None
    assert (target.root, target.path, target.marker) == (repo, "pkg/m.py", ".git")


def test_a_relative_path_is_taken_from_cwd(repo: Path) -> None:
    target = find_target("pkg/m.py", str(repo))
    assert target is not None
    assert target.path == "pkg/m.py"


def test_a_gitdir_file_marks_a_worktree_or_submodule(repo: Path) -> None:
    sub = repo / "vendor" / "lib"
    sub.mkdir(parents=True)
    (sub / ".git").write_text("gitdir: ../../.git/modules/lib\n")
    target = find_target(str(sub / "x.py"), "/")
    assert target is not None
    assert (target.root, target.path) == (sub, "x.py")


@pytest.mark.parametrize("kind", ["fifo", "text", "dev_zero"])
def test_a_git_that_is_no_repository_marks_nothing(tmp_path: Path, kind: str) -> None:
    root = tmp_path.resolve() / "loose"
    root.mkdir()
    marker = root / ".git"
    if kind == "fifo":
        os.mkfifo(marker)
    elif kind == "dev_zero":
        marker.symlink_to("/dev/zero")
    else:
        marker.write_text("not a gitdir line\n")
    assert not is_repository_top(root)
    assert find_target(str(root / "a.py"), str(root)) is None


def test_no_repository_and_nothing_registered_is_no_workspace(tmp_path: Path) -> None:
    loose = tmp_path.resolve() / "loose"
    loose.mkdir()
    (loose / "pyproject.toml").write_text("")  # a marker that no longer makes a root
    assert find_target(str(loose / "a.py"), str(loose)) is None
    assert find_target("a.py", "/") is None or os.path.isdir("/.git")


def test_a_registered_root_nearer_than_the_repository_wins(repo: Path) -> None:
    target = find_target(str(repo / "pkg" / "m.py"), "/", [repo / "pkg"])
    assert target is not None
    assert (target.root, target.path, target.marker) == (repo / "pkg", "m.py", "registered")


def test_a_repository_inside_a_registered_folder_wins(repo: Path) -> None:
    target = find_target(str(repo / "pkg" / "m.py"), "/", [repo.parent])
    assert target is not None
    assert target.root == repo


def test_a_registered_root_without_a_repository(tmp_path: Path) -> None:
    loose = tmp_path.resolve() / "loose"
    (loose / "deep").mkdir(parents=True)
    target = find_target(str(loose / "deep" / "a.py"), "/", [loose])
    assert target is not None
    assert (target.root, target.path) == (loose, "deep/a.py")


def test_registered_roots_come_from_the_user_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust = tmp_path / "trusted"
    trust.write_text(f"{tmp_path / 'trusted-dir'}\nrelative/ignored\n")
    monkeypatch.setenv("PREWRITE_TRUST_FILE", str(trust))
    monkeypatch.setenv("PREWRITE_HOOK_ROOTS", f"{tmp_path / 'env-dir'}{os.pathsep}relative")
    found = registered_roots([str(tmp_path / "explicit")])
    assert found == [
        (tmp_path / "explicit").resolve(),
        (tmp_path / "env-dir").resolve(),
        (tmp_path / "trusted-dir").resolve(),
    ]


@pytest.mark.parametrize(
    ("value", "seconds"), [("", DEFAULT_DEADLINE_S), ("12.5", 12.5), ("-1", DEFAULT_DEADLINE_S),
                           ("soon", DEFAULT_DEADLINE_S)],
)  # fmt: skip
def test_the_hooks_deadline_is_the_users_setting(
    monkeypatch: pytest.MonkeyPatch, value: str, seconds: float
) -> None:
    monkeypatch.setenv("PREWRITE_HOOK_DEADLINE", value)
    assert hook_deadline_s() == seconds


def test_a_budget_counts_down_and_never_below_zero() -> None:
    assert 0 < Budget(60).left() <= 60
    assert Budget(-5).left() == 0


def test_the_hook_that_answers_first_stands_the_watchdog_down() -> None:
    with Watchdog(60, "late") as watchdog:
        assert watchdog.claim()  # the hook answers; the watchdog's turn is gone
        assert not watchdog.claim()
