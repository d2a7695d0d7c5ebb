"""The first check of a workspace, on the real pyright, in-process: nothing it does not need.

A body-only edit is judged before the workspace's graph is built (the graph builds once the
check has answered) and its green still reaches the idle re-check, with every importer as what
it pruned; the graph built later holds what changed on disk meanwhile. The checker can be warmed
up while the ladder's cheap rungs run, and the check then uses it. The daemon's registry starts
a check's watchers only once told the reply is out.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.session import Registry
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from prewrite.protocol import CheckReply, FileChange

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

PYPROJECT = '[project]\nname = "r"\nversion = "0"\n\n[tool.prewrite]\nlint = false\n'
CORE = "def add(a: int, b: int) -> int:\n    return a + b\n"
BODY = "def add(a: int, b: int) -> int:\n    return b + a\n"
MAIN = "from app.core import add\n\nTOTAL: int = add(1, 2)\n"
FILES = {
    "pyproject.toml": PYPROJECT,
    "app/__init__.py": "",
    "app/core.py": CORE,
    "app/main.py": MAIN,
}
WAIT_S = 60.0


@pytest.fixture
async def registry(tmp_path: Path) -> AsyncIterator[Registry]:
    reg = Registry(tmp_path / "state", watch=False)
    try:
        yield reg
    finally:
        await reg.stop()


async def check(
    registry: Registry, root: Path, python: str, changes: list[FileChange]
) -> CheckReply:
    return await registry.check(CheckRequest(str(root), changes, python, rungs=["typecheck"]))


async def test_a_body_edit_is_judged_first_and_its_green_rechecked_once_the_graph_is_built(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    write(root, FILES)
    reply = await check(registry, root, python_exe, [change_file(root, "app/core.py", BODY)])
    assert reply.ok, reply.diagnostics
    assert reply.checked_files == ["app/core.py"]
    entry = registry.entry(root.resolve(), python_exe)
    entry.rechecker.settle_s = 0.0
    await entry.workspace.ready_graph()  # building since the reply
    async with asyncio.timeout(WAIT_S):
        await entry.rechecker.wait_until(lambda s: s.completed >= 1)
    stats = entry.rechecker.statistics()
    assert (stats.completed, stats.misses, stats.dropped) == (1, 0, 0)


async def test_the_graph_built_after_the_first_answer_sees_later_files(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    write(root, FILES)
    assert (await check(registry, root, python_exe, [change_file(root, "app/core.py", BODY)])).ok
    write(root, {"app/late.py": "from app.core import add\n\nLATE: int = add(3, 4)\n"})
    renamed = CORE.replace("def add", "def plus")
    reply = await check(registry, root, python_exe, [change_file(root, "app/core.py", renamed)])
    assert set(reply.checked_files) == {"app/core.py", "app/main.py", "app/late.py"}
    assert {d.path for d in reply.diagnostics} == {"app/main.py", "app/late.py"}


async def test_a_warmed_up_checker_is_the_one_the_check_uses(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    write(root, FILES)
    entry = registry.entry(root.resolve(), python_exe)
    warming = entry.warm_up(WAIT_S)
    assert warming is not None
    assert entry.warm_up(WAIT_S) is None  # one at a time
    await warming
    ws = entry.workspace
    assert ws.checker_running()
    assert entry.warm_up(WAIT_S) is None  # running already
    pid = ws.backend.pid if ws.backend else None
    assert (await check(registry, root, python_exe, [change_file(root, "app/core.py", BODY)])).ok
    assert ws.backend is not None
    assert (ws.backend.pid, ws.restarts) == (pid, 0)


async def test_the_daemon_starts_a_checks_watchers_once_its_reply_is_out(
    tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    write(root, FILES)
    reg = Registry(tmp_path / "state", watch_after_reply=True)
    try:
        assert (await check(reg, root, python_exe, [change_file(root, "app/core.py", BODY)])).ok
        assert reg.watcher(root.resolve(), python_exe) is None
        reg.start_watchers()  # the daemon calls it after sending the reply
        watcher = reg.watcher(root.resolve(), python_exe)
        assert watcher is not None
        async with asyncio.timeout(WAIT_S):
            await watcher.ready.wait()
    finally:
        await reg.stop()
