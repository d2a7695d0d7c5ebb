"""Fairness: an editor is answered while an agent check holds the warm checker.

The warm pyright is SIGSTOPped under an agent's check, so the check certainly holds the checker
for as long as the test needs (no timing guesses). The editor's hover, diagnostics and
definition must still come back, from the spare checker over the real root: the agent's
candidate (a new module in the shadow) is invisible to them. Once the agent is done and nobody
uses the spare for its idle time, it stops. A private daemon runs with a short spare idle time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest
from lsprotocol import types

from prewrite import Client, change_file, new_file
from prewrite.errors import PrewriteError
from prewrite.runtime import RuntimePaths
from tests.support.lsp_editor import WAIT_S, Editor, codes

if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterator

    from prewrite.protocol import WorkspaceStatus

pytestmark = pytest.mark.e2e

CALC = "def add(a: int, b: int) -> int:\n    return a + b\n"
USE = "from pkg.calc import add\n\nx: int = add(1, 2)\n"
SPARE_IDLE_S = 2.0
POLL_S = 0.05


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = (tmp_path / "repo").resolve()
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "calc.py").write_text(CALC)
    (root / "pkg" / "use.py").write_text(USE)
    return root


@pytest.fixture
def private_daemon() -> Iterator[tuple[RuntimePaths, dict[str, str]]]:
    runtime = Path(tempfile.mkdtemp(prefix="pw-sp-", dir="/tmp"))  # short: a socket path
    env = dict(
        os.environ, PREWRITE_RUNTIME_DIR=str(runtime), PREWRITE_SPARE_IDLE_S=str(SPARE_IDLE_S)
    )
    paths = RuntimePaths(runtime)
    try:
        yield paths, env
    finally:
        with contextlib.suppress(PrewriteError), Client(paths=paths, autostart=False) as c:
            c.stop()
        shutil.rmtree(runtime, ignore_errors=True)


@contextlib.contextmanager
def stopped_group(pid: int) -> Generator[None]:
    """The checker's process group SIGSTOPped for the block, continued whatever happens."""
    os.killpg(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.killpg(pid, signal.SIGCONT)


async def status_until(
    paths: RuntimePaths, wanted: Callable[[WorkspaceStatus], bool]
) -> WorkspaceStatus:
    """Poll the daemon's status until one workspace satisfies ``wanted`` (within WAIT_S)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        with Client(paths=paths, autostart=False) as c:
            found = [w for w in c.status().workspaces if wanted(w)]
        if found:
            return found[0]
        assert time.monotonic() < deadline, "the daemon never reached the state waited for"
        await asyncio.sleep(POLL_S)


def hover_at(ed: Editor, rel: str, line: int, character: int) -> types.HoverParams:
    return types.HoverParams(
        types.TextDocumentIdentifier(ed.uri(rel)), types.Position(line, character)
    )


async def test_an_editor_is_served_by_the_spare_while_an_agent_holds_the_checker(
    private_daemon: tuple[RuntimePaths, dict[str, str]], repo: Path
) -> None:
    paths, env = private_daemon
    ed = Editor(repo)
    await ed.start(env)
    try:
        ed.open("pkg/use.py")
        assert codes(await ed.diagnostics("pkg/use.py", 1)) == []
        warm = await status_until(paths, lambda w: w.server_pid is not None)
        assert warm.server_pid is not None
        assert warm.spare_pid is None
        # The agent's candidate: a new module (materialised in the shadow) and a red calc.py.
        patch = [
            new_file("pkg/agent_new.py", "VALUE: int = 1\n"),
            change_file(repo, "pkg/calc.py", CALC.replace("-> int", "-> str")),
        ]
        with Client(paths=paths, autostart=False) as agent:
            with stopped_group(warm.server_pid):
                check = asyncio.ensure_future(
                    asyncio.to_thread(agent.check, repo, patch, timeout_s=WAIT_S * 2)
                )
                await status_until(paths, lambda w: w.busy)
                hover = await asyncio.wait_for(
                    ed.client.text_document_hover_async(hover_at(ed, "pkg/use.py", 2, 10)),
                    WAIT_S,
                )
                assert hover is not None
                assert "def add" in str(hover.contents)
                assert "-> int" in str(hover.contents)  # the disk's add, not the agent's
                # The editor's buffer imports the agent's new module: it is not on disk.
                ed.edit("pkg/use.py", USE + "from pkg.agent_new import VALUE\ny: str = 1\n")
                published = await ed.diagnostics("pkg/use.py", 2)
                assert codes(published) == [
                    (3, "reportMissingImports"),
                    (4, "reportAssignmentType"),
                ]
                during = await status_until(paths, lambda w: w.spare_pid is not None)
                assert during.spare_served >= 2
                assert during.busy
                assert not check.done()  # the agent still holds the warm checker
            reply = await asyncio.wait_for(check, WAIT_S * 2)
        assert not reply.ok  # the agent's verdict is its own: calc.add now returns str
        spare_pid = during.spare_pid
        assert spare_pid is not None
        assert spare_pid != warm.server_pid
        await status_until(paths, lambda w: w.spare_pid is None and not w.busy)
        # The spare's stop is staged (shutdown, exit, terminate): it may outlive the status.
        assert await asyncio.to_thread(exits_within, spare_pid, WAIT_S)
        # Uncontended again: the warm checker answers, and sees the editor's buffer.
        hover = await ed.client.text_document_hover_async(hover_at(ed, "pkg/use.py", 4, 0))
        assert hover is not None
        assert "y" in str(hover.contents)
        await ed.stop()
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ed.client.stop(), WAIT_S)


def exits_within(pid: int, timeout_s: float) -> bool:
    """Whether ``pid`` exits (or is left a zombie for the daemon to reap) within ``timeout_s``."""
    try:
        psutil.Process(pid).wait(timeout_s)
    except psutil.TimeoutExpired:
        return _is_zombie(pid)
    except psutil.NoSuchProcess:
        pass
    return True


def _is_zombie(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
