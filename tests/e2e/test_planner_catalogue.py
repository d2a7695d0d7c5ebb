"""The planner's adversarial catalogue, judged against cold pyright at two levels.

Each case (``tests/support/planner_catalogue``) is a small tree and a patch written to tempt the
narrowing: Protocols in every spelling, enums typed from a mixin, abstractness carried by a
mixin, subclasses inside functions, decorators judged by name, stub packages, PEP 695, and the
rest. The truth is computed here, by cold pyright on the base and the patched tree:

- planner: ``checker.plan_check`` on the graph a warm workspace builds must keep every file
  whose cold diagnostics differ (a pruned one is a possible wrong green);
- warm daemon: the whole ladder's answer must hold exactly the diagnostics cold pyright says
  the patch introduces, and be green exactly when none is an error.

A known miss is a strict xfail naming the rule that misses (``Case.miss``, ``Case.warm``): the
day the rule is fixed the test says so.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from tests.support.oracle import surplus
from tests.support.planner_case import group_cases
from tests.support.planner_catalogue import CATALOGUE
from tests.support.planner_newer_python import (
    PlannerUnavailable,
    check_importable,
    newer_python,
    plan_under,
    with_msgspec,
)
from tests.support.planner_plan import Planner
from tests.support.planner_truth import GroupTruth, existing_after, submit_layout
from tests.support.planner_warm import WarmAnswer, WarmChecker

if TYPE_CHECKING:
    from tests.support.planner_case import Case, Layout

pytestmark = pytest.mark.e2e

LAYOUTS = group_cases(CATALOGUE)
# Known misses today, case -> the rule that misses; each is a strict xfail of the planner on the
# daemon's Python and of the warm answer (a pruned file whose new error nobody reports).
TRIVIAL = (
    "imports._is_trivial/symbols._is_trivial: a body is unimplemented for pyright when it is "
    "only `...` and strings or always raises NotImplementedError; `pass` and a docstring are "
    "implemented"
)
REEXPORTED_TYPEALIAS = (
    "symbols: TypeAlias under a name a workspace module re-exports keeps the value in the region"
)
CYCLE = (
    "name_deps: pyright's cycle report counts `import pkg.m` and `from pkg import m` (`from . "
    "import m`) as importing pkg/__init__.py, `from pkg.m import x` and `import pkg.m as m` not; "
    "the planner takes every prefix as imported and saw the cycle in the base already"
)
MISSES: dict[str, str] = {}
# (level, case) -> the rule: "planner" (the daemon's Python), "newer" (the planner on Python
# 3.12+, run only where one is installed and the planner imports there), "warm" (the answer).
# Cases the plan keeps but the warm answer still differs from cold pyright's, and why.
WARM_ONLY = {
    "fuzz_package_shadows_module_own_diagnostics": (
        "pyright: the CLI reports '\"Final\" is not allowed in this context' in a module a new "
        "package shadows; the language server, with that module in the plan, does not"
    ),
}
KNOWN: dict[tuple[str, str], str] = {
    **{("planner", case): rule for case, rule in MISSES.items()},
    **{("newer", case): rule for case, rule in MISSES.items()},
    **{("warm", case): rule for case, rule in {**MISSES, **WARM_ONLY}.items()},
}


@dataclass(frozen=True)
class Judged:
    layout: Layout
    truth: GroupTruth
    python: str
    planner: Planner


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory, python_exe: str) -> dict[str, Judged]:
    """Every tree of cases, judged cold (two pyright runs per tree) and planned. The cold runs
    of every tree are queued at once, two at a time, and the planners built while they run."""
    out: dict[str, Judged] = {}
    with ThreadPoolExecutor(2) as pool:
        wheres = {group: tmp_path_factory.mktemp(group) for group in LAYOUTS}
        truths = {
            group: submit_layout(pool, layout, wheres[group], python_exe)
            for group, layout in LAYOUTS.items()
        }
        for group, layout in LAYOUTS.items():
            base_root = wheres[group] / "base"
            python = layout.python(base_root, python_exe)
            planner = Planner(base_root, python, wheres[group] / "sh")
            out[group] = Judged(layout, truths[group](), python, planner)
    return out


@pytest.fixture(scope="module")
def warm(
    judged: dict[str, Judged], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, WarmAnswer]:
    """Every case's patch checked by the warm daemon (one pyright per tree)."""
    state = tmp_path_factory.mktemp("state")

    async def run() -> dict[str, WarmAnswer]:
        checker = WarmChecker(state)
        answers: dict[str, WarmAnswer] = {}
        try:
            for j in judged.values():
                for case in j.layout.cases:
                    answers[case.name] = await checker.check(
                        j.truth.base_root, j.python, case.edits()
                    )
        finally:
            await checker.close()
        return answers

    return asyncio.run(run())


