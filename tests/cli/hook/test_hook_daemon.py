"""``prewrite hook`` and its daemon: one that is down is started (unless autostart is off), one that
cannot start or an unusable runtime dir refuses the edit, and the hook run as a process. Daemons
started here run in their own runtime dirs and are stopped at the end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.client import Client
from prewrite.hook import run_hook
from prewrite.runtime import RuntimePaths, read_status
from tests.cli.hook.hook_helpers import recorded
from tests.cli.test_cli_e2e import wait_gone
from tests.cli.transcript import PREWRITE

if TYPE_CHECKING:
    from collections.abc import Iterator


pytestmark = pytest.mark.e2e


@pytest.fixture
def private_runtime() -> Iterator[RuntimePaths]:
    """A runtime dir of this test's own; a daemon started in it is stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d) / "run")
        try:
            yield paths
        finally:
            status = read_status(paths)
            if status is not None:
                with Client(paths=paths, autostart=False) as c:
                    c.stop()
                assert wait_gone(status.pid, 30.0)


def test_a_daemon_that_is_down_is_started(private_runtime: RuntimePaths, repo: Path) -> None:
    assert read_status(private_runtime) is None
    code, out, err = run_hook(recorded("multiedit.json", repo), paths=private_runtime)
    assert (code, out, err) == (0, "", "")
    assert read_status(private_runtime) is not None


def test_without_autostart_a_missing_daemon_refuses(
    private_runtime: RuntimePaths, repo: Path
) -> None:
    code, _out, err = run_hook(
        recorded("multiedit.json", repo), autostart=False, paths=private_runtime
    )
    assert code == 2
    assert "[daemon_unavailable]" in err
    assert "fails closed" in err


def test_a_daemon_that_cannot_start_refuses_the_edit(
    private_runtime: RuntimePaths, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREWRITE_DAEMON_CMD", "false")  # the launcher exits 1
    code, _out, err = run_hook(recorded("multiedit.json", repo), paths=private_runtime)
    assert code == 2
    assert "[daemon_unavailable]" in err
    assert "the daemon did not start (launcher exit code 1)" in err


def test_an_unusable_runtime_dir_refuses_the_edit(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    unusable = RuntimePaths(tmp_path / "file" / "run")  # under a regular file: cannot exist
    code, out, err = run_hook(recorded("multiedit.json", repo), paths=unusable)
    assert (code, out) == (2, "")
    assert "prewrite hook failed (NotADirectoryError" in err


def _hook_command() -> list[str]:
    wired = subprocess.run(
        [PREWRITE, "hook", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    if wired.returncode == 0:
        return [PREWRITE, "hook"]
    return [sys.executable, "-c", "import sys; from prewrite.hook import main; sys.exit(main())"]


def test_the_hook_as_a_process(daemon: RuntimePaths, repo: Path) -> None:
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(daemon.runtime_dir))
    env.pop("PREWRITE_DAEMON_CMD", None)
    done = subprocess.run(
        _hook_command(),
        input=recorded("write_breaks_type.json", repo),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert b"pkg/service.py:5:12: error: Type" in done.stderr
