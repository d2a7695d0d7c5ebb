"""``plan_check`` with narrowing off: every transitive importer of every patched file.

The reference a narrowed plan must agree with (the idle re-check and the differential fuzzer use
it): whatever the patch changes, each file that imports a patched one, directly or through
another, is compared; files that import none of them are not. A narrowed plan names what it
pruned; a planner that never returns is not waited for past its budget (``plan_off_loop``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, delete_file
from prewrite_daemon.check.patch import prepare_patch
from prewrite_daemon.check.planning import Planner, plan_off_loop
from prewrite_daemon.checker import plan_check
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.limits import Deadline
from tests.support.fake_graphs import PruningGraph
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite_daemon.languages.base import DependencyGraph

pytestmark = pytest.mark.timeout(30)

CORE = "def helper(x: int) -> int:\n    return x + 1\n"
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": CORE,
    "pkg/user.py": "from pkg.core import helper\n\n\ndef use() -> int:\n    return helper(1)\n",
    "pkg/far.py": "from pkg.user import use\n\nVALUE = use()\n",
    "pkg/other.py": "VALUE = 1\n",
}


def graph_of(root: Path) -> DependencyGraph:
    write(root, FILES)
    graph = PYTHON.new_graph(root, None)
    for rel, text in FILES.items():
        graph.update(rel, text)
    return graph


def test_a_body_edit_plans_every_transitive_importer_without_narrowing(tmp_path: Path) -> None:
    graph = graph_of(tmp_path)
    patch = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", CORE + "# more\n")])
    narrowed = plan_check(patch, graph, PYTHON)
    wide = plan_check(patch, graph, PYTHON, narrowing=False)
    assert narrowed.checked == ("pkg/core.py",)  # the interface is the same: nothing else
    assert wide.checked == ("pkg/core.py", "pkg/far.py", "pkg/user.py")


def test_a_deleted_module_plans_its_importers_not_itself(tmp_path: Path) -> None:
    graph = graph_of(tmp_path)
    patch = prepare_patch(tmp_path, [delete_file(tmp_path, "pkg/user.py")])
    assert plan_check(patch, graph, PYTHON, narrowing=False).checked == ("pkg/far.py",)


class StuckGraph(PruningGraph):
    """A planner that ignores its deadline: ``affected`` returns only when released."""

    def __init__(self, real: DependencyGraph) -> None:
        super().__init__(real)
        self.release = threading.Event()

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        del changes, deadline
        self.release.wait(30)
        return set()


async def test_a_planner_that_ignores_its_deadline_is_not_waited_for(tmp_path: Path) -> None:
    graph = StuckGraph(graph_of(tmp_path))
    renamed = CORE.replace("def helper", "def helper2")
    patch = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", renamed)])
    planner = Planner(graph, PYTHON, None, budget_s=0.2)
    try:
        plan = await plan_off_loop(planner, patch, Deadline(30))
    finally:
        graph.release.set()
    assert plan.fallback_ms is not None
    assert plan.fallback_ms >= 200
    assert plan.checked == ("pkg/core.py", "pkg/far.py", "pkg/user.py")
    assert plan.pruned == ()


class DeafGraph(PruningGraph):
    """A planner that never looks at its deadline: ``affected`` spins (pure Python) forever."""

    def __init__(self, real: DependencyGraph) -> None:
        super().__init__(real)
        self.ended = threading.Event()

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        del changes, deadline
        try:
            while True:
                self.narrowed += 1
        finally:
            self.ended.set()


async def test_a_planner_deaf_to_its_deadline_is_interrupted_not_left_running(
    tmp_path: Path,
) -> None:
    graph = DeafGraph(graph_of(tmp_path))
    renamed = CORE.replace("def helper", "def helper2")
    patch = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", renamed)])
    plan = await plan_off_loop(Planner(graph, PYTHON, None, budget_s=0.2), patch, Deadline(30))
    assert plan.fallback_ms is not None
    assert plan.checked == ("pkg/core.py", "pkg/far.py", "pkg/user.py")
    assert graph.ended.wait(10)  # interrupted: the loop was left, not spinning on


async def test_a_planner_that_fails_widens(tmp_path: Path) -> None:
    class Failing(PruningGraph):
        def affected(
            self,
            changes: Sequence[tuple[str, str | None, str | None]],
            deadline: float | None = None,
        ) -> set[str]:
            raise RecursionError("a planner bug")

    graph = Failing(graph_of(tmp_path))
    renamed = CORE.replace("def helper", "def helper2")
    patch = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", renamed)])
    plan = await plan_off_loop(Planner(graph, PYTHON, None), patch, Deadline(30))
    assert plan.checked == ("pkg/core.py", "pkg/far.py", "pkg/user.py")
    assert plan.fallback_ms is not None


def test_a_narrowed_plan_names_what_it_pruned(tmp_path: Path) -> None:
    graph = graph_of(tmp_path)
    patch = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", CORE + "# more\n")])
    assert plan_check(patch, PruningGraph(graph), PYTHON).pruned == ("pkg/far.py", "pkg/user.py")
