"""``prewrite`` transcripts against a real daemon and the real pyright on a tiny repository.

Every daemon here runs in its own short runtime dir and is stopped in teardown (by ``daemon
stop``, then by its pid if it is still there).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import psutil
import pytest

from prewrite.changes import sha256_hex
from prewrite.protocol import CheckReply, StatusReply
from prewrite.runtime import RuntimePaths, read_status
from tests.cli.transcript import Cli, Transcript

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.e2e

A_PY = "def f() -> int:\n    return 1\n"
B_PY = "from a import f\n\nx: int = f()\n"


def steady_status(text: str) -> list[str]:
    """``status`` output but the uptime (its first line) and the memory figures (RSS moves)."""
    return [re.sub(r"\d+(\.\d+)? (MiB|GiB)", "N", line) for line in text.splitlines()[1:]]


def wait_gone(pid: int, timeout_s: float) -> bool:
    try:
        psutil.Process(pid).wait(timeout_s)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        return False
    return True


def make_cli(runtime_dir: Path) -> Cli:
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(runtime_dir))
    env.pop("PREWRITE_DAEMON_CMD", None)
    return Cli(RuntimePaths(runtime_dir), env, timeout_s=180.0)


def stop_for_sure(cli: Cli, pids: set[int]) -> None:
    """``daemon stop``, then make sure the daemons this test started are gone."""
    status = read_status(cli.paths)
    if status is not None:
        pids.add(status.pid)
    cli("daemon", "stop")
    for pid in pids:
        if not wait_gone(pid, 30.0):
            psutil.Process(pid).kill()


@pytest.fixture(scope="module")
def cli() -> Iterator[Cli]:
    """A daemon started with ``prewrite daemon start``, shared by the module's check tests."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        c = make_cli(Path(d) / "run")
        pids: set[int] = set()
        try:
            started = c("daemon", "start")
            assert started.code == 0, started.err
            assert "daemon started" in started.out
            status = read_status(c.paths)
            assert status is not None
            pids.add(status.pid)
            yield c
        finally:
            stop_for_sure(c, pids)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text(A_PY)
    (root / "b.py").write_text(B_PY)
    return root


def write_patch(repo: Path, a_content: str) -> Path:
    patch = repo.parent / "patch.json"
    base = sha256_hex((repo / "a.py").read_bytes())
    patch.write_text(
        json.dumps({"changes": [{"path": "a.py", "base_sha256": base, "content": a_content}]})
    )
    return patch


def check(cli: Cli, repo: Path, *args: str, stdin: str | None = None) -> Transcript:
    return cli("check", "--root", str(repo), "--python", sys.executable, *args, stdin=stdin)


RED = 'def f() -> str:\n    return "one"\n'
GREEN = "def f() -> int:\n    return 2\n"


def test_a_red_patch_exits_1_and_names_the_broken_importer(cli: Cli, repo: Path) -> None:
    t = check(cli, repo, "--patch", str(write_patch(repo, RED)))
    assert t.code == 1, t.err
    # b.py:3:10: error: Type "str" is not ... "int" [reportAssignmentType]\n    "str" is not ...
    assert re.match(r"b\.py:3:\d+: error: [^\n]+ \[reportAssignmentType\]\n {4}\S", t.out), t.out
    assert t.out.splitlines()[-1].startswith("prewrite: FAILED at typecheck: 1 new error(s)")
    assert (repo / "a.py").read_text() == A_PY  # checked, never written


def test_a_green_patch_exits_0(cli: Cli, repo: Path) -> None:
    t = check(cli, repo, "--patch", str(write_patch(repo, GREEN)))
    assert t.code == 0, t.err
    assert t.out.splitlines()[-1].startswith("prewrite: ok: 0 new error(s)")
    assert "prewrite: rungs: policy pass" in t.out
    assert (repo / "a.py").read_text() == A_PY


def test_json_output_for_a_patch_on_stdin(cli: Cli, repo: Path) -> None:
    patch = write_patch(repo, RED).read_text()
    t = check(cli, repo, "--patch", "-", "--json", stdin=patch)
    assert t.code == 1, t.err
    assert '"op"' not in t.out  # the reply's fields, not the wire frame
    reply = msgspec.json.decode(t.out, type=CheckReply)
    assert reply.ok is False
    assert [(d.path, d.line, d.rule) for d in reply.diagnostics] == [
        ("b.py", 3, "reportAssignmentType")
    ]
    assert set(reply.checked_files) == {"a.py", "b.py"}


