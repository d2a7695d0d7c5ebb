"""A checker started ahead of need (``backends.ready``), on the real pyright, in-process.

The ready server is bound to a workspace's shadow after it started; what it reports must be what
a cold ``pyright`` run reports on the patched tree: the tree's own configuration (a ``strict``
directory), the interpreter's packages (``msgspec``, resolvable only through the interpreter
pyright is told), errors across files. The check must use the ready server (its pid), the next
workspace the one started after the reply, and a ready server that died or never started must
leave the check to a server of its own. Each as it comes from its start, and after it has checked
its scratch document (the warm-up, which must change no verdict).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.session import Registry
from tests.support.exits import exits_within
from tests.support.oracle import oracle_introduced, surplus
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from prewrite.protocol import CheckReply, Diagnostic, FileChange

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

FILES = {
    "pyrightconfig.json": json.dumps({"strict": ["app/strict"]}),
    "app/__init__.py": "",
    "app/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "app/main.py": "from app.core import add\n\nTOTAL: int = add(1, 2)\n",
    "app/strict/__init__.py": "",
    "app/strict/s.py": "from app.core import add\n\n\ndef twice(x: int) -> int:\n"
    "    return add(x, x)\n",
}
# An interface change reaching main.py; strict-only errors in s.py; a package's type in main.py.
PATCH = {
    "app/core.py": "def add(a: str, b: int) -> int:\n    return len(a) + b\n",
    "app/strict/s.py": FILES["app/strict/s.py"] + "\n\ndef loose(v):\n    return v\n",
    "app/main.py": FILES["app/main.py"] + "\nimport msgspec\n\nBAD: int = msgspec.json.encode(1)\n",
}


async def _at_once() -> None:
    return None


@pytest.fixture(params=["unwarmed", "warmed"])
async def registry(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Registry]:
    """Ready checkers as the daemon has them; "warmed": each checks its scratch document as
    soon as it has started (the daemon waits until it is quiet)."""
    quiet = _at_once if request.param == "warmed" else None
    reg = Registry(tmp_path / "state", watch=False, ready_checkers=True, quiet=quiet)
    try:
        yield reg
    finally:
        await reg.stop()


def _repo(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    write(root, FILES)
    return root.resolve()


def _changes(root: Path) -> list[FileChange]:
    return [change_file(root, rel, text) for rel, text in PATCH.items()]


async def _check(registry: Registry, root: Path, python: str) -> CheckReply:
    request = CheckRequest(str(root), _changes(root), python, rungs=["typecheck"])
    return await registry.check(request)


def _cold(tmp_path: Path, root: Path, python: str) -> list[Diagnostic]:
    patched = tmp_path / f"{root.name}-patched"
    shutil.copytree(root, patched)
    write(patched, PATCH)
    return oracle_introduced(root, patched, python)


async def _ready_pid(registry: Registry) -> int | None:
    return await registry.ready.wait_started(PYTHON, warmed=True)


async def test_a_bound_ready_checker_reports_what_cold_pyright_does(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    registry.ready.fill(PYTHON)
    pid = await _ready_pid(registry)
    root = _repo(tmp_path, "repo")
    reply = await _check(registry, root, python_exe)
    ws = registry.entry(root, python_exe).workspace
    assert ws.backend is not None
    assert ws.backend.pid == pid  # the ready server judged, bound to this tree
    cold = _cold(tmp_path, root, python_exe)
    rules = {d.rule for d in reply.diagnostics}
    # each discriminates: strict read from the tree, msgspec found through the interpreter
    assert {"reportMissingParameterType", "reportAssignmentType", "reportArgumentType"} <= rules
    assert surplus(reply.diagnostics, cold) == []
    assert surplus(cold, reply.diagnostics) == []

    registry.ready.refill()  # as the daemon does after a reply
    await registry.ready.wait_refilled()
    second_pid = await _ready_pid(registry)
    assert second_pid not in (None, pid)
    other = _repo(tmp_path, "other")
    reply2 = await _check(registry, other, python_exe)
    ws2 = registry.entry(other, python_exe).workspace
    assert ws2.backend is not None
    assert ws2.backend.pid == second_pid
    assert surplus(reply2.diagnostics, _cold(tmp_path, other, python_exe)) == []


async def test_a_ready_checker_that_died_leaves_the_check_to_a_new_one(
    registry: Registry, tmp_path: Path, python_exe: str
) -> None:
    registry.ready.fill(PYTHON)
    pid = await _ready_pid(registry)
    assert pid is not None
    os.killpg(pid, signal.SIGKILL)  # its own session
    assert exits_within(pid, 15.0)  # dead (the daemon's exit watcher may not have run yet)
    root = _repo(tmp_path, "repo")
    reply = await _check(registry, root, python_exe)
    ws = registry.entry(root, python_exe).workspace
    assert ws.backend is not None
    assert ws.backend.pid not in (None, pid)
    assert ws.restarts == 0
    assert surplus(reply.diagnostics, _cold(tmp_path, root, python_exe)) == []


async def test_a_ready_checker_that_cannot_start_is_not_waited_for_again(
    registry: Registry, tmp_path: Path, python_exe: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREWRITE_PYRIGHT_DIST", str(tmp_path / "no-pyright-here"))
    registry.ready.fill(PYTHON)
    assert await registry.ready.take(PYTHON) is None
    monkeypatch.delenv("PREWRITE_PYRIGHT_DIST")
    registry.ready.refill()  # failed once: none until the daemon restarts
    assert await registry.ready.take(PYTHON) is None
    root = _repo(tmp_path, "repo")
    reply = await _check(registry, root, python_exe)
    assert not reply.ok
    assert surplus(reply.diagnostics, _cold(tmp_path, root, python_exe)) == []


async def test_a_check_that_takes_a_ready_checker_mid_warm_up_gets_its_own_verdict(
    tmp_path: Path, python_exe: str
) -> None:
    reg = Registry(tmp_path / "state", watch=False, ready_checkers=True, quiet=_at_once)
    try:
        reg.ready.fill(PYTHON)
        pid = await reg.ready.wait_started(PYTHON)  # the scratch check starts now
        root = _repo(tmp_path, "repo")
        reply = await _check(reg, root, python_exe)  # cancels it, binds the server
        ws = reg.entry(root, python_exe).workspace
        assert ws.backend is not None
        assert ws.backend.pid == pid
        cold = _cold(tmp_path, root, python_exe)
        assert surplus(reply.diagnostics, cold) == []
        assert surplus(cold, reply.diagnostics) == []
        assert "warm_up.py" not in {d.path for d in reply.diagnostics}
    finally:
        await reg.stop()
