"""A plan made before the workspace's graph is built: only where the graph could not change it.

A patch that leaves every patched module's interface alone compares the patched files alone
(``plan_without_graph``); what it prunes is every importer of them, which the graph says later
(``pruned_importers``): together the same plan ``plan_check`` makes with the graph. Anything the
graph decides (an interface change, an added or deleted module, a possible data file, narrowing
off) is left to ``plan_check``: None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, delete_file, new_file
from prewrite_daemon.backends.pyright_command import checker_version
from prewrite_daemon.check.patch import prepare_patch
from prewrite_daemon.check.planning import (
    plan_before_graph,
    plan_check,
    plan_without_graph,
    pruned_importers,
)
from prewrite_daemon.check.scope import CheckerScope
from prewrite_daemon.languages.python.language import PYTHON, PythonEnvironment
from prewrite_daemon.limits import Deadline
from tests.support.setups import write

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import FileChange
    from prewrite_daemon.languages.base import DependencyGraph

pytestmark = pytest.mark.timeout(30)

CORE = "def helper(x: int) -> int:\n    return x + 1\n"
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": CORE,
    "pkg/user.py": "from pkg.core import helper\n\n\ndef use() -> int:\n    return helper(1)\n",
    "pkg/far.py": "from pkg.user import use\n\nVALUE = use()\n",
    "tools/script.py": "from pkg.core import helper\n\nprint(helper(2))\n",
}


def graph_of(root: Path) -> DependencyGraph:
    write(root, FILES)
    graph = PYTHON.new_graph(root, None)
    for rel, text in FILES.items():
        graph.update(rel, text)
    return graph


def test_a_body_edit_is_planned_without_the_graph_as_with_it(tmp_path: Path) -> None:
    graph = graph_of(tmp_path)
    scope = CheckerScope.from_settings({"include": ["pkg"]}, tmp_path)
    patch = prepare_patch(
        tmp_path,
        [
            change_file(tmp_path, "pkg/core.py", CORE.replace("x + 1", "x + 2")),
            change_file(tmp_path, "tools/script.py", FILES["tools/script.py"] + "# more\n"),
        ],
    )
    quick = plan_without_graph(patch, PYTHON, scope)
    full = plan_check(patch, graph, PYTHON, scope)
    assert quick is not None
    assert quick.pruned_later
    assert (quick.checked, quick.out_of_scope) == (full.checked, full.out_of_scope)
    assert (quick.checked, quick.out_of_scope) == (("pkg/core.py",), ("tools/script.py",))
    later = pruned_importers([e.path for e in quick.source_edits], graph, scope)
    assert later == full.pruned == ("pkg/far.py", "pkg/user.py")  # tools/ is out of scope


@pytest.mark.parametrize(
    "kind", ["signature", "new module", "deleted module", "data file", "narrowing off"]
)
def test_what_the_graph_decides_is_left_to_it(tmp_path: Path, kind: str) -> None:
    write(tmp_path, FILES)
    changes: dict[str, list[FileChange]] = {
        "signature": [change_file(tmp_path, "pkg/core.py", CORE.replace("(x: int)", "(x: str)"))],
        "new module": [new_file("pkg/extra.py", "X = 1\n")],
        "deleted module": [delete_file(tmp_path, "pkg/far.py")],
        "data file": [
            change_file(tmp_path, "pkg/core.py", CORE + "# more\n"),
            new_file("pkg/data.json", "{}\n"),
        ],
        "narrowing off": [change_file(tmp_path, "pkg/core.py", CORE + "# more\n")],
    }
    patch = prepare_patch(tmp_path, changes[kind])
    assert plan_without_graph(patch, PYTHON, narrowing=kind != "narrowing off") is None


async def test_planning_before_the_graph_runs_within_its_budget(tmp_path: Path) -> None:
    write(tmp_path, FILES)
    body = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", CORE + "# more\n")])
    plan = await plan_before_graph(body, Deadline(30), PYTHON, None)
    assert plan is not None
    assert plan.checked == ("pkg/core.py",)
    renamed = CORE.replace("def helper", "def helper2")
    signature = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", renamed)])
    assert await plan_before_graph(signature, Deadline(30), PYTHON, None) is None


async def test_a_dead_store_is_planned_without_the_graph_where_the_checker_is_modelled(
    tmp_path: Path,
) -> None:
    """The first such edit after a start need not wait for the graph (issue 24: on Django it
    waited 10.6 s); where the checker is not known, or not modelled, it still does."""
    unannotated = "def helper(x):\n    return x + 1\n"
    write(tmp_path, {**FILES, "pkg/core.py": unannotated})
    stored = unannotated.replace("    return", "    _salt = 'run 1'\n    return")
    patch = prepare_patch(tmp_path, [change_file(tmp_path, "pkg/core.py", stored)])
    env = PythonEnvironment(tmp_path, "python3", None, [], checker_version())
    plan = await plan_before_graph(patch, Deadline(30), PYTHON, None, env=env)
    assert plan is not None
    assert plan.checked == ("pkg/core.py",)
    assert plan.pruned_later
    assert await plan_before_graph(patch, Deadline(30), PYTHON, None) is None
    older = PythonEnvironment(tmp_path, "python3", None, [], "pyright 1.1.390")
    assert await plan_before_graph(patch, Deadline(30), PYTHON, None, env=older) is None