def test_an_edit_without_a_base_is_anchored_to_the_disk_now(cli: Cli, repo: Path) -> None:
    """As MCP and the hook take it: no base_sha256 on an edit is the file as it is now."""
    edit = {"find": "return 1", "replace": "return 2"}
    patch = json.dumps({"changes": [{"path": "a.py", "edits": [edit]}]})
    t = check(cli, repo, "--patch", "-", stdin=patch)
    assert t.code == 0, t.err
    assert t.out.splitlines()[-1].startswith("prewrite: ok: 0 new error(s)")


def test_a_stale_base_exits_2(cli: Cli, repo: Path) -> None:
    patch = write_patch(repo, GREEN)
    (repo / "a.py").write_text(A_PY + "# edited meanwhile\n")
    t = check(cli, repo, "--patch", str(patch))
    assert t.code == 2
    assert "error [stale_base]" in t.err
    assert "a.py" in t.err


def test_daemon_lifecycle_from_the_command_line(repo: Path) -> None:
    """Auto-start on check, status (text and JSON), start while running, stop, status again."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        c = make_cli(Path(d) / "run")
        pids: set[int] = set()
        try:
            assert c("daemon", "status").code == 2

            assert check(c, repo, "--patch", str(write_patch(repo, GREEN))).code == 0
            status = read_status(c.paths)
            assert status is not None
            pids.add(status.pid)

            t = c("daemon", "status")
            assert t.code == 0, t.err
            assert f"daemon pid {status.pid}" in t.out
            assert str(repo.resolve()) in t.out
            alias = c("status")  # the top-level alias; its first line has the uptime
            assert steady_status(alias.out) == steady_status(t.out)

            t = c("daemon", "status", "--json")
            assert t.code == 0, t.err
            reply = msgspec.json.decode(t.out, type=StatusReply)
            assert reply.pid == status.pid
            assert [(w.root, w.checks) for w in reply.workspaces] == [(str(repo.resolve()), 1)]

            t = c("daemon", "start")
            assert t.code == 0, t.err
            assert f"already running (pid {status.pid})" in t.out

            t = c("daemon", "stop")
            assert (t.code, t.out.strip()) == (0, "prewrite: daemon stopped"), t.err
            assert not c.paths.status_file.exists()
            assert wait_gone(status.pid, 30.0)

            t = c("daemon", "status")
            assert t.code == 2
            assert "daemon_unavailable" in t.err
        finally:
            stop_for_sure(c, pids)


def test_start_then_stop_an_idle_daemon() -> None:
    """``stop`` is answered (exit 0) even when the daemon has nothing to shut down."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        c = make_cli(Path(d) / "run")
        pids: set[int] = set()
        try:
            assert c("daemon", "start").code == 0
            status = read_status(c.paths)
            assert status is not None
            pids.add(status.pid)
            t = c("daemon", "stop")
            assert (t.code, t.err) == (0, "")
            assert "daemon stopped" in t.out
            assert wait_gone(status.pid, 30.0)
        finally:
            stop_for_sure(c, pids)


def test_stopping_a_daemon_with_a_warm_checker_stops_the_checker(repo: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        c = make_cli(Path(d) / "run")
        pids: set[int] = set()
        try:
            assert check(c, repo, "--patch", str(write_patch(repo, GREEN))).code == 0
            t = c("daemon", "status", "--json")
            reply = msgspec.json.decode(t.out, type=StatusReply)
            pids.add(reply.pid)
            server_pids = [w.server_pid for w in reply.workspaces if w.server_pid is not None]
            assert len(server_pids) == 1
            began = time.monotonic()
            assert c("daemon", "stop").code == 0
            assert wait_gone(server_pids[0], 30.0)
            assert wait_gone(reply.pid, 30.0)
            assert time.monotonic() - began < 30.0
        finally:
            stop_for_sure(c, pids)


def test_an_idle_daemon_exits_after_its_idle_timeout(repo: Path) -> None:
    """``--idle-timeout``: after a check, the daemon and its checker go away by themselves."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        c = make_cli(Path(d) / "run")
        pids: set[int] = set()
        try:
            assert c("daemon", "start", "--idle-timeout", "2").code == 0
            assert check(c, repo, "--patch", str(write_patch(repo, GREEN))).code == 0
            reply = msgspec.json.decode(c("daemon", "status", "--json").out, type=StatusReply)
            pids.add(reply.pid)
            server_pid = reply.workspaces[0].server_pid
            assert server_pid is not None
            assert wait_gone(reply.pid, 60.0)
            assert wait_gone(server_pid, 10.0)
            assert read_status(c.paths) is None
            assert c("daemon", "status").code == 2
        finally:
            stop_for_sure(c, pids)
