"""The planner run by a newer Python than the daemon's (3.12+), where PEP 695 parses.

A daemon on Python 3.11 cannot parse ``type X = ...`` or ``class Box[T]``, so its planner takes
such a file as unparseable and reaches every importer; on 3.12+ the same file parses, and every
rule about it must hold. The name graph needs the standard library and msgspec (the client's
one dependency, reached through ``prewrite.errors``), so another interpreter can run it from the
source tree (in a throwaway venv with msgspec where it lacks it: ``with_msgspec``): this
module, run as a script by that interpreter, builds the graph from JSON on stdin and prints
each case's plan. The plan mirrors ``checker.plan_check`` (the patched files that exist, plus
``affected`` of those whose interface changed); the graph gets what
``PythonLanguage.new_graph`` gives it, computed by the caller (``Planner``).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from tests.support.cache_lock import cache_lock

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from tests.support.planner_plan import Change, Planner

REPO = Path(__file__).resolve().parents[2]
UNAVAILABLE = 3  # exit status: the planner's modules do not import on that interpreter


class PlannerUnavailable(RuntimeError):
    """The newer interpreter cannot import the planner (a dependency it lacks)."""


def newer_python() -> str | None:
    """An interpreter of Python 3.12 or later that runs here, or None."""
    candidates = [shutil.which(f"python3.{minor}") for minor in range(13, 11, -1)]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python3")))
    for exe in filter(None, candidates):
        try:
            proc = subprocess.run(
                [exe, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                capture_output=True, text=True, timeout=30, check=False,
            )  # fmt: skip
        except OSError:
            continue
        if proc.stdout.strip() == "True":
            return exe
    return None


def check_importable(python: str) -> None:
    """``PlannerUnavailable`` unless ``python`` imports the planner: asked before a caller
    computes what ``plan_under`` sends (the library's Protocols wait for a scan)."""
    names = "prewrite_daemon.languages.python.names"
    code = f"import {names}.deps, {names}.imports"  # what ``_main`` imports
    proc = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, timeout=60, check=False,
        env=_planner_env(), cwd=REPO,
    )  # fmt: skip
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines() or ["(no output)"]
        raise PlannerUnavailable(f"the planner cannot run on {python}: {lines[-1]}")


def with_msgspec(python: str) -> str:
    """``python``, or a venv of it with msgspec (the version this suite runs) when it cannot
    import msgspec: built once under ``.cache`` (``python -m venv``, then pip), reused after.
    ``PlannerUnavailable`` when it cannot be built (no ``venv`` module, pip offline)."""
    probe = [python, "-c", "import msgspec"]
    if subprocess.run(probe, capture_output=True, timeout=60, check=False).returncode == 0:
        return python
    import msgspec  # the suite's own, for its version

    version = subprocess.run(
        [python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout.strip()  # fmt: skip
    venv = REPO / ".cache" / f"planner-python-{version}-msgspec-{msgspec.__version__}"
    exe = venv / "bin" / "python"
    with cache_lock(venv):
        if not (venv / ".ready").exists():
            shutil.rmtree(venv, ignore_errors=True)
            steps = [
                [python, "-m", "venv", str(venv)],
                [str(exe), "-m", "pip", "install", "-q", f"msgspec=={msgspec.__version__}"],
            ]
            for step in steps:
                proc = subprocess.run(
                    step, capture_output=True, text=True, timeout=300, check=False
                )
                if proc.returncode != 0:
                    tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
                    raise PlannerUnavailable(f"cannot give {python} msgspec: {tail}")
            (venv / ".ready").write_text("")
    return str(exe)


def _planner_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO / "daemon"), str(REPO / "client"), str(REPO)])}  # fmt: skip


def plan_under(
    python: str, planner: Planner, cases: Mapping[str, Sequence[Change]]
) -> dict[str, set[str]]:
    """Each case's plan, computed by ``python`` on the graph ``planner`` holds."""
    request = {
        "protocols": planner.protocols,
        "cycles": planner.cycles,
        "dead_stores": planner.graph.dead_stores,
        "files": planner.sources,
        "cases": {name: [list(c) for c in edits] for name, edits in cases.items()},
    }
    proc = subprocess.run(
        [python, "-m", "tests.support.planner_newer_python"], input=json.dumps(request),
        capture_output=True, text=True, timeout=300, check=False, env=_planner_env(), cwd=REPO,
    )  # fmt: skip
    if proc.returncode == UNAVAILABLE:
        raise PlannerUnavailable(proc.stderr.strip())
    if proc.returncode != 0:
        raise RuntimeError(f"the planner on {python} failed:\n{proc.stderr}")
    answer = cast("dict[str, list[str]]", json.loads(proc.stdout))
    return {name: set(files) for name, files in answer.items()}


def _main() -> None:
    try:
        from prewrite_daemon.languages.python.names.deps import NameGraph
        from prewrite_daemon.languages.python.names.imports import interface_changed
    except ImportError as exc:  # the graph needs a package this interpreter lacks
        print(f"the planner cannot run on Python {sys.version.split()[0]}: {exc}", file=sys.stderr)
        sys.exit(UNAVAILABLE)

    request = cast("dict[str, Any]", json.load(sys.stdin))
    graph = NameGraph(
        request["protocols"],
        report_import_cycles=request["cycles"],
        dead_stores=request["dead_stores"],
    )
    for rel, text in cast("dict[str, str]", request["files"]).items():
        graph.update(rel, text)
    answer: dict[str, list[str]] = {}
    for name, edits in cast("dict[str, list[list[str | None]]]", request["cases"]).items():
        changes = [(str(rel), old, new) for rel, old, new in edits]
        checked = {rel for rel, _, new in changes if new is not None}
        deleted = {rel for rel, _, new in changes if new is None}
        reaching = [c for c in changes if interface_changed(c[1], c[2])]
        if reaching:
            checked |= graph.affected(reaching) - deleted
        answer[name] = sorted(checked)
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    _main()
