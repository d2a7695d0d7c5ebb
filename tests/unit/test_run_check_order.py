"""The first check's order (``run_check``/``plan_check`` on a real shadow, a fake backend): the
candidate is pulled first (the patched files while the plan is made, the graph held at a gate), the
base only for files whose candidate has diagnostics, once the overlays are reverted.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from prewrite import change_file, new_file
from prewrite_daemon.backends.pyright_command import checker_version
from prewrite_daemon.checker import run_check
from prewrite_daemon.languages.python.language import PythonEnvironment
from tests.support.fake_backend import toy_check
from tests.unit.run_check_helpers import (
    CORE,
    FILES,
    LONG_S,
    Setup,
    assert_clean,
    make_setup,
    watching,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.languages.base import DependencyGraph


async def test_a_clean_candidate_needs_no_base(tmp_path: Path) -> None:
    s = make_setup(tmp_path, {**FILES, "pkg/core.py": CORE.replace('"BAD"', '"OK"')})
    patch = s.patch(change_file(s.root, "pkg/other.py", "VALUE = 2\n"))
    reply = await run_check(s.ctx, patch, LONG_S)
    assert reply.ok
    assert s.fake.pulled() == ["pkg/other.py"]  # one pass: nothing to compare it with
    assert s.ctx.base_cache == {}
    assert_clean(s)


def gated_graph(s: Setup, calls: list[str]) -> tuple[asyncio.Event, asyncio.Event]:
    """``s.ctx`` gets its graph only once the second event is set (a graph being built); the
    first is set when the check asks for it."""
    asked, built = asyncio.Event(), asyncio.Event()

    async def ready() -> DependencyGraph:
        calls.append("graph asked")
        asked.set()
        await built.wait()
        calls.append("graph given")
        return s.graph

    s.ctx.graph, s.ctx.graph_ready = None, ready
    return asked, built


async def test_the_patched_files_are_pulled_while_the_graph_is_built(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    calls: list[str] = []
    _, built = gated_graph(s, calls)
    first_pull = asyncio.Event()

    def script(rel: str, text: str, view: Callable[[str], str | None]) -> list[RawDiagnostic]:
        calls.append(f"pull {rel}")
        first_pull.set()
        return toy_check(rel, text, view)

    s.fake.script = script
    renamed = CORE.replace("def helper", "def helper2")
    task = asyncio.create_task(
        run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", renamed)), LONG_S)
    )
    await first_pull.wait()
    built.set()
    reply = await task
    # The patched file before the graph was given; the importer the plan adds after it.
    assert calls.index("pull pkg/core.py") < calls.index("graph given")
    assert calls[calls.index("graph given") + 1 :] == [
        "pull pkg/user.py",
        "pull pkg/core.py",  # then the bases, where the candidate has diagnostics
        "pull pkg/user.py",
    ]
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("pkg/user.py", "fake-missing-name")]
    assert_clean(s)


async def test_a_patch_that_may_lay_data_is_pulled_once_planned(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    calls: list[str] = []
    asked, built = gated_graph(s, calls)
    s.fake.script = watching(lambda: calls.append("pull"), [])
    patch = s.patch(
        change_file(s.root, "pkg/other.py", "VALUE = 2\n"), new_file("pkg/data.json", "{}\n")
    )
    task = asyncio.create_task(run_check(s.ctx, patch, LONG_S))
    await asked.wait()
    assert "pull" not in calls  # a data file a source imports must be laid first
    built.set()
    assert (await task).ok
    assert calls == ["graph asked", "graph given", "pull"]
    assert_clean(s)


async def test_a_body_edit_is_judged_without_waiting_for_the_graph(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    calls: list[str] = []
    gated_graph(s, calls)  # never built during this check
    body = CORE.replace("x + 1", "x + 2")
    reply = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", body)), LONG_S)
    assert reply.ok
    assert calls == []  # the graph was never asked for
    assert s.ctx.plan is not None
    assert s.ctx.plan.pruned_later  # what it pruned (user.py) is the graph's to say, later
    assert_clean(s)


async def test_a_dead_store_waits_for_the_graph_only_where_the_checker_is_not_known(
    tmp_path: Path,
) -> None:
    """``CheckContext.env`` reaches the graph-free plan: with pyright 1.1.414 judging, a dead
    store in an unannotated function is planned without the graph (``names.dead_stores``)."""
    unannotated = "def helper(x):\n    return x + 1\n"
    stored = unannotated.replace("    return", "    _salt = 'run 1'\n    return")
    for env, waits in ((PythonEnvironment(tmp_path, "python3", None, [], checker_version()),
                        False), (None, True)):  # fmt: skip
        where = tmp_path / ("waits" if waits else "planned")
        where.mkdir()
        s = make_setup(where, {**FILES, "pkg/core.py": unannotated})
        calls: list[str] = []
        _, built = gated_graph(s, calls)
        built.set()  # given at once if asked for: the calls say whether it was
        s.ctx.env = env
        reply = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", stored)), LONG_S)
        assert reply.ok
        assert (calls != []) is waits
        assert s.ctx.plan is not None
        assert s.ctx.plan.pruned_later is not waits
        assert_clean(s)
