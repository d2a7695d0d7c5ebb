"""The workspace lock: one holder, urgent waiters first, FIFO within a class, cancellation safe."""

from __future__ import annotations

import asyncio

import pytest

from prewrite_daemon.concurrency.priority_lock import PriorityLock


async def test_urgent_waiters_go_before_normal_ones_in_order() -> None:
    lock = PriorityLock()
    order: list[str] = []
    await lock.acquire()

    async def take(name: str, urgent: bool) -> None:
        await lock.acquire(urgent)
        order.append(name)
        await asyncio.sleep(0)
        lock.release()

    tasks = [
        asyncio.ensure_future(take("agent1", False)),
        asyncio.ensure_future(take("agent2", False)),
        asyncio.ensure_future(take("editor1", True)),
        asyncio.ensure_future(take("editor2", True)),
    ]
    await asyncio.sleep(0)
    assert lock.waiting() == 4
    lock.release()
    await asyncio.gather(*tasks)
    assert order == ["editor1", "editor2", "agent1", "agent2"]
    assert not lock.locked()


async def test_a_cancelled_waiter_never_keeps_the_lock() -> None:
    lock = PriorityLock()
    await lock.acquire()
    waiter = asyncio.ensure_future(lock.acquire(urgent=True))
    later = asyncio.ensure_future(lock.acquire())
    await asyncio.sleep(0)
    lock.release()  # handed to the urgent waiter...
    waiter.cancel()  # ...which is cancelled before it runs: the lock moves on
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert await asyncio.wait_for(later, 1.0)
    lock.release()
    assert not lock.locked()


async def test_first_is_a_context_manager_that_always_releases() -> None:
    lock = PriorityLock()

    async def fail_holding() -> None:
        async with lock.first():
            assert lock.locked()
            raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        await fail_holding()
    assert not lock.locked()
    async with lock:
        assert lock.locked()
    with pytest.raises(RuntimeError):
        lock.release()
