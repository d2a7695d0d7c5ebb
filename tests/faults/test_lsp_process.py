"""LspProcess against fake language servers that hang, crash, ignore shutdown or send garbage.

Whatever the server does, the outcome is a typed error (``backend_failed`` or ``timeout``) within
the deadline, never a list of diagnostics, and no child process is left behind.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState, RawDiagnostic
from tests.faults.harness import fake_argv, is_gone

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from prewrite_daemon.backends.lsp_process import LspProcess
    from tests.faults.harness import MakeServer

START_S = 20.0  # generous: only a broken fake takes that long, a working one starts in < 1 s
SLACK_S = 15.0  # how much longer than its own deadline a failing call may take to clean up


async def started(make_server: MakeServer, behaviour: str, *extra: str) -> LspProcess:
    server = make_server(*fake_argv("fake_lsp.py", behaviour, *extra))
    await server.start(timeout_s=START_S)
    assert server.state is BackendState.RUNNING
    return server


def open_module(server: LspProcess, workspace: Path) -> str:
    path = str(workspace / "m.py")
    server.open(path, (workspace / "m.py").read_text())
    return path


async def test_healthy_fake_answers_a_pull(make_server: MakeServer, workspace: Path) -> None:
    """The control: the harness and the fakes work, so the failures below are the real thing."""
    server = await started(make_server, "healthy")
    pid = server.pid
    assert pid is not None
    assert not is_gone(pid)
    diagnostics = await server.diagnostics(open_module(server, workspace), 10.0)
    assert diagnostics == [
        RawDiagnostic(1, 4, 1, 9, "error", "reportFake", "fake\n\u00a0\u00a0problem", "fake")
    ]
    await server.stop()
    assert server.state is BackendState.EXITED
    assert is_gone(pid)


async def test_no_answer_to_initialize_fails_the_start_and_kills_the_child(
    make_server: MakeServer,
) -> None:
    server = make_server(*fake_argv("fake_lsp.py", "no-initialize"))
    began = time.monotonic()
    with pytest.raises(BackendFailed) as exc_info:
        await server.start(timeout_s=0.5)
    assert time.monotonic() - began < 0.5 + SLACK_S
    assert exc_info.value.code == "backend_failed"
    assert server.state is BackendState.ERRORED
    assert server.pid is not None
    assert is_gone(server.pid)


CUT_S = 0.5  # when the start below is cut short
GRACE_S = 2.0  # stop()'s default grace; the start's stop must not wait it out


async def _cut_by_its_own_deadline(server: LspProcess) -> None:
    with pytest.raises(BackendFailed):
        await server.start(timeout_s=CUT_S)


async def _cut_by_the_callers_deadline(server: LspProcess) -> None:
    """As a check's deadline or a client's hang-up does: the start is cancelled."""
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(CUT_S):
            await server.start(timeout_s=START_S)


@pytest.mark.parametrize(
    "cut", [_cut_by_its_own_deadline, _cut_by_the_callers_deadline], ids=["own", "callers"]
)
async def test_a_start_cut_short_stops_its_child_at_once(
    make_server: MakeServer, cut: Callable[[LspProcess], Awaitable[None]]
) -> None:
    """A child that never got to running has no LSP session to end: it is terminated at once,
    not given the grace to exit on its own (this one never would: it waits for initialize)."""
    server = make_server(*fake_argv("fake_lsp.py", "no-initialize"))
    began = time.monotonic()
    await cut(server)
    assert time.monotonic() - began < CUT_S + GRACE_S / 2
    assert server.pid is not None  # the cut came after the spawn
    assert is_gone(server.pid)
    assert server.state is BackendState.ERRORED


async def test_a_server_that_exits_at_once_fails_the_start_promptly(
    make_server: MakeServer,
) -> None:
    server = make_server(sys.executable, "-c", "raise SystemExit(5)")
    began = time.monotonic()
    with pytest.raises(BackendFailed, match="exited"):
        await server.start(timeout_s=START_S)
    assert time.monotonic() - began < START_S
    assert server.state is BackendState.ERRORED


async def test_a_missing_executable_is_backend_failed(
    make_server: MakeServer, workspace: Path
) -> None:
    server = make_server(str(workspace / "no-such-language-server"))
    with pytest.raises(BackendFailed):
        await server.start(timeout_s=0.5)
    assert server.state is BackendState.ERRORED


async def test_a_hanging_pull_times_out_and_never_returns_a_list(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "hang-diagnostic")
    path = open_module(server, workspace)
    for _ in range(2):  # and again: a timed-out pull leaves no answer behind for the next one
        with pytest.raises(CheckTimeout) as exc_info:
            await server.diagnostics(path, 0.3)
        assert exc_info.value.code == "timeout"
    assert server.pid is not None
    assert not is_gone(server.pid)  # slow is not dead: the caller decides what to do


async def test_a_pull_given_up_is_cancelled_at_the_server(
    make_server: MakeServer, workspace: Path, tmp_path: Path
) -> None:
    """A timed-out (or cancelled) pull sends ``$/cancelRequest``: the server stops working on
    it, and its late answer resolves nothing."""
    noted = tmp_path / "cancelled.log"
    server = await started(make_server, "hang-diagnostic", "--cancelled", str(noted))
    path = open_module(server, workspace)
    with pytest.raises(CheckTimeout):
        await server.diagnostics(path, 0.3)
    waiter = asyncio.ensure_future(server.diagnostics(path, 30))
    await asyncio.sleep(0)  # the second pull is sent
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    deadline = time.monotonic() + 10
    while noted.read_text().count("cancelled") < 2 if noted.exists() else True:
        assert time.monotonic() < deadline, "the server was never told to cancel"
        await asyncio.sleep(0.05)


async def test_a_crash_during_a_pull_fails_it_before_the_deadline(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "crash-diagnostic")
    path = open_module(server, workspace)
    timeout_s = 30.0
    began = time.monotonic()
    with pytest.raises(BackendFailed, match="exited"):
        await server.diagnostics(path, timeout_s)
    assert time.monotonic() - began < timeout_s
    assert server.exited
    assert server.state is BackendState.ERRORED
    assert server.pid is not None
    assert is_gone(server.pid)


async def test_a_crash_fails_every_pending_pull_at_once(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "crash-diagnostic")
    path = open_module(server, workspace)
    results = await asyncio.wait_for(
        asyncio.gather(*(server.diagnostics(path, 30.0) for _ in range(4)), return_exceptions=True),
        timeout=30.0 + SLACK_S,
    )
    assert [type(r) for r in results] == [BackendFailed] * 4


async def test_calls_after_a_crash_fail_at_once(make_server: MakeServer, workspace: Path) -> None:
    server = await started(make_server, "crash-diagnostic")
    path = open_module(server, workspace)
    with pytest.raises(BackendFailed):
        await server.diagnostics(path, 30.0)
    with pytest.raises(BackendFailed):
        server.change(path, "x = 2\n")
    with pytest.raises(BackendFailed):
        await asyncio.wait_for(server.diagnostics(path, 30.0), timeout=SLACK_S)


@pytest.mark.parametrize("kind", ["lines", "huge-line"])
async def test_garbage_instead_of_initialize_fails_the_start(
    make_server: MakeServer, kind: str
) -> None:
    server = make_server(*fake_argv("garbage_stdout.py", kind))
    began = time.monotonic()
    with pytest.raises(BackendFailed):
        await server.start(timeout_s=0.5)
    assert time.monotonic() - began < 0.5 + SLACK_S
    assert server.state is BackendState.ERRORED
    assert server.pid is not None
    assert is_gone(server.pid)


async def test_garbage_instead_of_a_pull_answer_is_never_green(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "garbage-diagnostic")
    path = open_module(server, workspace)
    with pytest.raises((BackendFailed, CheckTimeout)):
        await server.diagnostics(path, 0.5)


async def test_a_flood_instead_of_a_pull_answer_is_never_green(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "flood-diagnostic")
    path = open_module(server, workspace)
    with pytest.raises((BackendFailed, CheckTimeout)):
        await server.diagnostics(path, 0.5)


async def test_a_server_whose_output_cannot_be_read_is_not_reused(
    make_server: MakeServer, workspace: Path
) -> None:
    """Once the reader gave up on the server's stdout, no answer can ever arrive again.

    The session reuses a backend while ``state is RUNNING and not exited``: this one must not
    look like that, or every later check on the workspace times out instead of restarting it.
    """
    server = await started(make_server, "flood-diagnostic")
    path = open_module(server, workspace)
    with pytest.raises((BackendFailed, CheckTimeout)):
        await server.diagnostics(path, 0.5)
    assert not (server.state is BackendState.RUNNING and not server.exited)


async def test_stop_kills_a_server_that_ignores_shutdown_and_sigterm(
    make_server: MakeServer, tmp_path: Path
) -> None:
    marker = tmp_path / "sigterm"
    server = await started(make_server, "ignore-shutdown", "--marker", str(marker))
    pid = server.pid
    assert pid is not None
    began = time.monotonic()
    await server.stop(grace_s=0.3)
    assert time.monotonic() - began < SLACK_S
    assert marker.read_text() == "SIGTERM ignored\n"  # terminate came first, and was survived
    assert is_gone(pid)  # ... so it took the kill
    assert server.state is BackendState.EXITED


async def test_stop_is_graceful_for_a_well_behaved_server(
    make_server: MakeServer, tmp_path: Path
) -> None:
    """A server that honours shutdown/exit is not signalled at all."""
    marker = tmp_path / "sigterm"
    server = await started(make_server, "healthy", "--marker", str(marker))
    pid = server.pid
    assert pid is not None
    await server.stop(grace_s=5.0)
    assert is_gone(pid)
    assert not marker.exists()
