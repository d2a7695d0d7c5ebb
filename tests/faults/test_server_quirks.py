"""LspProcess driving servers unlike pyright: what ``ServerQuirks`` changes; the lifecycle.

Pull announced statically instead of registered, diagnostics pushed instead of pulled (fresh or
never answered), a language id other than python, notifications no client knows; and ``exited``
read from ``state`` at every step of a server's life.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState
from prewrite_daemon.backends.lsp_types import ServerQuirks
from tests.faults.fakes.fake_lsp import UNKNOWN_NOTIFICATIONS
from tests.faults.harness import fake_argv

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.backends.lsp_process import LspProcess
    from prewrite_daemon.backends.lsp_types import PullMode
    from tests.faults.harness import MakeServer

START_S = 20.0  # generous: only a broken fake takes that long, a working one starts in < 1 s
SLACK_S = 15.0
REGISTRATION_WAIT_S = 5.0  # the whole cost of the never-registered test
LANGUAGE_IDS = {".py": "python", ".ts": "typescript", ".tsx": "typescriptreact"}


def language_id(path: str) -> str:
    return next(lid for suffix, lid in LANGUAGE_IDS.items() if path.endswith(suffix))


def quirks(pull: PullMode) -> ServerQuirks:
    return ServerQuirks(language_id=language_id, pull=pull)


async def started(
    make_server: MakeServer, script: str, behaviour: str, pull: PullMode
) -> LspProcess:
    server = make_server(*fake_argv(script, behaviour), quirks=quirks(pull))
    await server.start(timeout_s=START_S)
    assert server.state is BackendState.RUNNING
    return server


def open_file(server: LspProcess, workspace: Path, name: str, text: str = "x = 1\n") -> str:
    path = workspace / name
    path.write_text(text)
    server.open(str(path), text)
    return str(path)


async def messages(server: LspProcess, path: str, timeout_s: float = 10.0) -> list[str]:
    return [d.message for d in await server.diagnostics(path, timeout_s)]


# --- pull, announced statically --------------------------------------------------------------


async def test_a_static_pull_server_starts_and_answers_pulls(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "fake_lsp.py", "static-pull", "static")
    path = open_file(server, workspace, "m.py")
    assert await messages(server, path) == ["python v1"]
    server.change(path, "x = 2\n")
    assert await messages(server, path) == ["python v2"]


async def test_dynamic_quirks_wait_for_a_registration_a_static_server_never_sends(
    make_server: MakeServer,
) -> None:
    """pyright's quirks keep pyright's rule: started means registered, whatever else was said."""
    server = make_server(*fake_argv("fake_lsp.py", "static-pull"), quirks=quirks("dynamic"))
    # The budget covers spawning the fake (a Python process) and its initialize reply on a busy
    # CI machine, then the wait for a registration that never comes.
    with pytest.raises(BackendFailed, match="pull diagnostics"):
        await server.start(timeout_s=REGISTRATION_WAIT_S)
    assert server.state is BackendState.ERRORED


async def test_static_quirks_fail_the_start_of_a_server_without_pull(
    make_server: MakeServer,
) -> None:
    server = make_server(*fake_argv("push_lsp.py", "push"), quirks=quirks("static"))
    began = time.monotonic()
    with pytest.raises(BackendFailed, match="no pull diagnostics"):
        await server.start(timeout_s=START_S)
    assert time.monotonic() - began < START_S  # told at once, not waited for
    assert server.state is BackendState.ERRORED


# --- language ids ----------------------------------------------------------------------------


async def test_the_language_id_of_each_path_reaches_the_server(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "fake_lsp.py", "static-pull", "static")
    ts = open_file(server, workspace, "t.ts", "let x: number = 1;\n")
    tsx = open_file(server, workspace, "v.tsx", "export const v = <div/>;\n")
    py = open_file(server, workspace, "m.py")
    assert await messages(server, ts) == ["typescript v1"]
    assert await messages(server, tsx) == ["typescriptreact v1"]
    assert await messages(server, py) == ["python v1"]


# --- push ------------------------------------------------------------------------------------


async def test_a_push_server_starts_and_answers_what_it_published_for_the_current_version(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "push_lsp.py", "push", "push")
    path = open_file(server, workspace, "t.ts")
    assert await messages(server, path) == ["typescript v1 #1"]
    server.change(path, "let y = 2;\n")
    assert await messages(server, path) == ["typescript v2 #2"]
    assert await messages(server, path) == ["typescript v2 #2"]  # no new notification: no wait


async def test_a_push_after_another_documents_edit_is_waited_for(
    make_server: MakeServer, workspace: Path
) -> None:
    """An importer keeps its version when the module it imports is edited: the answer for it is
    a publish that arrived after the edit, not the one from before (that would be a stale green).
    """
    server = await started(make_server, "push_lsp.py", "push", "push")
    edited = open_file(server, workspace, "a.ts")
    importer = open_file(server, workspace, "b.ts")
    assert await messages(server, importer) == ["typescript v1 #2"]
    server.change(edited, "export const a = 'changed';\n")
    assert await messages(server, importer) == ["typescript v1 #3"]


async def test_a_push_server_that_never_publishes_times_out(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "push_lsp.py", "push-silent", "push")
    path = open_file(server, workspace, "t.ts")
    began = time.monotonic()
    with pytest.raises(CheckTimeout) as exc_info:
        await server.diagnostics(path, 0.3)
    assert exc_info.value.code == "timeout"
    assert time.monotonic() - began < 0.3 + SLACK_S
    assert server.state is BackendState.RUNNING  # slow is not dead: the caller decides


async def test_a_publish_of_an_older_version_is_not_an_answer(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "push_lsp.py", "push-stale", "push")
    path = open_file(server, workspace, "t.ts")
    assert await messages(server, path) == ["typescript v1 #1"]
    server.change(path, "let y = 2;\n")  # answered by a fresh publish, but of version 1
    with pytest.raises(CheckTimeout):
        await server.diagnostics(path, 0.3)


async def test_a_publish_from_before_the_last_notification_is_not_an_answer(
    make_server: MakeServer, workspace: Path
) -> None:
    """A server that does not republish its open documents after a notification is never
    trusted with them again: a timeout, not a verdict from an older view of the tree."""
    server = await started(make_server, "push_lsp.py", "push-opened", "push")
    first = open_file(server, workspace, "a.ts")
    assert await messages(server, first) == ["typescript v1 #1"]
    second = open_file(server, workspace, "b.ts")
    assert await messages(server, second) == ["typescript v1 #2"]
    with pytest.raises(CheckTimeout):
        await server.diagnostics(first, 0.3)


async def test_a_push_server_is_not_asked_about_documents_that_are_not_open(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "push_lsp.py", "push", "push")
    path = open_file(server, workspace, "t.ts")
    assert await messages(server, path) == ["typescript v1 #1"]
    server.close(path)
    with pytest.raises(BackendFailed, match="not open"):
        await server.diagnostics(path, 10.0)
    with pytest.raises(BackendFailed, match="not open"):
        await server.diagnostics(str(workspace / "never.ts"), 10.0)


async def test_a_push_server_crashing_fails_a_waiting_call(
    make_server: MakeServer, workspace: Path
) -> None:
    server = await started(make_server, "push_lsp.py", "push-silent", "push")
    path = open_file(server, workspace, "t.ts")
    pid = server.pid
    assert pid is not None
    waiting = asyncio.create_task(server.diagnostics(path, 30.0))
    await asyncio.sleep(0)  # one turn of the loop: the call is now waiting for a publish
    began = time.monotonic()
    os.kill(pid, signal.SIGKILL)  # the process this test started
    with pytest.raises(BackendFailed, match="exited"):
        await waiting
    assert time.monotonic() - began < 30.0
    assert server.state is BackendState.ERRORED


# --- notifications no client knows ------------------------------------------------------------


async def test_unknown_notifications_are_logged_and_survived(
    make_server: MakeServer, workspace: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    server = make_server(*fake_argv("fake_lsp.py", "chatty"))  # pyright's quirks
    await server.start(timeout_s=START_S)
    path = open_file(server, workspace, "m.py")
    for _ in range(2):
        assert await messages(server, path) == ["fake\n\u00a0\u00a0problem"]
    assert server.state is BackendState.RUNNING
    for method in UNKNOWN_NOTIFICATIONS:
        assert method in caplog.text


# --- lifecycle: one source of truth -----------------------------------------------------------


def assert_consistent(server: LspProcess, state: BackendState) -> None:
    assert server.state is state
    assert server.exited is state.is_down


async def test_exited_is_read_from_state_at_every_step(
    make_server: MakeServer, workspace: Path
) -> None:
    server = make_server(*fake_argv("fake_lsp.py", "crash-diagnostic"))
    assert_consistent(server, BackendState.EXITED)  # never started: takes no calls
    with pytest.raises(BackendFailed, match="not running"):
        server.open(str(workspace / "m.py"), "x = 1\n")
    await server.start(timeout_s=START_S)
    assert_consistent(server, BackendState.RUNNING)
    path = open_file(server, workspace, "m.py")
    with pytest.raises(BackendFailed, match="exited"):
        await server.diagnostics(path, 30.0)
    assert_consistent(server, BackendState.ERRORED)
    await server.stop(grace_s=0.2)
    assert_consistent(server, BackendState.EXITED)


async def test_a_stopped_server_takes_no_calls(make_server: MakeServer, workspace: Path) -> None:
    server = make_server(*fake_argv("fake_lsp.py", "healthy"))
    await server.start(timeout_s=START_S)
    path = open_file(server, workspace, "m.py")
    await server.stop()
    assert_consistent(server, BackendState.EXITED)
    with pytest.raises(BackendFailed, match="not running"):
        server.change(path, "x = 2\n")
    with pytest.raises(BackendFailed, match="not running"):
        await server.diagnostics(path, 10.0)