def _params(level: str) -> list[object]:
    """Every case, a strict xfail where ``KNOWN`` names the rule that misses it at ``level``."""
    params: list[object] = []
    for case in CATALOGUE:
        reason = KNOWN.get((level, case.name))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(case, id=case.name, marks=marks))
    return params


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", _params("planner"))
def test_the_plan_keeps_every_file_whose_cold_diagnostics_change(
    case: Case, judged: dict[str, Judged]
) -> None:
    j = judged[case.group]
    differing = j.truth.cases[case.name].differing(existing_after(case))
    patched = {rel for rel, _, _ in case.edits()}
    if case.changes:  # the case tempts the planner only if another file sees the patch
        assert differing - patched, (
            f"cold pyright sees no change elsewhere\n{j.layout.render(case)}"
        )
    plan = j.planner.plan(case.edits())
    pruned = sorted(differing - plan)
    assert not pruned, f"pruned {pruned} (rule: {case.rule})\n{j.layout.render(case)}"


@pytest.fixture(scope="module")
def newer_plans(judged: dict[str, Judged]) -> dict[str, set[str]]:
    """Every case planned by a Python that parses PEP 695 (3.12+), where there is one."""
    python = newer_python()
    if python is None:
        pytest.skip("no Python 3.12 or later here to run the planner with")
    plans: dict[str, set[str]] = {}
    try:
        python = with_msgspec(python)
        check_importable(python)  # before the planners' Protocols are waited for
        for j in judged.values():
            cases = {c.name: c.edits() for c in j.layout.cases}
            plans.update(plan_under(python, j.planner, cases))
    except PlannerUnavailable as exc:
        pytest.skip(str(exc))
    return plans


@pytest.mark.slow  # a second interpreter's planner: `make test-slow` (CI runs it)
@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", _params("newer"))
def test_the_plan_on_a_newer_python_keeps_them_too(
    case: Case, judged: dict[str, Judged], newer_plans: dict[str, set[str]]
) -> None:
    j = judged[case.group]
    differing = j.truth.cases[case.name].differing(existing_after(case))
    pruned = sorted(differing - newer_plans[case.name])
    assert not pruned, f"pruned {pruned} (rule: {case.rule})\n{j.layout.render(case)}"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", _params("warm"))
def test_the_warm_daemon_answers_what_cold_pyright_finds(
    case: Case, judged: dict[str, Judged], warm: dict[str, WarmAnswer]
) -> None:
    j = judged[case.group]
    cold = j.truth.cases[case.name].introduced
    answer = warm[case.name]
    only_warm, only_cold = surplus(answer.diagnostics, cold), surplus(cold, answer.diagnostics)
    red = any(d.severity == "error" for d in cold)
    assert (only_warm, only_cold, answer.ok) == ([], [], not red), (
        f"warm ok={answer.ok} (failed rung {answer.failed_rung}), cold red={red}\n"
        f"only warm: {only_warm}\nonly cold: {only_cold}\n{j.layout.render(case)}"
    )
