"""Issue 20, item 4: an interpreter is a repository's code by whichever path it is named."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from prewrite.errors import InvalidWorkspace
from prewrite_daemon.languages.python.environment import read_venv, resolve_python
from prewrite_daemon.languages.python.interpreter_trust import (
    interpreter_may_run,
    interpreter_places,
)


def _venv(holder: Path, marker: str | None = ".git") -> Path:
    """``holder/.venv/bin/python`` (a link to this interpreter, as venvs make it)."""
    bin_dir = holder / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (holder / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.4\n")
    (bin_dir / "python").symlink_to(os.path.realpath("/proc/self/exe"))
    if marker is not None:
        (holder / marker).mkdir() if marker.startswith(".") else (holder / marker).write_text("")
    return bin_dir / "python"


def _never(_root: Path) -> bool:
    return False


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "repo"
    _venv(root)
    return root


def test_every_link_on_the_way_is_a_place(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(repo, target_is_directory=True)
    (tmp_path / "hop").symlink_to(tmp_path / "alias" / ".venv" / "bin" / "python")
    places = interpreter_places(str(tmp_path / "hop"))
    assert places[:2] == [tmp_path.resolve() / "hop", repo / ".venv" / "bin" / "python"]
    assert places[-1] == Path(os.path.realpath("/proc/self/exe"))


def test_a_loop_of_links_ends(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert len(interpreter_places(str(tmp_path / "a"))) <= 3


@pytest.mark.parametrize(
    "naming", ["direct", "link_outside", "linked_root", "proc_self_cwd", "dot_dot"]
)
def test_an_untrusted_roots_interpreter_may_not_run_by_any_path(
    repo: Path, tmp_path: Path, naming: str
) -> None:
    python = repo / ".venv" / "bin" / "python"
    if naming == "link_outside":
        (tmp_path / "python").symlink_to(python)
        python = tmp_path / "python"
    elif naming == "linked_root":
        (tmp_path / "alias").symlink_to(repo, target_is_directory=True)
        python = tmp_path / "alias" / ".venv" / "bin" / "python"
    elif naming == "proc_self_cwd":
        python = Path(f"/proc/self/cwd/{os.path.relpath(python, os.getcwd())}")
    elif naming == "dot_dot":
        python = repo / ".venv" / ".." / ".venv" / "bin" / "python"
    assert not interpreter_may_run(str(python), repo, False, [], lambda _r: True)
    assert interpreter_may_run(str(python), repo, True, [], lambda r: r == repo)


def test_another_known_untrusted_root_is_that_repositorys(tmp_path: Path) -> None:
    other = tmp_path.resolve() / "other"
    python = _venv(other, marker=None)  # no repository marker: known to the daemon only
    me = tmp_path.resolve() / "me"
    assert not interpreter_may_run(str(python), me, True, [other], _never)
    assert interpreter_may_run(str(python), me, True, [], _never)


@pytest.mark.parametrize("marker", [".git", ".hg", "pyproject.toml", "setup.py", "setup.cfg"])
def test_a_venv_in_an_untrusted_repository_may_not_run(tmp_path: Path, marker: str) -> None:
    other = tmp_path.resolve() / "other"
    python = _venv(other, marker)
    me = tmp_path.resolve() / "me"
    assert not interpreter_may_run(str(python), me, False, [], _never)
    assert interpreter_may_run(str(python), me, False, [], lambda r: r == other)


def test_interpreters_outside_any_repository_run(tmp_path: Path) -> None:
    me = tmp_path.resolve() / "me"
    plain = _venv(tmp_path.resolve() / "venvs", marker=None)  # ~/.virtualenvs-like
    assert interpreter_may_run(str(plain), me, False, [], _never)
    assert interpreter_may_run(os.path.realpath("/proc/self/exe"), me, False, [], _never)


def test_a_link_to_a_venvs_python_reads_that_venv(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "python").symlink_to(repo / ".venv" / "bin" / "python")
    assert read_venv(str(tmp_path / "python")) == (repo / ".venv", "3.11")


def test_a_relative_interpreter_path_is_refused(repo: Path) -> None:
    with pytest.raises(InvalidWorkspace, match="must be absolute"):
        resolve_python(repo, ".venv/bin/python")


@pytest.mark.parametrize("inner", [".tox/py311", "backend/.venv"])
def test_a_venv_deeper_in_another_repository_is_its_code(tmp_path: Path, inner: str) -> None:
    """From a review: only the venv's immediate parent was asked whether it is a repository."""
    other = tmp_path.resolve() / "other"
    (other / ".git").mkdir(parents=True)
    venv = other / inner
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.4\n")
    (venv / "bin" / "python").symlink_to(os.path.realpath("/proc/self/exe"))
    mine = tmp_path.resolve() / "mine"
    mine.mkdir()
    python = str(venv / "bin" / "python")
    assert not interpreter_may_run(python, mine, True, [], _never)
    assert interpreter_may_run(python, mine, True, [], lambda p: p == other)  # other trusted


def test_a_trusted_subprojects_own_venv_runs_inside_a_known_untrusted_root(tmp_path: Path) -> None:
    """From a review: ``mono/`` untrusted and known, ``mono/app`` trusted: app's own venv runs,
    whether or not the daemon has seen ``mono``."""
    mono = tmp_path.resolve() / "mono"
    app = mono / "app"
    python = str(_venv(app))
    (mono / ".git").mkdir()

    def only_app(path: Path) -> bool:
        return path == app or app in path.parents

    assert interpreter_may_run(python, app, True, [mono], only_app)
    assert interpreter_may_run(python, app, True, [], only_app)
    assert not interpreter_may_run(python, mono, False, [], only_app)  # untrusted root: read
