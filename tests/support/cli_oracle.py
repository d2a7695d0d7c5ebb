"""The cold oracle for the checkers prewrite judges by their own CLI (ty, pyrefly): the CLI run
from scratch on a full copy of the patched workspace (not the daemon's shadow), diffed as the
daemon diffs (``tests.support.oracle.introduced_between``). The workspaces are trusted: the
checker is told the interpreter, and pyrefly runs it as its own run would."""

from __future__ import annotations

import subprocess
from functools import cached_property
from typing import TYPE_CHECKING

from prewrite_daemon.backends.cli_tool import ToolPython, bundled_binary
from prewrite_daemon.check.diagnostics import to_wire
from tests.support.oracle import OracleFailed, introduced_between, normalize_paths

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.languages.python.checker_specs import CheckerSpec


def cold_cli(
    spec: CheckerSpec, tree: Path, python: str, timeout_s: float = 300.0
) -> list[Diagnostic]:
    """Every diagnostic of the CLI's cold run on the project at ``tree``, as prewrite reports."""
    tree = tree.resolve()
    argv = spec.argv(str(bundled_binary(spec.name)), ToolPython(python, may_run=True), tree)
    proc = subprocess.run(
        argv, cwd=tree, capture_output=True, text=True, timeout=timeout_s, check=False
    )
    if proc.returncode not in (0, 1):
        raise OracleFailed(f"{spec.name} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    found: list[Diagnostic] = []
    for rel, raws in spec.parse(proc.stdout, tree).items():
        found += [d for d in (to_wire(r, rel) for r in raws) if d is not None]
    return normalize_paths(found, tree)


class CliOracle:
    """Cold verdicts for many patched copies of one base tree; the base is run once."""

    def __init__(self, spec: CheckerSpec, base_tree: Path, python: str) -> None:
        self.spec = spec
        self.base_tree = base_tree.resolve()
        self.python = python

    @cached_property
    def base(self) -> list[Diagnostic]:
        return cold_cli(self.spec, self.base_tree, self.python)

    def introduced(self, patched_tree: Path) -> list[Diagnostic]:
        candidate = cold_cli(self.spec, patched_tree, self.python)
        return introduced_between(self.base_tree, self.base, patched_tree, candidate)
