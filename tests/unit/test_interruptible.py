"""Work in a thread of its own: its result or error reaches ``wait``; a loop that never looks at
a clock is stopped by ``interrupt``, even when one interruption is swallowed."""

from __future__ import annotations

import pytest

from prewrite_daemon.concurrency.interruptible import Interrupted, InterruptibleThread

pytestmark = pytest.mark.timeout(30)


async def test_the_result_and_the_error_reach_wait() -> None:
    assert await InterruptibleThread(lambda: 42, "t").wait(10) == 42

    def fails() -> int:
        raise ValueError("planner bug")

    with pytest.raises(ValueError, match="planner bug"):
        await InterruptibleThread(fails, "t").wait(10)


async def test_a_spinning_loop_is_stopped_by_an_interruption() -> None:
    spins: list[int] = [0]

    def spin() -> None:
        while True:
            spins[0] += 1

    job = InterruptibleThread(spin, "t")
    assert await job.wait(0.05) is None  # still spinning
    job.interrupt()
    with pytest.raises(Interrupted):
        await job.wait(10)
    assert not job.running
    assert spins[0] > 0


async def test_an_interruption_swallowed_once_is_repeated() -> None:
    swallowed: list[int] = []

    def spin_swallowing_the_first() -> None:
        while True:
            try:
                while True:
                    pass
            except Interrupted:
                if swallowed:
                    raise
                swallowed.append(1)  # as a finalizer run by the collector would ("ignored")

    job = InterruptibleThread(spin_swallowing_the_first, "t")
    job.keep_interrupting(0.05)
    with pytest.raises(Interrupted):
        await job.wait(10)
    assert swallowed == [1]


async def test_interrupting_finished_work_does_nothing() -> None:
    job = InterruptibleThread(lambda: "done", "t")
    assert await job.wait(10) == "done"
    job.interrupt()
    job.keep_interrupting(0.01)
    assert not job.running
