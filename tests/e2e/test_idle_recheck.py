"""A narrowing miss is never silent: the idle re-check, on the real pyright, in-process.

A deliberately unsound planner (``PruningGraph``: every importer pruned) gives a wrong green; when
the workspace is idle, the pruned importers are compared under the base and the candidate texts,
the miss is recorded (``stats``), narrowing goes off for the workspace, and the next reply about
it carries the late finding, once. Also after ``apply`` wrote the patch (the overlays go
backwards then), and a request arriving mid re-check is answered without waiting for it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, new_file
from prewrite.protocol import ApplyRequest, CheckRequest
from prewrite_daemon.recheck.idle import MAX_TIMEOUTS
from prewrite_daemon.session import Registry
from tests.support.fake_graphs import PruningGraph
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from prewrite.protocol import CheckReply, FileChange
    from prewrite_daemon.entry import Entry

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

PYPROJECT = '[project]\nname = "r"\nversion = "0"\n\n[tool.prewrite]\nlint = false\n'
CORE = "def add(a: int, b: int) -> int:\n    return a + b\n"
BROKEN = "def add(a: str, b: str) -> str:\n    return a + b\n"
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


async def warm_unsound(
    registry: Registry, root: Path, python: str, files: dict[str, str] = FILES
) -> tuple[Entry, PruningGraph]:
    """A warm workspace whose planner prunes every importer; its re-checks start at once."""
    write(root, files)
    await check(registry, root, python, [new_file("app/warm.py", "W = 1\n")])
    entry = registry.entry(root, python)
    entry.rechecker.settle_s = 0.0
    entry.workspace.graph = graph = PruningGraph(entry.workspace.graph)
    return entry, graph


async def check(
    registry: Registry, root: Path, python: str, changes: list[FileChange]
) -> CheckReply:
    return await registry.check(CheckRequest(str(root), changes, python, rungs=["typecheck"]))


async def wait_completed(entry: Entry, count: int) -> None:
    async with asyncio.timeout(WAIT_S):
        await entry.rechecker.wait_until(lambda s: s.completed >= count)


async def test_a_wrong_green_is_found_at_idle_recorded_and_told_once(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    entry, graph = await warm_unsound(registry, root, python_exe)
    patch = [change_file(root, "app/core.py", BROKEN)]

    wrong = await check(registry, root, python_exe, patch)
    assert wrong.ok
    assert graph.narrowed == 1
    assert wrong.late_findings == []
    await wait_completed(entry, 1)

    stats = entry.rechecker.statistics()
    assert (stats.misses, stats.queued, stats.dropped) == (1, 0, 0)
    assert entry.workspace.narrowing is False
    recorded = registry.stats(str(root)).narrowing_misses
    assert [m.files for m in recorded] == [["app/core.py"]]
    assert {d.path for d in recorded[0].diagnostics} == {"app/main.py"}
    assert any(d.severity == "error" for d in recorded[0].diagnostics)

    told = await check(registry, root, python_exe, [new_file("app/other.py", "O = 2\n")])
    assert told.ok
    assert len(told.late_findings) == 1
    late = told.late_findings[0]
    assert late.files == ["app/core.py"]
    assert late.root == str(root.resolve())
    assert {d.path for d in late.diagnostics} == {"app/main.py"}

    again = await check(registry, root, python_exe, patch)
    assert again.late_findings == []  # told once
    assert not again.ok  # narrowing is off: every importer compared
    assert graph.narrowed == 1
    assert any("narrowing is off" in line for line in again.verified)


async def test_a_written_patch_is_compared_backwards(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    entry, _graph = await warm_unsound(registry, root, python_exe)
    patch = [change_file(root, "app/core.py", BROKEN)]

    with entry.in_use():  # as an attached editor holds it: a user, but idle between requests
        reply = await registry.apply(
            ApplyRequest(str(root), patch, python_exe, rungs=["typecheck"])
        )
        assert reply.check.ok
        assert [f.path for f in reply.written] == ["app/core.py"]
        assert (root / "app" / "core.py").read_text() == BROKEN
        await wait_completed(entry, 1)

    assert entry.rechecker.statistics().misses == 1
    told = await check(registry, root, python_exe, [new_file("app/other.py", "O = 2\n")])
    assert [late.files for late in told.late_findings] == [["app/core.py"]]
    # Now part of the base: a check of anything else no longer reports it.
    assert told.ok
    assert told.diagnostics == []


async def test_a_green_is_forgotten_when_other_files_move(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    entry, _graph = await warm_unsound(registry, root, python_exe)
    with entry.serving():  # a request under way: not idle yet, the re-check waits
        wrong = await check(registry, root, python_exe, [change_file(root, "app/core.py", BROKEN)])
        assert wrong.ok
        assert entry.rechecker.statistics().queued == 1
        (root / "app" / "extra.py").write_text("E = 1\n")
    await wait_completed(entry, 1)

    stats = entry.rechecker.statistics()
    assert (stats.misses, stats.dropped, stats.queued) == (0, 1, 0)
    assert entry.workspace.narrowing is True
    assert registry.stats(str(root)).narrowing_misses == []


async def test_a_request_during_the_recheck_preempts_it_and_it_resumes_later(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    importers = {
        f"app/m{i}.py": f"from app.core import add\n\nX{i}: int = add({i}, 1)\n" for i in range(60)
    }
    entry, _graph = await warm_unsound(registry, root, python_exe, {**FILES, **importers})
    wrong = await check(registry, root, python_exe, [change_file(root, "app/core.py", BROKEN)])
    assert wrong.ok
    async with asyncio.timeout(WAIT_S):
        await entry.rechecker.wait_until(lambda s: s.started >= 1)

    other = await check(registry, root, python_exe, [new_file("app/other.py", "O = 2\n")])
    stats = entry.rechecker.statistics()
    assert other.ok
    assert other.late_findings == []
    assert (stats.preempted, stats.completed) == (1, 0)  # answered without waiting for it

    await wait_completed(entry, 1)
    stats = entry.rechecker.statistics()
    assert (stats.started, stats.misses) == (2, 1)
    told = await check(registry, root, python_exe, [new_file("app/other.py", "O = 3\n")])
    (late,) = told.late_findings
    assert {d.path for d in late.diagnostics} == {"app/main.py", *importers}


async def test_a_recheck_that_never_finishes_in_time_is_given_up(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    entry, _graph = await warm_unsound(registry, root, python_exe)
    entry.rechecker.timeout_s = 0.0  # every attempt runs out at once
    wrong = await check(registry, root, python_exe, [change_file(root, "app/core.py", BROKEN)])
    assert wrong.ok
    await wait_completed(entry, 1)

    stats = entry.rechecker.statistics()
    assert (stats.started, stats.dropped, stats.misses) == (MAX_TIMEOUTS, 1, 0)
    assert entry.workspace.narrowing is True
