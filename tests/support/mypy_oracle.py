"""The cold mypy oracle: the ``mypy`` CLI from scratch on a patched copy, read as the daemon reads.

The daemon judges a patch with a warm ``dmypy`` on its shadow, without writing the patch; the
oracle writes the patched tree to a copy and runs the same mypy's CLI there, with the daemon's
own command line (``backends.mypy_command.cli_argv``), its own idea of what mypy checks
(``languages.python.mypy.targets``), its own reading of the JSON report (``parse_report``,
``to_wire``) and its own base-vs-candidate diff (``introduced``, via ``introduced_between``).
Nothing is cached between runs (``--cache-dir /dev/null``): every answer is cold.

A patch that changes mypy's settings is judged by the daemon (``check.config_change``) cold
under the new settings, and, unless ``allow_relaxation`` is set on disk, warm under the settings
on disk with the configuration edits left out, what only the latter finds marked
``BEFORE_NOTE``. ``expected`` models that with one or two cold runs, so the comparison stays
exact for such patches too.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, cast

import msgspec

from prewrite_daemon.backends.mypy_command import MypyTool, cli_argv, find_mypy, mypy_flags
from prewrite_daemon.backends.mypy_output import SOURCE, parse_report
from prewrite_daemon.check.config_change import BEFORE_NOTE
from prewrite_daemon.check.diagnostics import to_wire
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.languages.python.mypy import CONFIG_FILES, MYPY, mypy_settings, targets
from prewrite_daemon.languages.readers import disk_reader
from tests.support import oracle_record
from tests.support.oracle import introduced_between, normalize_paths, surplus, write_patched_copy

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from prewrite.client import Client
    from prewrite.protocol import Diagnostic, FileChange

Case = tuple[str, tuple["FileChange", ...], bool]  # a name, the patch, whether it is designed red

__all__ = [
    "SOURCE",
    "MypyOracle",
    "MypyOracleFailed",
    "cold_mypy",
    "differences",
    "judged_as_cold",
    "oracle_tool",
]

Key = tuple[str, str, str, str]


class MypyOracleFailed(RuntimeError):
    """The cold mypy run crashed or printed something that is not its JSON report."""


def site_dirs(python: str) -> list[Path]:
    """The package directories of ``python`` (where ``find_mypy`` looks for the workspace's own)."""
    code = "import json, site; print(json.dumps(site.getsitepackages()))"
    out = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, check=True)
    return [Path(d) for d in cast("list[str]", json.loads(out.stdout))]


def oracle_tool(python: str) -> MypyTool:
    """The mypy the daemon runs for a trusted workspace with interpreter ``python``."""
    return find_mypy(site_dirs(python), python)


def cold_mypy(
    tree: Path, tool: MypyTool, python: str, timeout_s: float = 600.0, *, recorded: bool = False
) -> list[Diagnostic]:
    """Every diagnostic cold mypy reports for the project at ``tree``, as the daemon reports it.
    ``recorded``: the recorded answer for the same input where there is one (``oracle_record``)."""
    tree = tree.resolve()
    checked = targets(tree)  # the daemon's reading of what mypy checks: part of the input
    if not recorded:
        return _run_mypy(tree, tool, python, checked, timeout_s)
    checker = ["mypy", tool.version, tool.origin, *mypy_flags(tool, "<python>"), *checked]
    # mypy reads the packages of ``python`` (``--python-executable``; the workspace's own mypy
    # is one of them); its typeshed is its version's. The digest of the interpreter it runs in
    # when bundled (prewrite's venv, whose editable install names the checkout) would make every
    # checkout a miss.
    inputs = [oracle_record.python_packages(python)]
    return oracle_record.answer(
        checker, inputs, tree, lambda: _run_mypy(tree, tool, python, checked, timeout_s)
    )


