"""The judging half of ``tests/e2e/test_differential_env.py``: each case checked by the daemon
on the tree as it is on disk now, and by the cold oracle on copies of that tree made before the
daemon is asked; the cold runs go on in background threads while the test changes the disk for
its next step. ``Outcome.problems`` is the report of a case the two sides (or the design)
disagree on; ``assert_all_agree`` fails on any, and on a run with too few reds or greens."""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import msgspec

from prewrite_daemon.check.config_change import BEFORE_NOTE
from prewrite_daemon.languages.python.checker_config import CONFIG_FILES
from tests.support.oracle import (
    cold_pyright,
    introduced_between,
    normalize_paths,
    surplus,
    write_patched_copy,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from concurrent.futures import Executor, Future
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import CheckReply, Diagnostic, FileChange
    from tests.support.workloads import Workload

MIN_EACH_VERDICT = 2
REPORT_LINES = 12  # per side and case: a strict config introduces about a thousand diagnostics


@dataclass(frozen=True)
class Case:
    name: str
    changes: tuple[FileChange, ...]
    expect_red: bool  # what the case was designed to be; the oracle must agree
    expect_some: bool = False  # designed to introduce diagnostics even when green


@dataclass(frozen=True)
class Outcome:
    case: Case
    oracle: list[Diagnostic]
    daemon: list[Diagnostic]
    daemon_ok: bool

    @property
    def red(self) -> bool:
        return any(d.severity == "error" for d in self.oracle)

    def problems(self) -> list[str]:
        """The report lines of this case: none when both sides and the design agree."""
        only_daemon = surplus(self.daemon, self.oracle)
        only_oracle = surplus(self.oracle, self.daemon)
        lines: list[str] = []
        if self.red != self.case.expect_red:
            lines.append(f"  oracle red={self.red}, designed red={self.case.expect_red}")
        if self.case.expect_some and not self.oracle:
            lines.append("  the oracle found nothing introduced, designed to find some")
        if only_daemon or only_oracle or self.daemon_ok == self.red:
            lines.append(f"  daemon ok={self.daemon_ok}, oracle red={self.red}")
            lines += _shown("only in daemon", only_daemon)
            lines += _shown("only in oracle", only_oracle)
        if not lines:
            return []
        files = ", ".join(c.path for c in self.case.changes)
        return [f"{self.case.name}  (files: {files})", *lines]


def _shown(label: str, diagnostics: Sequence[Diagnostic]) -> list[str]:
    lines = [
        f"  {label}: {d.path}:{d.line}:{d.column} {d.severity} [{d.rule}] {d.message!r}"
        for d in diagnostics[:REPORT_LINES]
    ]
    if len(diagnostics) > REPORT_LINES:
        lines.append(f"  {label}: ... and {len(diagnostics) - REPORT_LINES} more")
    return lines


# --- judging ---------------------------------------------------------------------------------


ORACLE_THREADS = 2  # cold runs at a time; with the daemon's, enough to fill a 2-core machine


def _cold_base(tree: Path, python: str) -> list[Diagnostic]:
    return cold_pyright(tree, python, recorded=True)


def _oracle_case(
    base: Future[list[Diagnostic]], base_tree: Path, tree: Path, python: str
) -> list[Diagnostic]:
    try:
        candidate = cold_pyright(tree, python, recorded=True)
        return introduced_between(base_tree, base.result(), tree, candidate)
    finally:
        shutil.rmtree(tree)


def _oracle_both(
    base: Future[list[Diagnostic]], base_tree: Path, trees: tuple[Path, Path], python: str
) -> list[Diagnostic]:
    """A config patch: the whole patch, plus what the code alone adds under the old settings."""
    after = _oracle_case(base, base_tree, trees[0], python)
    before = _oracle_case(base, base_tree, trees[1], python)
    seen = {(d.path, d.line, d.column, d.rule, d.message) for d in after}
    hidden = [
        msgspec.structs.replace(d, message=d.message + BEFORE_NOTE)
        for d in before
        if (d.path, d.line, d.column, d.rule, d.message) not in seen
    ]
    return [*after, *hidden]


def _code_only(changes: Sequence[FileChange]) -> tuple[FileChange, ...] | None:
    """The patch without its checker configuration files, if it has code left to judge."""
    if not any(c.path in CONFIG_FILES for c in changes):
        return None
    rest = tuple(c for c in changes if c.path not in CONFIG_FILES)
    return rest if any(c.path.endswith(".py") for c in rest) else None


class Judge:
    """Each case by the daemon now, and by the oracle on copies of the tree as it is now.

    The copies are made before the daemon is asked, and the cold runs go on in the background
    while the test changes the disk for its next step: the daemon's checks (one at a time) and
    the oracle's runs (``ORACLE_THREADS`` at a time) overlap, keeping the file at a few minutes.
    """

    def __init__(self, client: Client, workload: Workload, pool: Executor, scratch: Path) -> None:
        self.client, self.workload, self.pool, self.scratch = client, workload, pool, scratch
        self._pending: list[tuple[Case, Future[list[Diagnostic]], CheckReply]] = []

    def step(self, label: str, *cases: Case) -> Future[list[Diagnostic]]:
        """Judge ``cases`` against the tree on disk now; returns the oracle's pending base."""
        root, python, n = self.workload.root, self.workload.python, len(self._pending)
        base_tree = write_patched_copy(root, (), self.scratch / f"base-{n}")
        trees = [
            write_patched_copy(root, c.changes, self.scratch / f"case-{n + i}")
            for i, c in enumerate(cases)
        ]
        # Submitted first, so it runs before any case's job waits for it.
        base = self.pool.submit(_cold_base, base_tree, python)
        for i, (case, tree) in enumerate(zip(cases, trees, strict=True)):
            rest = _code_only(case.changes)
            if rest is None:
                oracle = self.pool.submit(_oracle_case, base, base_tree, tree, python)
            else:
                code_tree = write_patched_copy(root, rest, self.scratch / f"code-{n + i}")
                both = (tree, code_tree)
                oracle = self.pool.submit(_oracle_both, base, base_tree, both, python)
            reply = self.client.check(root, case.changes, python=python, timeout_s=300)
            self._pending.append((replace(case, name=f"{label} | {case.name}"), oracle, reply))
        return base

    def outcomes(self) -> list[Outcome]:
        root = self.workload.root
        return [
            Outcome(case, oracle.result(), normalize_paths(reply.diagnostics, root), reply.ok)
            for case, oracle, reply in self._pending
        ]


def assert_all_agree(judge: Judge) -> None:
    outcomes = judge.outcomes()
    report = "\n".join(line for o in outcomes for line in o.problems())
    bad = sum(bool(o.problems()) for o in outcomes)
    assert not report, f"{bad} of {len(outcomes)} cases judged differently:\n{report}"
    # A daemon (or oracle) that always answers green or always red must not pass.
    verdicts = Counter("red" if o.red else "green" for o in outcomes)
    assert verdicts["red"] >= MIN_EACH_VERDICT, verdicts
    assert verdicts["green"] >= MIN_EACH_VERDICT, verdicts
