"""A workspace's graph rebuilt off the loop when needed: never seen half-built, changes kept.

The graphs here record what they were told, and a gate (a ``threading.Event``) holds the build
thread inside ``update`` until the test has done what it wants to do meanwhile: no sleeps.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.check.graph_keeper import GraphKeeper

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from prewrite_daemon.languages.base import DependencyGraph

pytestmark = pytest.mark.timeout(30)

TEXTS: list[tuple[str, str | None]] = [("a.py", "import b\n"), ("b.py", "X = 1\n")]


def made(graph: DependencyGraph) -> Callable[[], DependencyGraph]:
    return lambda: graph


class RecordingGraph:
    """A ``DependencyGraph`` that records its updates; ``gate`` (if any) holds each one."""

    def __init__(self, gate: threading.Event | None = None, fail_on: str | None = None) -> None:
        self.texts: dict[str, str] = {}
        self.updates: list[tuple[str, str | None]] = []
        self.gate = gate
        self.fail_on = fail_on
        self.entered = threading.Event()  # set when the first update starts

    def update(self, rel: str, source: str | None) -> None:
        self.entered.set()
        if self.gate is not None:
            self.gate.wait()
        if rel == self.fail_on:
            raise ValueError(f"cannot summarise {rel}")
        self.updates.append((rel, source))
        if source is None:
            self.texts.pop(rel, None)
        else:
            self.texts[rel] = source

    def importers(self, rels: Iterable[str], transitive: bool = True) -> set[str]:
        del rels, transitive
        return set()

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        del changes, deadline
        return set()

    def files(self) -> set[str]:
        return set(self.texts)

    def order_sensitive(self) -> bool:
        return False


async def test_a_rebuild_waits_until_needed_and_ready_gives_it_complete() -> None:
    built: list[DependencyGraph] = []
    keeper = GraphKeeper(RecordingGraph(), built.append)
    fresh = RecordingGraph()
    makes: list[DependencyGraph] = []

    def make() -> DependencyGraph:
        makes.append(fresh)  # a Python graph starts the Protocol caches' lookup here
        return fresh

    keeper.rebuild(make, TEXTS)
    assert keeper.built is None
    assert (makes, fresh.updates) == ([], [])  # pending: not even made, nobody needed it
    assert await keeper.ready() is fresh
    assert fresh.updates == TEXTS
    assert keeper.built is fresh
    assert built == makes == [fresh]


async def test_start_builds_it_in_the_background_and_tells_when_done() -> None:
    done = asyncio.Event()
    built: list[DependencyGraph] = []

    def tell(graph: DependencyGraph) -> None:
        built.append(graph)
        done.set()

    keeper = GraphKeeper(RecordingGraph(), tell)
    fresh = RecordingGraph()
    keeper.rebuild(made(fresh), TEXTS)
    keeper.start()
    await done.wait()  # nobody asked for it: the keeper publishes it by itself
    assert built == [fresh]
    assert keeper.built is fresh


async def test_changes_during_the_build_are_applied_after_it_in_order() -> None:
    gate = threading.Event()
    keeper = GraphKeeper(RecordingGraph())
    fresh = RecordingGraph(gate)
    keeper.rebuild(made(fresh), TEXTS)
    keeper.start()
    keeper.update("b.py", "X = 2\n")  # a sync while the thread is held in its first update
    keeper.update("c.py", "Y = 1\n")
    keeper.update("c.py", None)
    assert fresh.updates == []  # nobody touched the graph being built
    gate.set()
    graph = await keeper.ready()
    assert graph is fresh
    assert fresh.updates == [*TEXTS, ("b.py", "X = 2\n"), ("c.py", "Y = 1\n"), ("c.py", None)]
    assert fresh.texts == {"a.py": "import b\n", "b.py": "X = 2\n"}
    keeper.update("a.py", None)  # built: changes go straight in
    assert fresh.texts == {"b.py": "X = 2\n"}


async def test_current_waits_for_the_build_instead_of_answering_half_built() -> None:
    gate = threading.Event()
    keeper = GraphKeeper(RecordingGraph())
    fresh = RecordingGraph(gate)
    keeper.rebuild(made(fresh), TEXTS)
    keeper.update("c.py", "Y = 1\n")
    keeper.start()
    fresh.entered.wait()
    # The thread finishes while ``current`` waits for it (a reader outside a check).
    releaser = threading.Thread(target=gate.set)
    releaser.start()
    assert keeper.current is fresh
    releaser.join()
    assert fresh.files() == {"a.py", "b.py", "c.py"}
    assert await keeper.ready() is fresh  # nothing left to wait for


async def test_a_newer_rebuild_supersedes_the_one_under_way() -> None:
    gate = threading.Event()
    keeper = GraphKeeper(RecordingGraph())
    old, new = RecordingGraph(gate), RecordingGraph()
    keeper.rebuild(made(old), TEXTS)
    keeper.start()
    old.entered.wait()
    keeper.update("stale.py", "Z = 1\n")  # queued for the old build: dropped with it
    keeper.rebuild(made(new), TEXTS[:1])
    gate.set()
    assert await keeper.ready() is new
    assert new.updates == TEXTS[:1]


async def test_a_build_that_fails_fails_every_wait_until_rebuilt() -> None:
    keeper = GraphKeeper(RecordingGraph())
    keeper.rebuild(made(RecordingGraph(fail_on="b.py")), TEXTS)
    for _ in range(2):
        with pytest.raises(ValueError, match=r"cannot summarise b\.py"):
            await keeper.ready()
    with pytest.raises(ValueError, match=r"cannot summarise b\.py"):
        _ = keeper.current
    fixed = RecordingGraph()
    keeper.rebuild(made(fixed), TEXTS)
    assert await keeper.ready() is fixed


async def test_stop_interrupts_the_build_and_replace_takes_over() -> None:
    gate = threading.Event()
    keeper = GraphKeeper(RecordingGraph())
    held = RecordingGraph(gate)
    keeper.rebuild(made(held), TEXTS)
    keeper.start()
    held.entered.wait()
    wrapper = RecordingGraph()
    keeper.replace(wrapper)  # a test's wrapper: the build under way is dropped
    assert keeper.built is wrapper
    assert await keeper.ready() is wrapper
    assert keeper.current is wrapper
    gate.set()  # the dropped thread ends (interrupted, or by itself): nobody sees its graph
    assert await keeper.ready() is wrapper


async def test_a_stopped_keeper_fails_whoever_waits_for_its_graph() -> None:
    gate = threading.Event()
    keeper = GraphKeeper(RecordingGraph())
    keeper.rebuild(made(RecordingGraph(gate)), TEXTS)
    keeper.start()
    waiting = asyncio.create_task(keeper.ready())  # waiting for it, or about to
    keeper.stop()  # the workspace stops
    with pytest.raises(BackendFailed, match="stopped"):
        await waiting
    gate.set()
