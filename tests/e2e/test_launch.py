"""The daemon as users start it (the client's detached launch), its ready pyright spawned before
the daemon's own code loaded (``launch``, ``backends.spawned_ahead``).

The first check must be judged by that very process, bound to the workspace's shadow, and say
what a cold ``pyright`` run on the patched tree says.
"""

from __future__ import annotations

import re
import shutil
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.client import Client
from prewrite.daemon_start import spawn_daemon
from prewrite.runtime import RuntimePaths
from tests.support.oracle import oracle_introduced, surplus
from tests.support.setups import write

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

FILES = {
    "app/__init__.py": "",
    "app/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "app/main.py": "from app.core import add\n\nTOTAL: int = add(1, 2)\n",
}
PATCH = {"app/core.py": "def add(a: str, b: int) -> int:\n    return len(a) + b\n"}


def test_the_first_check_is_judged_by_the_pyright_spawned_ahead(
    tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    write(root, FILES)
    paths = RuntimePaths(tmp_path / "run")
    spawn_daemon(paths, ["--idle-timeout", "120"])
    client = Client(paths=paths, start_timeout_s=60.0)
    try:
        changes = [change_file(root, rel, text) for rel, text in PATCH.items()]
        reply = client.check(root, changes, python=python_exe, rungs=["typecheck"])
        server_pids = [ws.server_pid for ws in client.status().workspaces]
    finally:
        client.stop()
        client.close()
    log = paths.log_file.read_text()
    adopted = re.search(r"adopted the process spawned ahead \(pid (\d+)\)", log)
    assert adopted, log
    assert server_pids == [int(adopted.group(1))]
    assert f"language server pid {adopted.group(1)} bound to" in log
    patched = tmp_path / "patched"
    shutil.copytree(root, patched)
    write(patched, PATCH)
    cold = oracle_introduced(root, patched, python_exe)
    assert {d.rule for d in reply.diagnostics} == {"reportArgumentType"}
    assert surplus(reply.diagnostics, cold) == []
    assert surplus(cold, reply.diagnostics) == []
