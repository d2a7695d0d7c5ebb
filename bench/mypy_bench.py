"""mypy as the judge: prewrite's warm check vs the cold ``mypy`` CLI vs dmypy's own warm re-check.

On a workload that configures mypy (httpx, pytest), a second staged copy names mypy as its only
checker (``[tool.prewrite] typecheck = ["mypy"]``); the same seeded patches as the pyright bench
are measured three ways, side by side in one run:
- cold: ``mypy`` (the daemon's command line, ``backends.mypy_command.cli_argv``) on the patched
  tree written to a temporary copy — what a loop without prewrite pays per check;
  the copy is trusted (``bench.trusting``), so the mypy that judges, cold and warm, is the one
  the daemon picks for a trusted workspace (``judge``): the workload's own where its venv has one
  (pytest: the mypy 1.11.2 its CI pins), else prewrite's;
- prewrite: a private daemon's first check (dmypy started, the whole tree checked) and its warm
  ``Client.check`` p50 per patch kind (salted per run, so no answer is cached);
- dmypy: the bench's peer (``bench.peer``), mypy's daemon re-checking the patched tree: the floor
  a warm mypy check cannot beat (its own client and re-check, no ladder, no diff).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.measure import IGNORED, Budget, write_changes
from bench.processes import summarize
from bench.trusting import environment_folder, trusting
from prewrite.client import Client
from prewrite_daemon.backends.mypy_command import MypyTool, cli_argv
from prewrite_daemon.languages.checkers import mypy_config_file
from prewrite_daemon.languages.python.mypy import MYPY, targets
from prewrite_daemon.languages.readers import disk_reader

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from bench.patches import BenchPatch
    from bench.workloads import Staged

KINDS = ("body_1", "signature")  # a 1-file body edit; an interface change importers see
MYPY_ONLY = 'typecheck = ["mypy"]'
CLI_TIMEOUT_S = 600.0


def stage_mypy(staged: Staged, dest: Path) -> Path:
    """A copy of the staged workload judged by mypy alone."""
    shutil.copytree(staged.root, dest, ignore=IGNORED)
    pyproject = dest / "pyproject.toml"
    text = pyproject.read_text()
    pyproject.write_text(text.replace('typecheck = ["pyright"]', MYPY_ONLY))
    if MYPY_ONLY not in pyproject.read_text():
        raise RuntimeError(f"{staged.name}: could not name mypy in {pyproject}")
    return dest


@dataclass(frozen=True)
class Judge:
    """The mypy that judges a trusted workspace, with CI's targets and flags, as the daemon
    finds them (``MypyLanguage.environment``)."""

    tool: MypyTool
    targets: list[str]
    flags: tuple[str, ...]


def judge(root: Path, python: str) -> Judge:
    """Asked of the language object itself, so the bench cannot drift from the daemon's pick."""
    env = MYPY.environment(root, python, python, trusted=True)
    return Judge(env.tool, targets(root, None, env.ci), env.ci.flags)


def configures_mypy(root: Path) -> bool:
    """Whether the workspace's configuration chooses mypy (as the daemon reads it)."""
    return mypy_config_file(disk_reader(root)) is not None


def trusted(root: Path, python: str, work: Path) -> AbstractContextManager[None]:
    """Daemons started in the block trust ``root`` and the venv of ``python``."""
    return trusting([root, environment_folder(python)], work / "trusted")


def cold_mypy_ms(root: Path, python: str, changes: list[Any]) -> float:
    """One cold ``mypy`` run on ``root`` with ``changes`` written to a temporary copy."""
    with tempfile.TemporaryDirectory(prefix="pwb-mypy-", dir="/tmp") as tmp:
        tree = Path(tmp) / "tree"
        shutil.copytree(root, tree, ignore=IGNORED)
        write_changes(tree, changes)
        found = judge(tree, python)
        argv = cli_argv(found.tool, python, found.targets, found.flags)
        t = time.perf_counter()
        done = subprocess.run(
            argv, cwd=tree, capture_output=True, timeout=CLI_TIMEOUT_S, check=False
        )
        ms = (time.perf_counter() - t) * 1000
    if done.returncode not in (0, 1):
        raise RuntimeError(f"cold mypy exited {done.returncode}: {done.stderr[-2000:]!r}")
    return ms


