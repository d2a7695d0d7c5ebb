"""The workspace lock's background holder gives way to any asker at once; it never queues."""

from __future__ import annotations

import asyncio

import pytest

from prewrite_daemon.concurrency.preemptible_lock import LockBusy, PreemptibleLock

pytestmark = pytest.mark.timeout(10)


async def hold_in_background(lock: PreemptibleLock, held: asyncio.Event, log: list[str]) -> None:
    task = asyncio.current_task()
    assert task is not None
    try:
        async with lock.background(task.cancel):
            held.set()
            await asyncio.Event().wait()  # only a preemption ends this
    except asyncio.CancelledError:
        log.append("preempted")
        raise


@pytest.mark.parametrize("urgent", [False, True])
async def test_an_asker_preempts_the_background_holder_and_gets_the_lock(urgent: bool) -> None:
    lock = PreemptibleLock()
    held, log = asyncio.Event(), list[str]()
    background = asyncio.create_task(hold_in_background(lock, held, log))
    await held.wait()
    assert lock.held_in_background

    await lock.acquire(urgent=urgent)  # would wait forever without the preemption
    assert log == ["preempted"]
    assert background.cancelled()
    assert lock.locked()
    assert not lock.held_in_background
    lock.release()
    assert not lock.locked()


async def test_background_work_does_not_start_on_a_held_lock() -> None:
    lock = PreemptibleLock()
    await lock.acquire()
    with pytest.raises(LockBusy):
        async with lock.background(lambda: None):
            pytest.fail("entered a held lock")
    lock.release()


async def test_on_free_is_told_when_a_release_leaves_the_lock_free() -> None:
    lock = PreemptibleLock()
    freed: list[bool] = []
    lock.on_free = lambda: freed.append(lock.locked())
    await lock.acquire()
    waiter = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)  # the waiter queues (one loop turn, not a wait for an event)
    lock.release()  # handed to the waiter: not free
    await waiter
    assert freed == []
    lock.release()
    assert freed == [False]


async def test_preempt_without_a_background_holder_does_nothing() -> None:
    lock = PreemptibleLock()
    lock.preempt()
    await lock.acquire()
    lock.preempt()
    assert lock.locked()
    lock.release()
