"""``backends.ready``: the ownership of checkers started ahead of need, with a fake backend
(the real pyright is ``tests/e2e/test_ready_checker.py``): a check cancelled while taking one
leaves it to ``stop``, and nothing starts once stopped."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from prewrite_daemon.backends.ready import ReadyChecker, ReadyCheckers

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.backends.base import RawDiagnostic


class FakeServer:
    pid = 4242

    def __init__(self) -> None:
        self.started = self.stopped = self.exited = False

    async def start(self, timeout_s: float = 60.0) -> None:
        await asyncio.sleep(0.2)
        self.started = True

    def open(self, path: str, text: str) -> None:
        del path, text

    def close(self, path: str) -> None:
        del path

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        await asyncio.sleep(30)
        return []

    async def stop(self, grace_s: float = 2.0) -> None:
        self.stopped = self.exited = True


class FakeLanguage:
    name = "python"

    def __init__(self) -> None:
        self.servers: list[FakeServer] = []

    def make_ready(self, cwd: Path) -> ReadyChecker:
        server = FakeServer()
        self.servers.append(server)
        return ReadyChecker(server, ("warm_up.py", "x = 1"))  # type: ignore[arg-type]


async def _at_once() -> None:
    return None


async def test_a_check_cancelled_while_taking_leaves_the_server_to_stop(tmp_path: Path) -> None:
    language = FakeLanguage()
    ready = ReadyCheckers(tmp_path / "ready", True, _at_once)
    ready.fill(language)  # type: ignore[arg-type]
    await asyncio.sleep(0.05)  # still starting; its warm-up waits for it
    take = asyncio.create_task(ready.take(language))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    take.cancel()  # the check went away (its client, its deadline)
    await asyncio.gather(take, return_exceptions=True)
    await asyncio.sleep(0.4)  # the server finished starting meanwhile
    (server,) = language.servers
    assert server.started
    assert not server.stopped
    await ready.stop()
    assert server.stopped


async def test_nothing_is_started_once_stopped(tmp_path: Path) -> None:
    language = FakeLanguage()
    ready = ReadyCheckers(tmp_path / "ready", True, _at_once)
    await ready.stop()
    ready.fill(language)  # type: ignore[arg-type]
    ready.refill()
    assert language.servers == []
    assert await ready.take(language) is None  # type: ignore[arg-type]
