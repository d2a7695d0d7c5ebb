"""Where an editor's request runs (``SparePool.lane``): the warm checker, or the spare while an
agent holds the warm one. Fakes for the workspace and the checkers; the real pyright version of
this is ``tests/e2e/test_editor_spare.py``."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from prewrite_daemon.concurrency.priority_lock import PriorityLock
from prewrite_daemon.editor import spare as spare_module
from prewrite_daemon.editor.spare import SparePool
from tests.support.fake_backend import FakeBackend

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Callable

    from prewrite_daemon.workspace import Workspace

TREE = Path("/nonexistent/repo")
STEP_S = 5.0  # a bound on each wait below, never expected to pass


@dataclass
class FakeLanguage:
    made: list[SlowStart] = field(default_factory=lambda: [])
    moved: asyncio.Event = field(default_factory=asyncio.Event)  # a spare made or stopped

    def make_backend(self, root: Path, env: object, run_python: str | None) -> SlowStart:
        backend = SlowStart(root, language=self)
        self.made.append(backend)
        self.moved.set()
        return backend

    async def until(self, condition: Callable[[], bool]) -> None:
        async with asyncio.timeout(STEP_S):
            while not condition():
                self.moved.clear()  # no other task runs between the test and the wait
                await self.moved.wait()


@dataclass
class SlowStart(FakeBackend):
    """A checker whose start waits for ``go``."""

    language: FakeLanguage | None = None
    go: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self, timeout_s: float = 60.0) -> None:
        await self.go.wait()
        await super().start(timeout_s)

    async def stop(self, grace_s: float = 2.0) -> None:
        await super().stop(grace_s)
        if self.language is not None:
            self.language.moved.set()


@dataclass
class FakeWorkspace:
    language: FakeLanguage = field(default_factory=FakeLanguage)
    lock: PriorityLock = field(default_factory=PriorityLock)
    root: Path = TREE
    env: object = None
    run_python: str | None = "python3"
    trusted: bool = True
    backend: Any = None
    fingerprint: str = "env-1"
    file_listeners: set[Any] = field(default_factory=lambda: set())

    def peek_environment(self) -> str:
        return self.fingerprint


@pytest.fixture
async def pool() -> AsyncGenerator[SparePool]:
    spares = SparePool(idle_s=60.0)
    yield spares
    await spares.stop()


def ws_of(fake: FakeWorkspace) -> Workspace:
    return cast("Workspace", fake)


async def test_a_free_checker_serves_at_once_and_no_spare_starts(pool: SparePool) -> None:
    fake = FakeWorkspace()
    async with pool.lane(ws_of(fake)) as lane:
        assert lane.spare is None
        assert fake.lock.locked()
    assert not fake.lock.locked()
    assert fake.language.made == []


async def test_another_editor_holding_the_checker_is_waited_for(pool: SparePool) -> None:
    fake = FakeWorkspace()
    await fake.lock.acquire(urgent=True)  # an editor's request under way
    waiting = asyncio.ensure_future(pool.lane(ws_of(fake)).__aenter__())
    await asyncio.sleep(spare_module.CONTENDED_S * 2)  # past the moment a spare would start
    assert fake.language.made == []
    fake.lock.release()
    lane = await asyncio.wait_for(waiting, STEP_S)
    assert lane.spare is None


async def test_an_agent_holding_the_checker_starts_a_spare_that_serves(pool: SparePool) -> None:
    fake = FakeWorkspace()
    await fake.lock.acquire()  # an agent's check under way
    request = asyncio.ensure_future(_use_lane(pool, fake))
    await fake.language.until(lambda: len(fake.language.made) == 1)
    fake.language.made[0].go.set()
    assert await asyncio.wait_for(request, STEP_S) == "spare"
    assert pool.served[id(fake)] == 1
    # The abandoned wait for the warm checker left nothing behind: the agent's release frees it.
    fake.lock.release()
    assert not fake.lock.locked()
    assert await asyncio.wait_for(_use_lane(pool, fake), STEP_S) == "warm"


async def test_the_warm_checker_freed_before_the_spare_is_ready_serves(pool: SparePool) -> None:
    fake = FakeWorkspace()
    await fake.lock.acquire()
    request = asyncio.ensure_future(_use_lane(pool, fake))
    await fake.language.until(lambda: len(fake.language.made) == 1)
    fake.lock.release()  # the agent finishes while the spare is still starting
    assert await asyncio.wait_for(request, STEP_S) == "warm"
    assert pool.spare_of(ws_of(fake)) is not None  # still starting, for the next contention


async def test_a_moved_environment_replaces_the_spare(pool: SparePool) -> None:
    fake = FakeWorkspace()
    await fake.lock.acquire()
    first = asyncio.ensure_future(_use_lane(pool, fake))
    await fake.language.until(lambda: len(fake.language.made) == 1)
    fake.language.made[0].go.set()
    assert await asyncio.wait_for(first, STEP_S) == "spare"
    fake.fingerprint = "env-2"  # e.g. a package installed
    second = asyncio.ensure_future(_use_lane(pool, fake))
    await fake.language.until(lambda: len(fake.language.made) == 2)
    fake.language.made[1].go.set()
    assert await asyncio.wait_for(second, STEP_S) == "spare"
    await fake.language.until(lambda: fake.language.made[0].exited)  # the old one stopped
    fake.lock.release()


@pytest.mark.parametrize("reason", ["disabled", "untrusted"])
async def test_no_spare_when_disabled_or_untrusted(reason: str) -> None:
    pool = SparePool(idle_s=0.0 if reason == "disabled" else 60.0)
    fake = FakeWorkspace(trusted=reason != "untrusted")
    await fake.lock.acquire()
    request = asyncio.ensure_future(_use_lane(pool, fake))
    await asyncio.sleep(spare_module.CONTENDED_S * 2)
    assert fake.language.made == []
    assert not request.done()
    fake.lock.release()
    assert await asyncio.wait_for(request, STEP_S) == "warm"
    await pool.stop()


async def test_a_cancelled_request_leaves_both_locks_free(pool: SparePool) -> None:
    fake = FakeWorkspace()
    await fake.lock.acquire()
    request = asyncio.ensure_future(_use_lane(pool, fake))
    await fake.language.until(lambda: len(fake.language.made) == 1)
    request.cancel()  # the editor gave up (its $/cancelRequest) while the spare starts
    with pytest.raises(asyncio.CancelledError):
        await request
    fake.lock.release()
    assert not fake.lock.locked()
    fake.language.made[0].go.set()
    spare = pool.spare_of(ws_of(fake))
    assert spare is not None
    assert not spare.lock.locked()


async def _use_lane(pool: SparePool, fake: FakeWorkspace) -> str:
    async with pool.lane(ws_of(fake)) as lane:
        return "warm" if lane.spare is None else "spare"


async def test_a_running_spare_serves_at_once_while_an_agent_holds_the_checker(
    pool: SparePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeWorkspace()
    await fake.lock.acquire()
    first = asyncio.ensure_future(_use_lane(pool, fake))
    await fake.language.until(lambda: len(fake.language.made) == 1)
    fake.language.made[0].go.set()
    assert await asyncio.wait_for(first, STEP_S) == "spare"
    # The moment an editor waits for the warm checker is now far longer than STEP_S: only a
    # request that skips it can finish in time.
    monkeypatch.setattr(spare_module, "CONTENDED_S", STEP_S * 10)
    assert await asyncio.wait_for(_use_lane(pool, fake), STEP_S) == "spare"
    assert pool.served[id(fake)] == 2
    fake.lock.release()
