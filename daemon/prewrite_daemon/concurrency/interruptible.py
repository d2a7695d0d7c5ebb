"""CPU-bound work off the event loop, in a thread of its own that can be interrupted.

Planning is pure Python that should stop at its deadline by itself; a planner that does not
(a recursion that never looks at the clock: seen on Django, issue 19) must not keep a core busy
for hours after its check gave up on it, nor keep the daemon from exiting. So the work runs in a
daemon thread of its own (never the shared executor, whose workers a stray would hold), and
``interrupt`` raises an exception in it at its next bytecode (CPython's
``PyThreadState_SetAsyncExc``). The work must be safe to abandon at any point: planning only
reads the graph and fills caches that are safe under interruption (``functools.lru_cache``
caches nothing for a call that raised). Whatever the thread ends with — a result, its own
exception or the interruption, even one landing as it hands its result over — reaches
``wait`` exactly once.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import threading
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

log = logging.getLogger(__name__)
T = TypeVar("T")


class Interrupted(Exception):
    """Raised inside the work by ``InterruptibleThread.interrupt``."""


class InterruptibleThread(Generic[T]):
    def __init__(self, work: Callable[[], T], name: str) -> None:
        self._work = work
        self._loop = asyncio.get_running_loop()
        # (ok, result or exception): never an exception future, whose "exception never
        # retrieved" report would run (and parse source for its carets) wherever the collector
        # happens to free it: in the middle of an ``ast.parse`` that breaks CPython 3.11's parser.
        self._outcome: asyncio.Future[tuple[bool, object]] = self._loop.create_future()
        self._guard = threading.Lock()
        self._running = True  # until the work has returned or raised (under ``_guard``)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    async def wait(self, timeout_s: float | None) -> T | None:
        """The work's result (its exception raised here), or None if not done in time."""
        done, _ = await asyncio.wait({self._outcome}, timeout=timeout_s)
        if not done:
            return None
        ok, value = self._outcome.result()
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        return value  # pyright: ignore[reportReturnType]

    @property
    def running(self) -> bool:
        return self._running

    def interrupt(self) -> None:
        """Raise ``Interrupted`` in the work if it is still running."""
        with self._guard:
            if not self._running or self._thread.ident is None:
                return
            hit = ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(self._thread.ident), ctypes.py_object(Interrupted)
            )
        if hit != 1:
            log.error("could not interrupt the thread %s (%d)", self._thread.name, hit)

    def keep_interrupting(self, every_s: float) -> None:
        """Interrupt now and every ``every_s`` until the work has ended: an interruption that
        lands in a finalizer the collector runs in that thread is swallowed ("Exception
        ignored"), so one is not enough. Stops by itself once the thread is done."""
        if self._running:
            self.interrupt()
            self._loop.call_later(every_s, self.keep_interrupting, every_s)

    def _run(self) -> None:
        outcome: tuple[bool, object]
        try:
            outcome = (True, self._work())
        except BaseException as exc:  # its own error, or the interruption: told to ``wait``
            outcome = (False, exc)
        while True:
            try:
                with self._guard:
                    self._running = False
                self._loop.call_soon_threadsafe(self._settle, outcome)
                return
            except Interrupted:
                continue  # the interruption landed as the work was done: hand over anyway
            except RuntimeError:
                return  # the loop is closed: nobody waits any more

    def _settle(self, outcome: tuple[bool, object]) -> None:
        if not self._outcome.done():
            self._outcome.set_result(outcome)
