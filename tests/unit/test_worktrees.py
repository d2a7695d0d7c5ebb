"""New git worktrees of a repository, as the registry's scout sees them (real ``git``).

Only worktrees added after the first look are new; a workspace below the repository's top maps
to the same directory in each worktree; a worktree is taken once its record and its ``.git``
file agree and its checkout is complete, never from a record that names some other directory,
and no record is read unbounded (a FIFO never blocks the look).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from prewrite_daemon.worktrees import WorktreeScout, common_dir, git_dir, linked_worktrees
from tests.support.git_diffs import git, write_tree

if TYPE_CHECKING:
    from pathlib import Path


def _repository(tmp_path: Path) -> Path:
    top = tmp_path / "repo"
    write_tree(top, {"app/__init__.py": "", "app/core.py": "X = 1\n", "pyproject.toml": ""})
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "base")
    return top


def test_only_worktrees_added_after_the_first_look_are_new(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    git(top, "worktree", "add", "-q", str(tmp_path / "before"))
    scout = WorktreeScout()
    assert scout.new_worktrees(top) == []  # the first look: nothing is new
    git(top, "worktree", "add", "-q", str(tmp_path / "after"))
    assert scout.new_worktrees(top) == [(tmp_path / "after").resolve()]
    assert scout.new_worktrees(top) == []  # told once
    # From a worktree, the repository is the same one: the main checkout is not new.
    other = WorktreeScout()
    assert other.new_worktrees(tmp_path / "after") == []
    git(top, "worktree", "add", "-q", str(tmp_path / "third"))
    assert other.new_worktrees(tmp_path / "after") == [(tmp_path / "third").resolve()]


def test_a_workspace_below_the_top_maps_to_the_same_directory(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    scout = WorktreeScout()
    assert scout.new_worktrees(top / "app") == []
    git(top, "worktree", "add", "-q", str(tmp_path / "wt"))
    assert scout.new_worktrees(top / "app") == [(tmp_path / "wt" / "app").resolve()]


def test_git_dirs_of_a_main_checkout_and_a_linked_worktree(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    git(top, "worktree", "add", "-q", str(tmp_path / "wt"))
    assert git_dir(top) == top / ".git"
    private = git_dir(tmp_path / "wt")
    assert private is not None
    assert private.parent == (top / ".git" / "worktrees").resolve()
    assert common_dir(private) == (top / ".git").resolve()
    assert linked_worktrees(top / ".git") == ([(tmp_path / "wt").resolve()], False)


def test_a_record_naming_another_directory_is_not_a_worktree(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    scout = WorktreeScout()
    assert scout.new_worktrees(top) == []
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # no .git file pointing back at the record
    forged = top / ".git" / "worktrees" / "forged"
    forged.mkdir(parents=True)
    (forged / "gitdir").write_text(f"{elsewhere / '.git'}\n")
    assert scout.new_worktrees(top) == []
    # A .git file that names some other record does not agree either.
    (elsewhere / ".git").write_text(f"gitdir: {top / '.git' / 'worktrees' / 'other'}\n")
    os.utime(forged.parent)  # the directory "changed": the scout reads the records again
    assert scout.new_worktrees(top) == []


def test_a_worktree_still_being_added_is_taken_once_it_is_complete(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    scout = WorktreeScout()
    assert scout.new_worktrees(top) == []
    git(top, "worktree", "add", "-q", str(tmp_path / "wt"))
    record = top / ".git" / "worktrees" / "wt"
    (record / "locked").write_text("initializing")  # as `git worktree add` has it until done
    assert scout.new_worktrees(top) == []
    (record / "locked").unlink()  # this changes the record, not the worktrees directory
    assert scout.new_worktrees(top) == [(tmp_path / "wt").resolve()]


def test_records_are_read_bounded(tmp_path: Path) -> None:
    top = _repository(tmp_path)
    scout = WorktreeScout()
    assert scout.new_worktrees(top) == []
    git(top, "worktree", "add", "-q", str(tmp_path / "wt"))  # git itself would hang on the FIFO
    fifo = top / ".git" / "worktrees" / "fifo"
    fifo.mkdir(parents=True)
    os.mkfifo(fifo / "gitdir")  # opened without O_NONBLOCK, this would hang the look
    huge = top / ".git" / "worktrees" / "huge"
    huge.mkdir()
    with (huge / "gitdir").open("wb") as f:
        f.truncate(1 << 30)  # sparse: a gigabyte that is never read
    assert scout.new_worktrees(top) == [(tmp_path / "wt").resolve()]
