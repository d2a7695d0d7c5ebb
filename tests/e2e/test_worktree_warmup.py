"""A new git worktree of a warm repository is warmed up as it appears, on the real pyright.

The registry watches the warm workspace; ``git worktree add`` makes a worktree that no request
has named yet: its checker starts, its graph is built and its bases are primed into its base
cache before the first check. Priming decides only when work is done, never a verdict, so each
check in the worktree is compared with the cold oracle (pyright on the worktree's tree, then on
the patched copy): right after priming (the primed bases are what the diff subtracts: the
importers hold errors of their own), and after the worktree's files moved on disk behind the
primer's back (the cache it filled must not survive that).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.recheck import prime
from prewrite_daemon.session import Registry
from tests.support.git_diffs import git, write_tree
from tests.support.oracle import normalize_paths, oracle_introduced, surplus, write_patched_copy

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from prewrite.protocol import CheckReply, FileChange
    from prewrite_daemon.entry import Entry

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

PYPROJECT = '[project]\nname = "r"\nversion = "0"\n\n[tool.prewrite]\nlint = false\n'
CORE = "def add(a: int, b: int) -> int:\n    return a + b\n"
# Each importer holds an error of its own: a base the diff must subtract.
MAIN = "from app.core import add\n\nTOTAL: int = add(1, 2)\nWRONG: str = 1\n"
OTHER = "from app.core import add\n\nX: int = add(3, 4)\nY: int = 'y'\n"
FILES = {
    "pyproject.toml": PYPROJECT,
    "app/__init__.py": "",
    "app/core.py": CORE,
    "app/main.py": MAIN,
    "app/other.py": OTHER,
}
SOURCES = {"app/__init__.py", "app/core.py", "app/main.py", "app/other.py"}
WAIT_S = 120.0


@pytest.fixture
async def registry(tmp_path: Path) -> AsyncIterator[Registry]:
    reg = Registry(tmp_path / "state", worktree_warmup=True)
    try:
        yield reg
    finally:
        await reg.stop()


async def _check(
    registry: Registry, root: Path, python: str, changes: list[FileChange]
) -> CheckReply:
    request = CheckRequest(str(root), changes, python, rungs=["typecheck"], timeout_s=WAIT_S)
    return await registry.check(request)


async def _warm_repository(
    registry: Registry, top: Path, python: str, files: dict[str, str] = FILES
) -> None:
    """A git repository at ``top``, warm (one check) and watched (its first look is done)."""
    await _committed_and_checked(registry, top, python, files)
    source = registry.entry(top, python)
    assert source.watcher is not None
    async with asyncio.timeout(WAIT_S):
        await source.watcher.ready.wait()  # the scout's first look sees no worktree yet


async def _committed_and_checked(
    registry: Registry, top: Path, python: str, files: dict[str, str]
) -> None:
    """``files`` committed in a new git repository at ``top``, then one check there."""
    write_tree(top, files)
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "base")
    await _check(registry, top, python, [change_file(top, "app/core.py", CORE + "Z = 1\n")])


async def _new_worktree(registry: Registry, top: Path, worktree: Path) -> Entry:
    git(top, "worktree", "add", "-q", str(worktree))
    async with asyncio.timeout(WAIT_S):
        return await registry.worktrees.wait_warmed(worktree)


def _disagreement(
    reply: CheckReply, root: Path, changes: list[FileChange], python: str, scratch: Path
) -> list[str]:
    base = write_patched_copy(root, (), scratch / "base")
    patched = write_patched_copy(root, changes, scratch / "patched")
    cold = oracle_introduced(base, patched, python)
    ours = normalize_paths(reply.diagnostics, root)
    assert cold, "the patch must introduce something, or agreeing proves little"
    return [f"only daemon: {d}" for d in surplus(ours, cold)] + [
        f"only cold: {d}" for d in surplus(cold, ours)
    ]


async def test_a_new_worktree_is_warm_before_its_first_check_and_judged_as_cold(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    top, worktree = tmp_path / "repo", (tmp_path / "wt").resolve()
    await _warm_repository(registry, top, python_exe)
    entry = await _new_worktree(registry, top, worktree)
    async with asyncio.timeout(WAIT_S):
        await entry.primer.wait_until(lambda s: s.finished)
    primed = entry.primer.statistics()
    assert (primed.primed, primed.given_up) == (len(SOURCES), "")
    assert set(entry.workspace.base_cache) == SOURCES
    assert entry.workspace.checker_running()
    assert entry.watcher is not None
    assert registry.all_entries()[0] is entry  # unused yet: the first to go past the limit
    assert registry.entry(worktree, python_exe) is entry  # what the agent's request gets

    breaking = [change_file(worktree, "app/core.py", CORE.replace("b: int", "b: str"))]
    reply = await _check(registry, worktree, python_exe, breaking)
    assert not reply.ok
    assert _disagreement(reply, worktree, breaking, python_exe, tmp_path / "first") == []

    # The worktree moves on disk behind the primer's back: its primed bases must go. With
    # `add` returning str, other.py's base holds an error at X the primed one did not, which a
    # stale base would report as introduced beside Z's.
    (worktree / "app" / "core.py").write_text(CORE.replace("-> int", "-> str"))
    moved = [change_file(worktree, "app/other.py", OTHER + "Z: int = add(1, 2)\n")]
    reply = await _check(registry, worktree, python_exe, moved)
    assert _disagreement(reply, worktree, moved, python_exe, tmp_path / "moved") == []


async def test_no_worktree_is_warmed_up_beyond_the_warm_limit(
    tmp_path: Path, python_exe: str
) -> None:
    registry = Registry(tmp_path / "state", max_warm=1, worktree_warmup=True)
    try:
        top = tmp_path / "repo"
        await _committed_and_checked(registry, top, python_exe, FILES)
        source = registry.entry(top, python_exe)
        registry.worktrees.look(source)  # as the watcher's tick does (the first look)
        git(top, "worktree", "add", "-q", str(tmp_path / "wt"))
        registry.worktrees.look(source)  # it sees the worktree, and leaves it alone
        assert registry.worktrees.warmed == {}
        assert [e.workspace.root for e in registry.all_entries()] == [top]
    finally:
        await registry.stop()


async def test_a_check_during_priming_is_judged_as_cold_and_priming_then_ends(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    top, worktree = tmp_path / "repo", (tmp_path / "wt").resolve()
    await _warm_repository(registry, top, python_exe)
    entry = await _new_worktree(registry, top, worktree)
    # At once: the checker may still be starting, or the primer mid-chunk (then preempted).
    breaking = [change_file(worktree, "app/core.py", CORE.replace("-> int", "-> str"))]
    reply = await _check(registry, worktree, python_exe, breaking)
    assert _disagreement(reply, worktree, breaking, python_exe, tmp_path / "during") == []
    async with asyncio.timeout(WAIT_S):
        await entry.primer.wait_until(lambda s: s.finished)
    assert entry.primer.statistics().given_up == ""
    assert set(entry.workspace.base_cache) == SOURCES


async def test_a_request_preempts_priming_at_once_and_priming_resumes(
    registry: Registry, tmp_path: Path, python_exe: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prime, "CHUNK", 1000)  # one long chunk: the request meets it under way
    importers = {
        f"app/m{i}.py": f"from app.core import add\n\nX{i}: int = add({i}, 1)\n" for i in range(60)
    }
    top, worktree = tmp_path / "repo", (tmp_path / "wt").resolve()
    await _warm_repository(registry, top, python_exe, {**FILES, **importers})
    entry = await _new_worktree(registry, top, worktree)
    async with asyncio.timeout(WAIT_S):
        await entry.primer.wait_until(lambda s: s.started >= 1)

    change = [change_file(worktree, "app/main.py", MAIN + "V: int = 'v'\n")]
    reply = await _check(registry, worktree, python_exe, change)
    stats = entry.primer.statistics()
    assert not reply.ok
    assert (stats.preempted, stats.finished) == (1, False)  # answered without waiting for it
    assert _disagreement(reply, worktree, change, python_exe, tmp_path / "preempted") == []

    async with asyncio.timeout(WAIT_S):
        await entry.primer.wait_until(lambda s: s.finished)
    stats = entry.primer.statistics()
    assert (stats.started, stats.given_up) == (2, "")
    assert len(entry.workspace.base_cache) == len(SOURCES) + len(importers)
