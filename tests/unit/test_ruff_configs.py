"""ruff's configurations, read by ruff itself: refused before it runs when they are special
files, and never quoted back from outside the root (issue 20, items 1 and 7). Real ruff on real
temporary trees; the warm server only where it says whether it would answer.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from prewrite.errors import BackendFailed, UnreadableFile
from prewrite_daemon.ladder.ruff import Ruff
from prewrite_daemon.ladder.ruff_configs import guard_configs, scrubbed
from prewrite_daemon.ladder.ruff_trust import ConfigTrust

pytestmark = pytest.mark.timeout(120)

SECRET = "AKIAEXAMPLESECRETKEY"
TIMEOUT_S = 30.0


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "m.py").write_text("x = 1\n")
    (tmp_path / "credentials").write_text(f"[default]\naws_secret_access_key = {SECRET}\n")
    return root


@pytest.mark.parametrize("name", ["ruff.toml", ".ruff.toml", "pyproject.toml"])
@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "sparse"])
def test_a_special_configuration_is_refused_before_ruff_runs(
    tree: Path, name: str, kind: str
) -> None:
    target = tree / "pkg" / name
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev_zero":
        target.symlink_to("/dev/zero")
    else:
        with target.open("wb") as f:
            f.truncate(1 << 30)
    with pytest.raises(UnreadableFile):
        guard_configs(tree / "pkg" / "m.py")


def test_a_special_file_a_configuration_extends_is_refused(tree: Path) -> None:
    os.mkfifo(tree.parent / "base.toml")
    (tree / "ruff.toml").write_text('extend = "../base.toml"\n')
    with pytest.raises(UnreadableFile, match="a FIFO"):
        guard_configs(tree / "pkg" / "m.py")


def test_regular_configurations_and_cycles_pass(tree: Path) -> None:
    (tree / "ruff.toml").write_text('extend = "pkg/ruff.toml"\n')
    (tree / "pkg" / "ruff.toml").write_text('extend = "../ruff.toml"\n')  # ruff reports it
    (tree / "pyproject.toml").mkdir()  # a directory of that name is no configuration
    guard_configs(tree / "pkg" / "m.py")


@pytest.mark.parametrize("warm", [False, True], ids=["cli", "warm"])
async def test_ruffs_complaint_about_an_outside_file_does_not_quote_it(
    tree: Path, warm: bool
) -> None:
    (tree / "ruff.toml").write_text(f'extend = "{tree.parent / "credentials"}"\n')
    ruff = Ruff(tree, None, warm=warm)
    try:
        with pytest.raises(BackendFailed) as caught:
            await ruff.lint("pkg/m.py", "import os\n", TIMEOUT_S)
    finally:
        await ruff.stop()
    said = str(caught.value)
    assert "Failed to parse" in said
    assert SECRET not in said
    assert "aws_secret_access_key" not in said
    assert "the quoted lines are left out" in said


async def test_ruffs_complaint_about_the_workspaces_own_file_keeps_its_quote(tree: Path) -> None:
    (tree / "ruff.toml").write_text("line-length = \n")
    ruff = Ruff(tree, None, warm=False)
    with pytest.raises(BackendFailed) as caught:
        await ruff.lint("pkg/m.py", "import os\n", TIMEOUT_S)
    assert "1 | line-length =" in str(caught.value)  # the model needs it to fix its config


def test_scrubbing_without_a_named_file_leaves_quotes_out() -> None:
    text = "ruff failed\n  |\n2 | key = value\n  |     ^\nexpected a string\n"
    out = scrubbed(text, Path("/ws"))
    assert "key = value" not in out
    assert "expected a string" in out
    assert scrubbed("ruff failed: no such file\n", Path("/ws")) == "ruff failed: no such file\n"


def test_the_warm_server_leaves_a_configuration_it_cannot_read_to_the_cli(tree: Path) -> None:
    """ruff's CLI fails on a configuration extending a file that is not TOML; a server would
    lint on with its defaults — a green CI never gives. So the server does not answer there."""
    trust = ConfigTrust(tree, sys.executable, 1 << 62)  # started after every file was written
    assert trust.holds(tree / "pkg" / "m.py")
    (tree / "ruff.toml").write_text('extend = "../credentials"\n')
    trust = ConfigTrust(tree, sys.executable, 1 << 62)
    assert not trust.holds(tree / "pkg" / "m.py")
