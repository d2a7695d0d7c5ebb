"""``backends.node``: the ``node`` prewrite runs is never one a repository put on ``PATH``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.backends import node

if TYPE_CHECKING:
    from pathlib import Path


def fake_node(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    exe = directory / "node"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return exe


def test_a_repositorys_bin_folders_are_skipped(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    npm_bin = repo / "node_modules" / ".bin"
    venv_bin = repo / ".venv" / "bin"
    fake_node(npm_bin)
    fake_node(venv_bin)
    (repo / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    system = fake_node(tmp_path / "usr" / "bin")
    path = os.pathsep.join(["", ".", str(npm_bin), str(venv_bin), str(system.parent)])
    assert node.find_node(path) == str(system)
    assert node.find_node(os.pathsep.join([str(npm_bin), str(venv_bin)])) is None


def test_a_link_into_node_modules_is_the_repositorys(tmp_path: Path) -> None:
    """A plain-looking folder whose ``node`` leads into a project's ``node_modules``."""
    real = fake_node(tmp_path / "repo" / "node_modules" / "node" / "bin")
    linked = tmp_path / "bin"
    linked.mkdir()
    (linked / "node").symlink_to(real)
    assert node.find_node(str(linked)) is None
    via_dir = tmp_path / "tools"
    via_dir.symlink_to(real.parent, target_is_directory=True)
    assert node.find_node(str(via_dir)) is None


def test_the_users_choice_is_taken_and_none_is_a_typed_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREWRITE_NODE", "/opt/node/bin/node")
    assert node.node_executable() == "/opt/node/bin/node"
    monkeypatch.delenv("PREWRITE_NODE")
    monkeypatch.setenv("PATH", str(tmp_path / "repo" / "node_modules" / ".bin"))
    fake_node(tmp_path / "repo" / "node_modules" / ".bin")
    with pytest.raises(BackendFailed, match="PREWRITE_NODE"):
        node.node_executable()


def test_the_daemons_path_keeps_its_own_bin_and_drops_a_repositorys(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    venv_bin = repo / ".venv" / "bin"
    fake_node(venv_bin)
    (repo / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    own = tmp_path / "prewrite-venv" / "bin"
    own.mkdir(parents=True)
    (own.parent / "pyvenv.cfg").write_text("home = /usr/bin\n")
    npm_bin = str(repo / "node_modules" / ".bin")
    path = os.pathsep.join([str(venv_bin), npm_bin, "", str(own), "/usr/bin"])
    assert node.sanitized_path(path, str(own)) == os.pathsep.join([str(own), "/usr/bin"])
