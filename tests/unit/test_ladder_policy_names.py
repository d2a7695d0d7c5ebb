"""The policy rung through an in-root symlink: a refusal names the path as the client gave it.

``normalize_path`` hands the rung the real path (``src -> real_src``: ``src/a.py`` is checked as
``real_src/a.py``), which is what the policy must judge; the client, though, must recognise the
path it sent, so the refusal names that one first and adds the real one.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.errors import ForbiddenPath, PrewriteError, UnverifiableExtension
from prewrite.protocol import CheckReply, CheckRequest, FileChange
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.runner import Ladder

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch

PYPROJECT = '[project]\nname = "w"\nversion = "0"\ndependencies = []\n'


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    (path / "real_src" / "state").mkdir(parents=True)
    (path / "src").symlink_to("real_src", target_is_directory=True)
    (path / "conf").mkdir()
    (path / "conf" / "pyproject.toml").write_text(PYPROJECT)
    (path / "pyproject.toml").symlink_to("conf/pyproject.toml")
    return path


async def never_typecheck(patch: PreparedPatch, timeout_s: float) -> CheckReply:
    raise AssertionError("the policy rung refuses before the type check")


async def refusal(root: Path, change: FileChange) -> PrewriteError:
    protected = (root / "real_src" / "state",)  # as the daemon's state dir would be
    ladder = Ladder(root, load_config(root), Ruff(root, sys.executable), never_typecheck, protected)
    with pytest.raises(PrewriteError) as info:
        await ladder.run(CheckRequest(str(root), [change], timeout_s=60))
    return info.value


@pytest.mark.parametrize(
    ("given", "real", "error"),
    [
        ("src/notes.txt", "real_src/notes.txt", UnverifiableExtension),
        ("src/.env", "real_src/.env", ForbiddenPath),
        ("src/state/x.py", "real_src/state/x.py", ForbiddenPath),
        ("./src/notes.txt", "real_src/notes.txt", UnverifiableExtension),
    ],
    ids=["extension", "denylist", "daemon-state", "dot-slash"],
)
async def test_a_path_refusal_names_the_path_as_given(
    root: Path, given: str, real: str, error: type[PrewriteError]
) -> None:
    exc = await refusal(root, FileChange(given, None, "x\n"))
    shown = given.removeprefix("./")
    assert type(exc) is error
    assert exc.message.startswith((f"{shown} ", f"{shown}: ")), exc.message
    assert real in exc.message  # ... and the real path, which is what the policy judged
    assert [d.path for d in exc.details] == [shown]


async def test_a_pyproject_refusal_names_the_path_as_given(root: Path) -> None:
    """The root ``pyproject.toml`` is a symlink here: its refusal names ``pyproject.toml``."""
    deps = PYPROJECT.replace("dependencies = []", 'dependencies = ["requests"]')
    exc = await refusal(root, change_file(root, "pyproject.toml", deps))
    assert type(exc) is ForbiddenPath
    assert exc.message.startswith("pyproject.toml: "), exc.message
    assert "conf/pyproject.toml" in exc.message
    assert {d.path for d in exc.details} == {"pyproject.toml"}


async def test_a_path_without_a_symlink_is_named_once(root: Path) -> None:
    exc = await refusal(root, FileChange("real_src/notes.txt", None, "x\n"))
    assert type(exc) is UnverifiableExtension
    assert exc.message.startswith("real_src/notes.txt: ")
    assert exc.message.count("real_src/notes.txt") == 1
    assert [d.path for d in exc.details] == ["real_src/notes.txt"]
