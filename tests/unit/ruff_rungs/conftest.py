"""The ruff rung tests' workspace (a ``pyproject.toml`` with ruff settings) and the ``Ruff`` adapter
on it, both ways: CLI only and with its warm ``ruff server``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.ladder.ruff import Ruff
from tests.unit.ruff_rungs.ruff_helpers import PYPROJECT, prime_warm

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator
    from pathlib import Path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "generated").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    return root


@pytest.fixture(params=["cli", "server"])
async def ruff(workspace: Path, request: pytest.FixtureRequest) -> AsyncGenerator[Ruff]:
    """The adapter both ways: CLI only, and with its warm ``ruff server`` (which must answer
    the same; the CLI answers while the server cannot vouch for the files just written)."""
    ruff = Ruff(workspace, sys.executable, warm=request.param == "server")
    if ruff.warm is not None:
        await prime_warm(ruff)
    yield ruff
    await ruff.stop()
    assert ruff.warm is None or ruff.warm.statistics().failures == 0
