"""The narrowing switch, in-process on the real pyright: a workspace whose ``narrowing`` is False
plans every transitive importer of a patched file, so an unsound planner cannot hide a break.

How a test (or a fuzzer) uses it: ``ws = registry.workspace(root, python)``, one check to warm
it, then ``ws.narrowing = False`` and ``await registry.check(request)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, new_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.session import Registry
from tests.support.fake_graphs import PruningGraph
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

FILES = {
    "pyproject.toml": '[project]\nname = "n"\nversion = "0"\n\n[tool.prewrite]\nlint = false\n',
    "app/__init__.py": "",
    "app/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "app/main.py": "from app.core import add\n\nTOTAL: int = add(1, 2)\n",
}
BROKEN = "def add(a: str, b: str) -> str:\n    return a + b\n"


@pytest.fixture
async def registry(tmp_path: Path) -> AsyncIterator[Registry]:
    reg = Registry(tmp_path / "state", watch=False)
    try:
        yield reg
    finally:
        await reg.stop()


async def test_narrowing_off_sees_the_importer_an_unsound_planner_pruned(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    root = tmp_path / "repo"
    write(root, FILES)
    ws = registry.workspace(str(root), python_exe)
    warm = await registry.check(
        CheckRequest(str(root), [new_file("app/x.py", "X = 1\n")], python_exe)
    )
    assert warm.ok
    ws.graph = graph = PruningGraph(ws.graph)
    patch = [change_file(root, "app/core.py", BROKEN)]

    narrowed = await registry.check(CheckRequest(str(root), patch, python_exe))
    assert graph.narrowed == 1
    assert narrowed.ok  # the wrong green the planner was built to give
    assert narrowed.checked_files == ["app/core.py"]

    ws.narrowing = False
    wide = await registry.check(CheckRequest(str(root), patch, python_exe))
    assert graph.narrowed == 1  # not asked again
    assert not wide.ok
    assert wide.checked_files == ["app/core.py", "app/main.py"]
    assert {(d.path, d.rule) for d in wide.diagnostics} == {
        ("app/main.py", "reportAssignmentType"),
        ("app/main.py", "reportArgumentType"),
    }
