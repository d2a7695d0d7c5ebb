"""Fixtures for fault tests: LspProcess instances driving the fake servers under ``fakes/``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite_daemon.backends.lsp_process import LspProcess
from prewrite_daemon.backends.pyright import PYRIGHT_QUIRKS
from tests.faults.harness import is_gone, no_settings

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from prewrite_daemon.backends.lsp_types import ServerQuirks
    from tests.faults.harness import MakeServer


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "m.py").write_text("x = 1\ny: int = 'a'\n")
    return root


@pytest.fixture
async def make_server(workspace: Path) -> AsyncIterator[MakeServer]:
    """Builds LspProcess objects on the given argv; stops them all (quickly) afterwards."""
    made: list[LspProcess] = []

    def make(*argv: str, quirks: ServerQuirks | None = None) -> LspProcess:
        server = LspProcess(list(argv), workspace, no_settings, None, quirks or PYRIGHT_QUIRKS)
        made.append(server)
        return server

    yield make
    for server in made:
        await server.stop(grace_s=0.2)
        pid = server.pid
        if pid is not None and not is_gone(pid):  # only ever a process this test started
            psutil.Process(pid).kill()
            pytest.fail(f"stop() left the server pid {pid} running")