def _run_mypy(
    tree: Path, tool: MypyTool, python: str, checked: list[str], timeout_s: float
) -> list[Diagnostic]:
    argv = cli_argv(tool, python, checked)
    proc = subprocess.run(
        argv, cwd=tree, capture_output=True, text=True, timeout=timeout_s, check=False
    )
    # Exit 0: clean, 1: errors reported; 2: a crash, a configuration mypy refuses, ...
    if proc.returncode not in (0, 1):
        raise MypyOracleFailed(f"mypy exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    try:
        report = parse_report(proc.stdout, tree)
    except ValueError as exc:
        raise MypyOracleFailed(f"mypy's report could not be read: {exc}") from exc
    found = [to_wire(raw, rel) for rel, raws in report.items() for raw in raws]
    return normalize_paths([d for d in found if d is not None], tree)


def settings_changed(root: Path, changes: Sequence[FileChange]) -> bool:
    """Whether ``changes`` change mypy's settings under ``root`` (``judge.candidate_layout``)."""
    patched = {c.path: c.content for c in changes}

    def read(rel: str) -> str | None:
        return patched[rel] if rel in patched else disk_reader(root)(rel)

    touched = any(c.path in CONFIG_FILES for c in changes)
    return touched and mypy_settings(read) != mypy_settings(disk_reader(root))


class MypyOracle:
    """Cold verdicts for many patched copies of one base tree; the base is run once."""

    def __init__(self, base_tree: Path, python: str, *, recorded: bool = False) -> None:
        self.base_tree = base_tree.resolve()
        self.python = python
        self.tool = oracle_tool(python)
        self.recorded = recorded  # answers read from ``oracle_record`` where it has them

    @cached_property
    def base(self) -> list[Diagnostic]:
        return cold_mypy(self.base_tree, self.tool, self.python, recorded=self.recorded)

    def introduced(self, patched_tree: Path) -> list[Diagnostic]:
        """What the patched tree's cold run reports that the base did not, file by file."""
        candidate = cold_mypy(patched_tree, self.tool, self.python, recorded=self.recorded)
        return introduced_between(self.base_tree, self.base, patched_tree, candidate)

    def _introduced_by(self, changes: Sequence[FileChange], scratch: Path) -> list[Diagnostic]:
        tree = write_patched_copy(self.base_tree, changes, scratch)
        try:
            return self.introduced(tree)
        finally:
            shutil.rmtree(tree)

    def expected(self, changes: Sequence[FileChange], scratch: Path) -> list[Diagnostic]:
        """What the daemon must answer for ``changes``; ``scratch``: a new directory to use."""
        after = self._introduced_by(changes, scratch / "after")
        if not settings_changed(self.base_tree, changes):
            return after
        if load_config(self.base_tree).allow_relaxation:
            return after  # the workspace lets patches relax mypy: the new settings alone judge
        code = [c for c in changes if c.path not in CONFIG_FILES]
        if not any(MYPY.is_source(c.path) for c in code):
            return after  # nothing to judge under the settings before
        before = self._introduced_by(code, scratch / "before")
        seen = {(d.path, d.line, d.column, d.rule, d.message) for d in after}
        hidden = [
            msgspec.structs.replace(d, message=d.message + BEFORE_NOTE)
            for d in before
            if (d.path, d.line, d.column, d.rule, d.message) not in seen
        ]
        return [*after, *hidden]


def differences(
    daemon: Iterable[Diagnostic], oracle: Iterable[Diagnostic]
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(only the daemon's, only the oracle's): multisets of (path, rule, severity, message)."""
    ours, theirs = list(daemon), list(oracle)
    return surplus(ours, theirs), surplus(theirs, ours)


def judged_as_cold(
    client: Client, root: Path, python: str, cases: Sequence[Case], scratch: Path,
    *, judged_by: str | None = None,
) -> list[str]:  # fmt: skip
    """Each case checked by the daemon and by cold mypy on a patched copy (under ``scratch``):
    what went wrong — the diagnostics differ, or the verdict is not the designed one on either
    side; ``judged_by``: also a reply whose receipts do not say ``judged by <it>``."""
    oracle = MypyOracle(root, python)
    failures: list[str] = []
    for n, (name, changes, red) in enumerate(cases):
        reply = client.check(root, changes, python=python, timeout_s=120)
        expected = oracle.expected(changes, scratch / f"cold-{n}")
        only_daemon, only_oracle = differences(normalize_paths(reply.diagnostics, root), expected)
        if only_daemon or only_oracle or reply.ok == red or bool(expected) != red:
            failures.append(
                f"{name}: ok={reply.ok} (designed red={red}), oracle {len(expected)}\n"
                f"  only daemon: {only_daemon}\n  only oracle: {only_oracle}"
            )
        if judged_by and not any(f"judged by {judged_by}" in v for v in reply.verified):
            failures.append(f"{name}: not judged by {judged_by}: {reply.verified}")
    return failures
