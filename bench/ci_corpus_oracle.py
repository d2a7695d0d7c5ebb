"""The oracle: each checker the project configures, cold, as its CI runs it, on the base tree
and on the patched tree written to a copy; red when the patched tree has an error the base has
not (the tests' diff, ``tests.support.oracle.introduced_between``).

Which checkers: the daemon's own reading (``languages.checkers.choose``); for this corpus it is
the same as reading the files by hand (``[tool.mypy]`` everywhere, ``[tool.pyright]`` in click).
mypy is the one CI pins, installed in the workload's venv (``oracle_tool``), run on CI's own
targets (``Project.ci_mypy``, each invocation separately, their reports united), not on the
daemon's idea of them; pyright is prewrite's (``cold_pyright``).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite_daemon.backends.mypy_command import cli_argv
from prewrite_daemon.backends.mypy_output import parse_report
from prewrite_daemon.check.diagnostics import to_wire
from prewrite_daemon.languages.checkers import choose
from tests.support.mypy_oracle import oracle_tool
from tests.support.oracle import cold_pyright, introduced_between, normalize_paths

if TYPE_CHECKING:
    from pathlib import Path

    from bench.ci_corpus_projects import Project
    from prewrite.protocol import Diagnostic

TIMEOUT_S = 900.0


def _empty() -> dict[str, list[Diagnostic]]:
    return {}


@dataclass
class Cold:
    """One tree's cold reports, per checker."""

    by_checker: dict[str, list[Diagnostic]] = field(default_factory=_empty)


def configured(root: Path) -> list[str]:
    return [c.name for c in choose(root)]


def _mypy(project: Project, tree: Path, python: str) -> list[Diagnostic]:
    tool = oracle_tool(python)
    seen: set[tuple[str, int, int, str, str]] = set()
    out: list[Diagnostic] = []
    # CI installs the package it checks (tox, ``pip install -e .``): a src layout's package is
    # found from any target (structlog's ``mypy tests/typing``), as the patched tree has it.
    env = dict(os.environ)
    if (tree / "src").is_dir():
        env["MYPYPATH"] = str(tree / "src")
    for targets in project.ci_mypy:
        argv = ["timeout", str(int(TIMEOUT_S)), *cli_argv(tool, python, list(targets))]
        done = subprocess.run(argv, cwd=tree, capture_output=True, text=True, env=env,
                              timeout=TIMEOUT_S + 30, check=False)  # fmt: skip
        if done.returncode not in (0, 1):
            raise RuntimeError(f"cold mypy exited {done.returncode}: {done.stdout[-800:]}"
                               f"{done.stderr[-800:]}")  # fmt: skip
        for rel, raws in parse_report(done.stdout, tree).items():
            for raw in raws:
                d = to_wire(raw, rel)
                if d is None:
                    continue
                key = (d.path, d.line, d.column, d.rule, d.message)
                if key not in seen:
                    seen.add(key)
                    out.append(d)
    return normalize_paths(out, tree)


def mypy_label(python: str) -> str:
    tool = oracle_tool(python)
    return f"mypy {tool.version} ({tool.origin})"


def cold(project: Project, tree: Path, python: str, checkers: list[str]) -> Cold:
    tree = tree.resolve()
    result = Cold()
    for name in checkers:
        if name == "mypy":
            result.by_checker[name] = _mypy(project, tree, python)
        elif name == "pyright":
            result.by_checker[name] = cold_pyright(tree, python, TIMEOUT_S)
        else:
            raise RuntimeError(f"the replica has no oracle for {name}")
    return result


def introduced(base_tree: Path, base: Cold, tree: Path, after: Cold) -> dict[str, list[Diagnostic]]:
    """Per checker, the errors the patched tree has and the base has not."""
    out: dict[str, list[Diagnostic]] = {}
    for name, diags in after.by_checker.items():
        new = introduced_between(base_tree.resolve(), base.by_checker[name], tree.resolve(), diags)
        out[name] = [d for d in new if d.severity == "error"]
    return out
