"""Time the planner on a large package: ``NameGraph.affected`` for one body edit, profiled.

``.venv/bin/python -m bench.planning [--tests] [--budget S] [--profile S] [--top N]``

Issue 19 item 7: on Django, a one-line body edit of ``django.utils.text.capfirst``
(unannotated, used across the package) spent minutes in the name propagation. This builds the
graph the way a workspace does (``PYTHON.new_graph`` with the workspace's layout and
environment, every source file of the tree given to ``update``), then times ``affected`` for
that edit (wall and CPU time, the size of the answer). ``--profile S`` first runs it under
cProfile, stopped after S seconds by the planning deadline, and prints the hot spots;
``--budget`` gives the timed run a deadline (the time to notice it is then what is measured).
Django 5.2.8's sdist and a venv with its two dependencies are prepared once under
``.cache/test-workloads`` (git-ignored).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.check.planning import DEFAULT_PLANNING_BUDGET_S, Planner, plan_off_loop
from prewrite_daemon.languages.base import PlanningBudgetExceeded
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.limits import Deadline
from tests.support.workloads import WorkloadSpec, copy_parts, prepare_workload

if TYPE_CHECKING:
    from prewrite_daemon.languages.base import DependencyGraph

Change = tuple[str, str | None, str | None]

DJANGO = WorkloadSpec(
    name="django",
    version="5.2.8",
    keep=("django", "tests", "pyproject.toml"),
    requirements=("asgiref==3.8.1", "sqlparse==0.5.3"),
)
TARGET = "django/utils/text.py"
BEFORE = "    return x[0].upper() + x[1:]\n"
AFTER = "    return x[:1].upper() + x[1:]\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Time NameGraph.affected on Django.")
    parser.add_argument("--tests", action="store_true", help="the checkout: tests/ too")
    parser.add_argument("--budget", type=float, default=None, help="planning deadline, seconds")
    parser.add_argument(
        "--profile", type=float, default=None, metavar="S",
        help="also profile a run stopped after S seconds (cProfile) and print the hot spots",
    )  # fmt: skip
    parser.add_argument(
        "--sample", type=float, default=None, metavar="S",
        help="sample the planner's stack every 10 ms for S seconds (a run that does not honour "
        "its deadline can only be profiled this way), print the hot frames, and stop",
    )  # fmt: skip
    parser.add_argument(
        "--off-loop", action="store_true",
        help="plan as a check does (plan_off_loop: a thread, the budget, the fallback)",
    )  # fmt: skip
    parser.add_argument("--top", type=int, default=25, help="hot spots to print")
    args = parser.parse_args()
    workload = prepare_workload(DJANGO)
    with tempfile.TemporaryDirectory(prefix="pw-plan-") as scratch:
        root = Path(scratch) / "django"
        keep = ("django", "tests", "pyproject.toml") if args.tests else ("django", "pyproject.toml")
        copy_parts(workload.root, root, keep)
        graph, change = build(root, workload.python)
        if args.off_loop:
            asyncio.run(off_loop(root, graph, change, args.budget or DEFAULT_PLANNING_BUDGET_S))
            return
        if args.sample is not None:
            sample(graph, change, args.sample, args.top)
            return
        if args.profile is not None:
            profile(graph, change, args.profile, args.top)
        timed(graph, change, args.budget)
        shutil.rmtree(root)


def build(root: Path, python: str) -> tuple[DependencyGraph, Change]:
    """The graph as a workspace builds it, and the body edit of ``capfirst``."""
    t0 = time.perf_counter()
    env = PYTHON.environment(root, python, python, trusted=True)
    graph = PYTHON.new_graph(root, env.layout(), env)
    sources = sorted(p for p in root.rglob("*") if p.is_file() and PYTHON.is_source(p.name))
    for path in sources:
        graph.update(path.relative_to(root).as_posix(), path.read_text())
    print(f"graph: {len(sources)} files in {time.perf_counter() - t0:.1f}s")
    old = (root / TARGET).read_text()
    assert BEFORE in old, "the edit no longer applies"
    t1 = time.perf_counter()
    importers = graph.importers([TARGET])
    print(f"transitive importers of {TARGET}: {len(importers)} ({time.perf_counter() - t1:.2f}s)")
    return graph, (TARGET, old, old.replace(BEFORE, AFTER, 1))


async def off_loop(root: Path, graph: DependencyGraph, change: Change, budget: float) -> None:
    """``plan_off_loop`` on the edit, as a check plans it: how long until the plan, whether it
    fell back, whether the planning thread is gone afterwards, and how long the loop stalled."""
    path, old, new = change
    patch = PreparedPatch(root, (FileEdit(path, old, new),))
    stalls: list[float] = []

    async def ticker() -> None:  # the event loop's longest gap between 10 ms ticks
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            stalls.append(now - last - 0.01)
            last = now

    tick = asyncio.create_task(ticker())
    wall = time.perf_counter()
    plan = await plan_off_loop(Planner(graph, PYTHON, None, budget_s=budget), patch, Deadline(600))
    wall = time.perf_counter() - wall
    tick.cancel()
    planners = [t for t in threading.enumerate() if t.name == "prewrite planning"]
    print(f"plan_off_loop: {wall:.2f}s wall, budget {budget}s, fallback_ms {plan.fallback_ms}, "
          f"{len(plan.checked)} file(s) checked, {len(plan.pruned)} pruned; planning threads "
          f"alive after: {sum(t.is_alive() for t in planners)}; longest loop stall "
          f"{max(stalls, default=0) * 1000:.0f} ms")  # fmt: skip


def timed(graph: DependencyGraph, change: Change, budget: float | None) -> None:
    """``affected`` unprofiled: wall and CPU time (the machine may be shared), the answer."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        found = graph.affected([change], None if budget is None else time.monotonic() + budget)
        outcome = f"{len(found)} file(s) affected"
    except PlanningBudgetExceeded:
        outcome = f"PlanningBudgetExceeded (budget {budget}s)"
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"affected: {outcome} in {wall:.1f}s wall, {cpu:.1f}s CPU")


