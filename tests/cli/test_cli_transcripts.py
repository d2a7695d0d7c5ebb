"""``prewrite`` command transcripts that need no checker: help, bad input, no daemon.

Each test runs the installed console script in a subprocess with its own short, empty runtime
dir, so no test can reach (or leave behind) a daemon.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite.client import Client
from prewrite.errors import DaemonUnavailable
from prewrite.runtime import RuntimePaths
from tests.cli.transcript import Cli

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def cli() -> Iterator[Cli]:
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d) / "run")
        env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(paths.runtime_dir))
        env.pop("PREWRITE_DAEMON_CMD", None)
        try:
            yield Cli(paths, env)
        finally:
            _stop_stray_daemon(paths)


def _stop_stray_daemon(paths: RuntimePaths) -> None:
    """None of these commands may start a daemon; if one did, stop it and fail."""
    try:
        client = Client(autostart=False, paths=paths)
    except DaemonUnavailable:
        return
    with client:
        client.stop()
    pytest.fail("the command started a daemon")


def _flat(text: str) -> str:
    return " ".join(text.split())


def assert_mentions_patch_format(text: str) -> None:
    flat = _flat(text)
    for word in ("changes", "path", "base_sha256", "content", "delete"):
        assert re.search(rf"\b{word}\b", flat), f"help does not mention {word!r}"


def assert_mentions_exit_codes(text: str) -> None:
    """Somewhere "exit" is followed closely by 0, 1 and 2 (argparse's "... and exit" aside)."""
    following = [m.group(1) for m in re.finditer(r"\bexit\b(.{0,160})", _flat(text), re.I)]
    explained = [f for f in following if all(re.search(rf"\b{c}\b", f) for c in "012")]
    assert explained, "help does not explain the exit codes 0, 1 and 2"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("x = 1\n")
    return tmp_path


# --- help -----------------------------------------------------------------------------------


def test_top_level_help_explains_the_patch_and_exit_codes(cli: Cli) -> None:
    t = cli("--help")
    assert t.code == 0
    assert "check" in t.out
    assert "daemon" in t.out
    assert_mentions_patch_format(t.out)
    assert_mentions_exit_codes(t.out)


def test_check_help_explains_the_patch_and_exit_codes(cli: Cli) -> None:
    t = cli("check", "--help")
    assert t.code == 0
    for option in ("--root", "--patch", "--python", "--json", "--no-autostart"):
        assert option in t.out
    assert_mentions_patch_format(t.out)
    assert_mentions_exit_codes(t.out)


def test_no_command_is_a_usage_error(cli: Cli) -> None:
    t = cli()
    assert t.code == 2
    assert "usage:" in t.err


# --- bad input, answered without a daemon ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("{not json", id="not-json"),
        pytest.param('{"changes": [{"path": "a.py", "contents": "x"}]}', id="unknown-field"),
        pytest.param('{"changes": {"path": "a.py"}}', id="wrong-type"),
        pytest.param("[]", id="not-an-object"),
    ],
)
def test_a_malformed_patch_file_exits_2(cli: Cli, repo: Path, text: str) -> None:
    patch = repo / "patch.json"
    patch.write_text(text)
    t = cli("check", "--root", str(repo), "--patch", str(patch))
    assert t.code == 2
    assert "error [bad_request]" in t.err
    assert t.out == ""


def test_a_malformed_patch_on_stdin_exits_2(cli: Cli, repo: Path) -> None:
    t = cli("check", "--root", str(repo), "--patch", "-", stdin="nope")
    assert t.code == 2
    assert "error [bad_request]" in t.err


def test_a_missing_patch_file_exits_2(cli: Cli, repo: Path) -> None:
    missing = repo / "no-such-patch.json"
    t = cli("check", "--root", str(repo), "--patch", str(missing))
    assert t.code == 2
    assert "error [bad_request]" in t.err
    assert str(missing) in t.err


# --- no daemon ------------------------------------------------------------------------------


def test_daemon_status_without_a_daemon_exits_2(cli: Cli) -> None:
    t = cli("daemon", "status")
    assert t.code == 2
    assert "daemon_unavailable" in t.err


def test_daemon_status_json_without_a_daemon_exits_2(cli: Cli) -> None:
    t = cli("daemon", "status", "--json")
    assert t.code == 2
    assert "daemon_unavailable" in t.err
    assert t.out == ""


def test_daemon_stop_without_a_daemon_is_fine(cli: Cli) -> None:
    t = cli("daemon", "stop")
    assert t.code == 0
    assert "no daemon running" in t.out


def test_check_without_autostart_and_without_a_daemon_exits_2(cli: Cli, repo: Path) -> None:
    patch = repo / "patch.json"
    patch.write_text(json.dumps({"changes": [{"path": "b.py", "content": "y = 2\n"}]}))
    t = cli("check", "--no-autostart", "--root", str(repo), "--patch", str(patch))
    assert t.code == 2
    assert "daemon_unavailable" in t.err
    assert not cli.paths.status_file.exists()
    assert not cli.paths.socket.exists()
