"""Bounds that hold, against the real pyright: a stopped checker cannot hold clients past their
deadline, a 73 MB file's apply is answered, a path through a linked directory is checked against
the real file, and a deleted or moved root releases its checker at once.

Stopped checkers are SIGSTOPped process groups, always continued in ``finally``.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file
from prewrite.errors import CheckTimeout, InvalidWorkspace, PrewriteError, UnreadableFile
from prewrite.files import SOURCE_LIMIT
from prewrite.protocol import CheckRequest, Edit, FileChange
from prewrite_daemon.session import Registry
from tests.e2e.repo_fixture import write_repo
from tests.faults.harness import is_gone

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.runtime import RuntimePaths

pytestmark = pytest.mark.e2e

MARGIN_S = 2.0  # what a reply may take past the request's deadline on a loaded 2-core machine
BODY = "def helper(x: int) -> int:\n    return x * 3\n"


def server_pid(client: Client, root: Path) -> int:
    pids = [w.server_pid for w in client.status().workspaces if w.root == str(root)]
    assert pids
    assert pids[0] is not None
    return pids[0]


def test_clients_of_a_stopped_checker_are_answered_within_their_deadline(
    daemon: RuntimePaths, tmp_path: Path, python_exe: str
) -> None:
    """Issue 9, scenario 7: with pyright stopped, 8 of 10 clients were answered after 30 s."""
    root = write_repo(tmp_path / "stopped").resolve()
    patch = [change_file(root, "pkg/util.py", BODY)]
    with Client(paths=daemon, autostart=False) as warm:
        assert warm.check(root, patch, python=python_exe, timeout_s=120).ok
        pid = server_pid(warm, root)

    def one_check(_: int) -> tuple[str, float]:
        started = time.monotonic()
        try:
            with Client(paths=daemon, autostart=False) as client:
                client.check(root, patch, python=python_exe, timeout_s=3.0)
        except PrewriteError as exc:
            return exc.code, time.monotonic() - started
        return "answered", time.monotonic() - started

    os.killpg(pid, signal.SIGSTOP)
    try:
        with ThreadPoolExecutor(4) as pool:
            outcomes = list(pool.map(one_check, range(4)))
    finally:
        os.killpg(pid, signal.SIGCONT)
    assert [code for code, _ in outcomes] == [CheckTimeout.code] * 4
    assert max(elapsed for _, elapsed in outcomes) < 3.0 + MARGIN_S, outcomes
    with Client(paths=daemon, autostart=False) as after:  # continued: it checks again
        assert after.check(root, patch, python=python_exe, timeout_s=120).ok


def test_a_small_edit_to_a_73_mb_json_file_is_applied_and_answered(
    client: Client, tmp_path: Path, python_exe: str
) -> None:
    """Issue 9, scenario 8: the reply carried the whole candidate, over the 64 MiB frame
    limit: a traceback and a dropped connection, and the file written anyway."""
    root = tmp_path / "big"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        "[tool.prewrite]\nformat = false\nlint = false\ntypecheck = false\ntests = false\n"
    )
    data = root / "data.json"
    try:
        with data.open("w") as f:
            f.write('{"pad": "')
            f.write("x" * 73_000_000)
            f.write('", "flag": false}\n')
        base = hashlib.sha256(data.read_bytes()).hexdigest()
        edit = FileChange("data.json", base, edits=[Edit('"flag": false', '"flag": true')])
        reply = client.apply(root, [edit], python=python_exe, timeout_s=120)
        assert reply.ok, reply.check
        with data.open("rb") as f:
            f.seek(-20, os.SEEK_END)
            assert f.read().endswith(b'"flag": true}\n')
        [candidate] = reply.check.files
        assert (candidate.content, candidate.content_omitted) == (None, True)
        assert candidate.sha256 == hashlib.sha256(data.read_bytes()).hexdigest()
        assert [w.path for w in reply.written] == ["data.json"]
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_an_edit_of_a_file_over_the_source_limit_is_refused_unread(
    client: Client, tmp_path: Path, python_exe: str
) -> None:
    """Issue 20, item 8: an ``Edit`` of a 150 MB file got the daemon killed at 21 GB. The limit
    is checked on the file's size before a byte is read (the file here is sparse: nothing is
    written to disk), and the file is left as it was."""
    root = tmp_path / "huge"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.prewrite]\ntypecheck = false\ntests = false\n")
    data = root / "data.json"
    with data.open("wb") as f:
        f.truncate(SOURCE_LIMIT + 1)
    edit = FileChange("data.json", "0" * 64, edits=[Edit("x", "y")])
    with pytest.raises(UnreadableFile, match="over the limit"):
        client.apply(root, [edit], python=python_exe, timeout_s=30)
    assert data.stat().st_size == SOURCE_LIMIT + 1
    assert client.status().pid > 0  # the daemon is up and answering


def test_a_patch_through_a_linked_directory_is_judged_and_written_as_the_real_file(
    client: Client, tmp_path: Path, python_exe: str
) -> None:
    """Issue 9, scenario 4: a path through ``lib -> pkg`` got a persistent stale_base."""
    root = write_repo(tmp_path / "linked").resolve()
    (root / "lib").symlink_to("pkg", target_is_directory=True)
    green = client.check(root, [change_file(root, "lib/util.py", BODY)], python=python_exe)
    assert green.ok, green
    assert [f.path for f in green.files] == ["pkg/util.py"]
    breaking = "def make_user(name: str) -> User:\n    return User(name, 0)\n"
    models = (root / "pkg" / "models.py").read_text()
    models = models.replace(
        "def make_user(name: str, age: int) -> User:\n    return User(name, age)\n", breaking
    )
    red = client.check(root, [change_file(root, "lib/models.py", models)], python=python_exe)
    assert not red.ok
    assert {d.path for d in red.diagnostics} == {"pkg/service.py"}
    applied = client.apply(root, [change_file(root, "lib/util.py", BODY)], python=python_exe)
    assert applied.ok, applied
    assert [w.path for w in applied.written] == ["pkg/util.py"]
    assert (root / "lib").is_symlink()
    assert (root / "pkg" / "util.py").read_text() == BODY


@pytest.mark.parametrize("how", ["deleted", "moved"])
async def test_a_gone_root_releases_its_checker_and_watcher_at_once(
    tmp_path: Path, python_exe: str, how: str
) -> None:
    registry = Registry(tmp_path / "state")
    root = write_repo(tmp_path / "gone").resolve()
    request = CheckRequest(str(root), [change_file(root, "pkg/util.py", BODY)], python_exe)
    try:
        assert (await registry.check(request)).ok
        watcher = registry.watcher(root, python_exe)
        assert watcher is not None
        [status] = registry.statuses()
        assert status.server_pid is not None
        async with asyncio.timeout(30):
            await watcher.ready.wait()
        if how == "deleted":
            shutil.rmtree(root)
        else:
            root.rename(tmp_path / "elsewhere")
        async with asyncio.timeout(10):
            await watcher.root_gone.wait()
        assert is_gone(status.server_pid)
        assert registry.statuses() == []
        assert registry.watcher(root, python_exe) is None
        with pytest.raises(InvalidWorkspace):
            await registry.check(request)
    finally:
        await registry.stop()
