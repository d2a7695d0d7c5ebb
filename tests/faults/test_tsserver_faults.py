"""TsServerProcess against a fake tsserver that sends garbage, rejects an edit or hangs.

Whatever the server does, the outcome is a typed error within the deadline, never a list of
diagnostics, and no child is left behind. The fake is a few lines of Python speaking tsserver's
framing, so each fault is exact and immediate.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import psutil
import pytest

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState, FileEvent
from prewrite_daemon.backends.tsserver import TsServerProcess
from prewrite_daemon.backends.tsserver_wire import WatchTable, end_of_text

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable
    from pathlib import Path

SLACK_S = 15.0
FAKE = r"""
import json, sys
behaviour = sys.argv[1]
def send(obj):
    body = json.dumps(obj).encode() + b"\n"
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()
for line in sys.stdin:
    req = json.loads(line)
    reply = {"type": "response", "request_seq": req["seq"], "success": True, "body": []}
    command = req["command"]
    if command == "exit":
        sys.exit(0)
    if command == "updateOpen" and behaviour == "reject-open":
        reply = {**reply, "success": False, "message": "Debug Failure."}
    if command.endswith("DiagnosticsSync"):
        if behaviour == "hang":
            continue
        if behaviour == "garbage":
            sys.stdout.buffer.write(b"this is not a frame\r\n\r\n")
            sys.stdout.buffer.flush()
            continue
        if behaviour == "huge":
            sys.stdout.buffer.write(b"Content-Length: 999999999999\r\n\r\n")
            sys.stdout.buffer.flush()
            continue
    send(reply)
"""


def is_gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_DEAD
    except psutil.NoSuchProcess:
        return True


@pytest.fixture
async def make_fake(tmp_path: Path) -> AsyncIterator[Callable[[str], TsServerProcess]]:
    script = tmp_path / "fake_tsserver.py"
    script.write_text(FAKE)
    made: list[TsServerProcess] = []

    def make(behaviour: str) -> TsServerProcess:
        server = TsServerProcess([sys.executable, str(script), behaviour], tmp_path, None)
        made.append(server)
        return server

    yield make
    for server in made:
        await server.stop(grace_s=0.2)
        assert server.pid is None or is_gone(server.pid)


async def opened(make_fake: Callable[[str], TsServerProcess], behaviour: str) -> TsServerProcess:
    server = make_fake(behaviour)
    await server.start(timeout_s=SLACK_S)
    server.open("/nowhere/a.ts", "const a = 1;\n")
    return server


@pytest.mark.parametrize("behaviour", ["garbage", "huge", "reject-open"])
async def test_unusable_output_fails_the_call_and_the_backend(
    make_fake: Callable[[str], TsServerProcess], behaviour: str
) -> None:
    server = await opened(make_fake, behaviour)
    began = time.monotonic()
    with pytest.raises(BackendFailed):
        await server.diagnostics("/nowhere/a.ts", SLACK_S)
    assert time.monotonic() - began < SLACK_S
    assert server.state is BackendState.ERRORED
    assert server.pid is not None
    assert is_gone(server.pid)


async def test_a_hang_is_a_timeout_and_the_backend_lives(
    make_fake: Callable[[str], TsServerProcess],
) -> None:
    server = await opened(make_fake, "hang")
    began = time.monotonic()
    with pytest.raises(CheckTimeout):
        await server.diagnostics("/nowhere/a.ts", 0.3)
    assert time.monotonic() - began < 0.3 + SLACK_S
    assert server.state is BackendState.RUNNING


async def test_the_healthy_fake_answers(make_fake: Callable[[str], TsServerProcess]) -> None:
    """The control: the fake works, so the failures above are the real thing."""
    server = await opened(make_fake, "healthy")
    assert await server.diagnostics("/nowhere/a.ts", SLACK_S) == []


def test_end_of_text_counts_utf16_units_and_tsserver_line_breaks() -> None:
    assert end_of_text("") == {"line": 1, "offset": 1}
    assert end_of_text("ab\n") == {"line": 2, "offset": 1}
    assert end_of_text("a\r\nb\rc\u2028d\u2029\U0001f600") == {"line": 5, "offset": 3}
    assert end_of_text("\u00e9\U0001f600x") == {"line": 1, "offset": 5}


def test_watch_table_routes_events_to_covering_watchers() -> None:
    table = WatchTable()
    table.on_event("createFileWatcher", {"id": 1, "path": "/r/src/a.ts"})
    table.on_event("createDirectoryWatcher", {"id": 2, "path": "/r/src", "recursive": False})
    table.on_event(
        "createDirectoryWatcher",
        {"id": 3, "path": "/r", "recursive": True, "ignoreUpdate": True},
    )
    table.on_event("createFileWatcher", {"id": 4, "path": "/r/gone.ts"})
    table.on_event("closeFileWatcher", {"id": 4})
    assert table.changes_for([FileEvent("/r/src/a.ts", "deleted")]) == [
        {"id": 1, "deleted": ["/r/src/a.ts"]},
        {"id": 2, "deleted": ["/r/src/a.ts"]},
        {"id": 3, "deleted": ["/r/src/a.ts"]},
    ]
    assert table.changes_for([FileEvent("/r/src/a.ts", "changed")]) == [
        {"id": 1, "updated": ["/r/src/a.ts"]},
        {"id": 2, "updated": ["/r/src/a.ts"]},
    ]  # the ignoreUpdate watcher asked not to hear of changes
    assert table.changes_for([FileEvent("/r/src/lib/c.ts", "created")]) == [
        {"id": 2, "created": ["/r/src/lib"]},  # a non-recursive watcher sees the new directory
        {"id": 3, "created": ["/r/src/lib/c.ts"]},
    ]
    assert table.changes_for([FileEvent("/r/gone.ts", "created")]) == [
        {"id": 3, "created": ["/r/gone.ts"]}
    ]