def profile(graph: DependencyGraph, change: Change, seconds: float, top: int) -> None:
    """``affected`` under cProfile, stopped after ``seconds``: where the time goes."""
    prof = cProfile.Profile()
    try:
        prof.runcall(graph.affected, [change], time.monotonic() + seconds)
        print("profiled run: finished")
    except PlanningBudgetExceeded:
        print(f"profiled run: stopped after {seconds}s")
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    stats.print_callers(r"_resolve|_reach|visit", 10)
    print(out.getvalue())


def sample(graph: DependencyGraph, change: Change, seconds: float, top: int) -> None:
    """Run ``affected`` (no deadline) in a thread; every 10 ms, note which functions are on its
    stack (once per sample: inclusive) and how deep it is. The thread is left running."""
    done = threading.Event()

    def work() -> None:
        try:
            graph.affected([change])
        finally:
            done.set()

    thread = threading.Thread(target=work, daemon=True)
    started = time.perf_counter()
    thread.start()
    inclusive: Counter[str] = Counter()
    leaf: Counter[str] = Counter()
    depths: list[int] = []
    samples = 0
    while not done.wait(0.01) and time.perf_counter() - started < seconds:
        frame = sys._current_frames().get(thread.ident or -1)  # pyright: ignore[reportPrivateUsage]
        names: list[str] = []
        while frame is not None:
            names.append(f"{Path(frame.f_code.co_filename).name}:{frame.f_code.co_name}")
            frame = frame.f_back
        if not names:
            continue
        samples += 1
        leaf[names[0]] += 1
        inclusive.update(set(names))
        depths.append(len(names))
    elapsed = time.perf_counter() - started
    state = "finished" if done.is_set() else "still running"
    print(f"sampled {samples} stacks over {elapsed:.1f}s; affected {state}")
    if depths:
        print(f"stack depth: median {statistics.median(depths):.0f}, max {max(depths)}")
    print("on the stack (share of samples):")
    for name, n in inclusive.most_common(top):
        print(f"  {n / max(samples, 1):6.1%}  {name}")
    print("running (leaf frame):")
    for name, n in leaf.most_common(top):
        print(f"  {n / max(samples, 1):6.1%}  {name}")


if __name__ == "__main__":
    main()
