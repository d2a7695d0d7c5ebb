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
from typing import TYPE_CHECKING, Any

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


def json_error(out: str) -> dict[str, Any]:
    """The one JSON object a failed ``--json`` command printed: its ``error``."""
    assert out.endswith("\n")
    assert out.count("\n") == 1, out
    obj = json.loads(out)
    assert list(obj) == ["error"]
    assert set(obj["error"]) == {"code", "message", "details"}
    return obj["error"]


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


def test_apply_help_gives_every_exit_code_and_what_it_did_to_the_disk(cli: Cli) -> None:
    t = cli("apply", "--help")
    assert t.code == 0
    flat = _flat(t.out)
    assert_mentions_exit_codes(t.out)
    assert re.search(r"\b3 written, then the tests .{0,40}failed", flat), flat
    assert "1 refused: the patch introduces an error; nothing written" in flat
    assert "--contents" in flat
    assert '{"error": {"code"' in flat


def test_a_usage_error_with_json_is_one_json_object(cli: Cli) -> None:
    t = cli("check", "--json", "--patch", "-")
    assert t.code == 2
    assert "usage:" in t.err
    assert "--root" in json_error(t.out)["message"]


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


def test_a_malformed_patch_with_json_is_one_json_object(cli: Cli, repo: Path) -> None:
    t = cli("check", "--json", "--root", str(repo), "--patch", "-", stdin="{not json")
    assert t.code == 2
    error = json_error(t.out)
    assert (error["code"], error["details"]) == ("bad_request", [])
    assert error["message"].startswith("invalid patch JSON")


def test_a_diff_that_is_no_diff_with_json_is_one_json_object(cli: Cli, repo: Path) -> None:
    t = cli("check", "--json", "--root", str(repo), "--diff", "-", stdin="not a diff\n")
    assert t.code == 2
    assert json_error(t.out)["code"] == "bad_request"


def test_a_rewrite_without_base_is_refused_by_the_client_as_mcp_refuses_it(
    cli: Cli, repo: Path
) -> None:
    """The one rule for an omitted base_sha256 (MCP's): a whole-file rewrite of an existing
    file needs it; refused before any daemon is asked (none runs here)."""
    patch = json.dumps({"changes": [{"path": "a.py", "content": "x = 2\n"}]})
    t = cli("apply", "--no-autostart", "--json", "--root", str(repo), "--patch", "-", stdin=patch)
    assert t.code == 2
    error = json_error(t.out)
    assert error["code"] == "bad_request"
    assert error["details"] == [{"message": "exists on disk; base_sha256 omitted", "path": "a.py"}]
    assert (repo / "a.py").read_text() == "x = 1\n"


def test_trusting_a_typescript_repository_names_its_tools(cli: Cli, tmp_path: Path) -> None:
    ts = tmp_path / "ts"
    ts.mkdir()
    (ts / "tsconfig.json").write_text("{}")
    env = dict(cli.env, PREWRITE_TRUST_FILE=str(tmp_path / "trusted"))
    t = Cli(cli.paths, env)("trust", str(ts))
    assert t.code == 0, t.err
    assert "typescript, prettier, eslint and biome" in t.out
    assert "interpreter" not in t.out
    assert "ruff" not in t.out


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
    assert json_error(t.out)["code"] == "daemon_unavailable"


@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["text", "json"])
def test_status_is_daemon_status_and_never_starts_one(cli: Cli, json_flag: tuple[str]) -> None:
    t = cli("status", *json_flag)
    assert t.code == 2
    assert "error [daemon_unavailable]" in t.err
    if json_flag:
        assert json_error(t.out)["code"] == "daemon_unavailable"
    assert not cli.paths.status_file.exists()


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


def test_check_json_without_a_daemon_is_one_json_object(cli: Cli, repo: Path) -> None:
    patch = json.dumps({"changes": [{"path": "a.py", "edits": [{"find": "1", "replace": "2"}]}]})
    t = cli("check", "--no-autostart", "--json", "--root", str(repo), "--patch", "-", stdin=patch)
    assert t.code == 2
    assert json_error(t.out)["code"] == "daemon_unavailable"