def measure_mypy(
    staged: Staged, patches: list[BenchPatch], runs: int, work: Path
) -> dict[str, Any]:
    """Cold mypy and prewrite's warm mypy check per patch kind (the dmypy peer is measured by
    ``bench.peer`` in the same run, on the same patches)."""
    root = stage_mypy(staged, work / "ws")
    chosen = [p for p in patches if p.kind in KINDS]
    out: dict[str, Any] = {"cold": {}, "warm": {}}
    for p in chosen:
        out["cold"][p.kind] = round(cold_mypy_ms(root, staged.python, list(p.salted(0))), 1)
        print(f"    mypy cold {p.kind}: {out['cold'][p.kind]:.0f} ms", flush=True)
    with trusted(root, staged.python, work), Client() as client:
        try:
            t = time.perf_counter()
            first = client.check(str(root), list(chosen[0].salted(0)), python=staged.python,
                                 timeout_s=CLI_TIMEOUT_S)  # fmt: skip
            out["first_check_ms"] = round((time.perf_counter() - t) * 1000, 1)
            out["checker"] = next((v for v in first.verified if "judged by mypy" in v), "")
            for p in chosen:
                times: list[float] = []
                for run in Budget(runs, seconds=20.0):
                    t = time.perf_counter()
                    reply = client.check(str(root), list(p.salted(run)), python=staged.python,
                                         timeout_s=CLI_TIMEOUT_S)  # fmt: skip
                    times.append((time.perf_counter() - t) * 1000)
                    if not any("judged by mypy" in v for v in reply.verified):
                        raise RuntimeError(f"{p.kind}: not judged by mypy: {reply.verified}")
                out["warm"][p.kind] = summarize(times)
                print(f"    mypy warm {p.kind}: p50 {out['warm'][p.kind]['p50']:.0f} ms "
                      f"({len(times)} runs)", flush=True)  # fmt: skip
        finally:
            client.stop()  # the daemon this phase started: none is left behind
    return out


def ratios(mypy: dict[str, Any], dmypy: dict[str, Any] | None) -> dict[str, dict[str, float]]:
    """Per kind: cold / warm (how much faster prewrite is) and warm / dmypy (how near the floor)."""
    out: dict[str, dict[str, float]] = {}
    for kind, warm in mypy.get("warm", {}).items():
        row: dict[str, float] = {}
        cold = mypy.get("cold", {}).get(kind)
        if cold:
            row["cold_over_warm"] = round(cold / warm["p50"], 1)
        floor = _floor(dmypy, kind)
        if floor:
            row["warm_over_dmypy"] = round(warm["p50"] / floor, 2)
        out[kind] = row
    return out


MYPY_NOTE = (
    'On workloads that configure mypy, a copy judged by mypy alone (`typecheck = ["mypy"]`): '
    "cold = the `mypy` CLI on the patched tree written to a copy; prewrite = the daemon's warm "
    "check (dmypy on its shadow, the patch laid for one run, the diff against the base); "
    "dmypy = mypy's own daemon re-checking the patched tree (the floor, from the peer above: "
    "prewrite's bundled mypy at Python 3.11, whichever mypy judges; `python -m "
    "bench.mypy_clean_body` times dmypy with the judging mypy itself)."
)


def mypy_rows(workloads: list[dict[str, Any]]) -> list[str]:
    """The report's table: per workload and patch kind, cold vs prewrite vs dmypy."""
    rows = [
        "| workload | judged by | patch | cold mypy | prewrite first check | prewrite warm p50 "
        "| dmypy warm p50 | cold / prewrite | prewrite / dmypy |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for w in workloads:
        mypy: dict[str, Any] = w.get("mypy") or {}
        table = ratios(mypy, w.get("dmypy"))
        for kind, warm in mypy.get("warm", {}).items():
            floor = _floor(w.get("dmypy"), kind)
            row = table.get(kind, {})
            rows.append(
                f"| {w['name']} | {_judged_by(mypy)} | {kind} "
                f"| {mypy.get('cold', {}).get(kind, 'n/a')} ms "
                f"| {mypy.get('first_check_ms', 'n/a')} ms | {warm['p50']} ms | {floor} ms "
                f"| {row.get('cold_over_warm', 'n/a')}x | {row.get('warm_over_dmypy', 'n/a')}x |"
            )
    return rows


def _floor(dmypy: dict[str, Any] | None, kind: str) -> float | None:
    """dmypy's warm p50 for ``kind`` from the peer's results (None: not measured)."""
    patches: dict[str, dict[str, float]] = (dmypy or {}).get("patches", {})
    return patches.get(kind, {}).get("p50")


def _judged_by(mypy: dict[str, Any]) -> str:
    """The mypy named by the receipt's "typecheck: judged by ..." line (its version, whose)."""
    line: str = mypy.get("checker", "")
    return line.partition("judged by ")[2].partition(", chosen by")[0] or "n/a"
