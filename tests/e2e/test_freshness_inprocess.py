"""Freshness inside the daemon: changes injected between admission and answer, the watcher.

These drive the daemon's registry in-process (same code, no socket) so a test hook can move the
environment at the worst moment; the checker is the real pyright.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, new_file
from prewrite.errors import StaleEnvironment
from prewrite.protocol import CheckRequest
from prewrite_daemon.session import Registry
from tests.e2e.freshness_repo import (
    FILES,
    PYPROJECT,
    STRICT,
    assert_matches_oracle,
    install_libx,
    make_workspace,
    write_files,
)
from tests.support.oracle import surplus
from tests.support.setups import TYPECHECK_ONLY, make_venv, venv_python, whole_setup_oracle, write

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable
    from pathlib import Path

pytestmark = pytest.mark.e2e

UNANNOTATED = new_file("app/loose.py", "def ident(x):\n    return x\n")


@pytest.fixture
async def registry(tmp_path: Path) -> AsyncIterator[Registry]:
    reg = Registry(tmp_path / "state")
    try:
        yield reg
    finally:
        await reg.stop()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_files(repo, FILES)
    return repo


async def test_a_config_change_before_the_answer_is_recomputed(
    registry: Registry, root: Path, python_exe: str, tmp_path: Path
) -> None:
    ws = registry.workspace(str(root), python_exe)
    calls: list[int] = []

    def hook() -> None:
        calls.append(1)
        if len(calls) == 1:
            (root / "pyproject.toml").write_text(STRICT)

    ws.before_answer = hook
    reply = await registry.check(CheckRequest(str(root), [UNANNOTATED], python_exe))
    assert len(calls) == 2  # the first verdict was superseded and computed again
    assert not reply.ok  # judged with the strict configuration now on disk
    assert reply.environment == ws.environment().digest
    assert_matches_oracle(reply, root, [UNANNOTATED], python_exe, tmp_path)


async def test_a_source_change_before_the_answer_is_recomputed(
    registry: Registry, root: Path, python_exe: str
) -> None:
    ws = registry.workspace(str(root), python_exe)
    patch = [new_file("app/sums.py", "from app.core import add\n\ntotal: int = add(1, 2)\n")]
    calls: list[int] = []

    def hook() -> None:
        calls.append(1)
        if len(calls) == 1:
            (root / "app/core.py").write_text("def add(a: int, b: int) -> str:\n    return ''\n")

    ws.before_answer = hook
    reply = await registry.check(CheckRequest(str(root), patch, python_exe))
    assert len(calls) == 2
    assert not reply.ok
    assert [d.rule for d in reply.diagnostics] == ["reportAssignmentType"]


async def test_an_environment_that_never_settles_is_stale_environment(
    registry: Registry, root: Path, python_exe: str
) -> None:
    ws = registry.workspace(str(root), python_exe)
    flips: list[int] = []

    def hook() -> None:
        flips.append(1)
        text = STRICT if len(flips) % 2 else PYPROJECT
        (root / "pyproject.toml").write_text(text)

    ws.before_answer = hook
    with pytest.raises(StaleEnvironment) as info:
        await registry.check(CheckRequest(str(root), [UNANNOTATED], python_exe))
    assert info.value.code == "stale_environment"
    assert any("config" in d.message for d in info.value.details)


async def test_a_lost_watcher_forces_a_full_resync(
    registry: Registry, root: Path, python_exe: str
) -> None:
    await registry.check(CheckRequest(str(root), [UNANNOTATED], python_exe))
    ws = registry.workspace(str(root), python_exe)
    first_pid = ws.backend.pid if ws.backend else None
    ws.resync_needed = True
    await registry.check(CheckRequest(str(root), [UNANNOTATED], python_exe))
    assert ws.last_restart_reason == "file watching failed: full resync"
    assert ws.backend is not None
    assert ws.backend.pid != first_pid


async def test_the_watcher_brings_disk_changes_in_before_any_check(
    registry: Registry, tmp_path: Path
) -> None:
    root = tmp_path / "venv-repo"
    python = make_workspace(root)
    await registry.check(CheckRequest(str(root), [UNANNOTATED], python))
    ws = registry.workspace(str(root), python)
    watcher = registry.watcher(root.resolve(), python)
    assert watcher is not None
    async with asyncio.timeout(30):
        await watcher.ready.wait()

    async def wait_applied(condition: Callable[[], bool]) -> None:
        async with asyncio.timeout(30):
            while not condition():
                watcher.applied.clear()
                await watcher.applied.wait()

    generation = ws.generation
    (root / "app/extra.py").write_text("X = 1\n")
    await wait_applied(lambda: ws.generation > generation and not ws.shadow.pending())
    assert "app/extra.py" in ws.shadow.files

    restarts = ws.restarts
    install_libx(python, tmp_path, "1.0", "int", "1")
    # an install also writes sources: "libraries" may be named with "packages", or before it
    await wait_applied(
        lambda: ws.restarts > restarts and "packages" in (ws.last_restart_reason or "")
    )


async def test_a_package_edited_in_place_in_site_packages_is_never_answered_stale(
    registry: Registry, tmp_path: Path
) -> None:
    """No stamp of the fingerprint covers an installed package's sources: the watcher counts
    in-place edits into it, so the next check runs on a restarted checker."""

    def build(base: Path, returns: str = "str", value: str = "'x'") -> Path:
        repo = base / "ws"
        write(repo, {"pyproject.toml": TYPECHECK_ONLY, "app.py": "import inplace\n"})
        pkg = make_venv(repo) / "inplace" / "__init__.py"
        write(pkg.parent, {"__init__.py": f"def f() -> {returns}:\n    return {value}\n"})
        return repo

    root = build(tmp_path / "setup")
    python = venv_python(root)
    changes = [change_file(root, "app.py", "import inplace\n\ny: str = inplace.f()\n")]
    first = await registry.check(CheckRequest(str(root), changes, python))
    assert first.ok, first.diagnostics
    ws = registry.workspace(str(root), python)
    watcher = registry.watcher(root.resolve(), python)
    assert watcher is not None
    async with asyncio.timeout(30):
        await watcher.ready.wait()
    restarts = ws.restarts
    site = next((root / ".venv/lib").glob("python3*/site-packages"))
    (site / "inplace/__init__.py").write_text("def f() -> int:\n    return 1\n")
    async with asyncio.timeout(30):
        while ws.restarts == restarts:
            watcher.applied.clear()
            await watcher.applied.wait()
    assert ws.last_restart_reason == "environment changed: libraries"
    second = await registry.check(CheckRequest(str(root), changes, python))
    assert not second.ok
    oracle = whole_setup_oracle(lambda b: build(b, "int", "1"), changes, tmp_path / "oracle")
    assert surplus(second.diagnostics, oracle) == [] == surplus(oracle, second.diagnostics)
