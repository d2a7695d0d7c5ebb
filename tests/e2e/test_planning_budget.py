"""Planning runs off the event loop, within a budget: a planner lost in a large package neither
stalls other clients nor the verdict (which falls back to every importer and says so).

In-process on the real pyright: workspace A's planner spins (CPU-bound) until its deadline;
meanwhile workspace B is checked and the daemon's status is read, both answered while A is still
planning; then A's verdict arrives, judged on every importer, its receipt naming the fallback.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, new_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.session import Registry
from tests.support.fake_graphs import SpinningGraph
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

BUDGET_S = 8.0  # long enough that B's check ends first even on a loaded machine
PYPROJECT = '[project]\nname = "p"\nversion = "0"\n\n[tool.prewrite]\nlint = false\n'
FILES = {
    "pyproject.toml": PYPROJECT,
    "app/__init__.py": "",
    "app/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "app/main.py": "from app.core import add\n\nTOTAL: int = add(1, 2)\n",
}
BROKEN = "def add(a: str, b: str) -> str:\n    return a + b\n"


@pytest.fixture
async def registry(tmp_path: Path) -> AsyncIterator[Registry]:
    reg = Registry(tmp_path / "state", watch=False, planning_budget_s=BUDGET_S)
    try:
        yield reg
    finally:
        await reg.stop()


async def test_a_spinning_planner_blocks_no_other_client_and_falls_back(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        write(root, FILES)
        warm = CheckRequest(str(root), [new_file("app/w.py", "W = 1\n")], python_exe)
        assert (await registry.check(warm)).ok
    loop = asyncio.get_running_loop()
    spinning = asyncio.Event()
    ws_a = registry.entry(a, python_exe).workspace
    ws_a.graph = graph = SpinningGraph(ws_a.graph, lambda: loop.call_soon_threadsafe(spinning.set))

    check_a = asyncio.create_task(
        registry.check(CheckRequest(str(a), [change_file(a, "app/core.py", BROKEN)], python_exe))
    )
    async with asyncio.timeout(60):
        await spinning.wait()
    reply_b = await registry.check(
        CheckRequest(str(b), [change_file(b, "app/core.py", BROKEN)], python_exe)
    )
    statuses = {s.root: s for s in registry.statuses()}
    assert not check_a.done()  # B was judged, and the status read, while A was still planning
    assert not reply_b.ok
    assert reply_b.checked_files == ["app/core.py", "app/main.py"]
    assert statuses[str(b.resolve())].checks == 2
    assert statuses[str(a.resolve())].busy

    reply_a = await check_a
    assert graph.narrowed == 1
    fallback = [line for line in reply_a.verified if "narrowing stopped after" in line]
    assert len(fallback) == 1
    assert fallback[0].endswith("ms: every importer checked")
    assert reply_a.checked_files == ["app/core.py", "app/main.py"]
    assert not reply_a.ok  # the fallback is sound: the importer's new error is found
    assert {d.path for d in reply_a.diagnostics} == {"app/main.py"}
    assert ws_a.rechecks.first() is None  # a plan that fell back pruned nothing
