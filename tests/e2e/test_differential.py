"""The differential test: the warm daemon's verdict equals a cold pyright run on the patched tree.

Generated patches over a real PyPI package (httpx 0.28.1 with its test-suite, see
``tests/support/workloads.py``) are judged by the daemon, which never writes them, and by the
pyright CLI of the same version on a patched copy on disk, diffed with the daemon's own
``introduced`` rule. For every patch the multisets of (path, rule, severity, message) must be
equal, and the daemon's ``ok`` must say "no new error" exactly when the oracle's set has none.
"""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from tests.support.oracle import ColdOracle, normalize_paths, write_patched_copy
from tests.support.patchgen import generate_patches
from tests.support.workloads import Workload, copy_workspace, prepare_workload, typecheck_only

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import Diagnostic
    from tests.support.patchgen import GeneratedPatch

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

Key = tuple[str, str, str, str]
MIN_PATCHES = 24
MIN_CROSS_FILE = 5
MIN_EACH_VERDICT = 5


@pytest.fixture(scope="module")
def workload(tmp_path_factory: pytest.TempPathFactory) -> Workload:
    """A private copy of the prepared workspace (the cached one stays pristine), with the
    ladder's ruff rungs off: this test compares the type-check rung with the oracle."""
    copy = copy_workspace(prepare_workload(), tmp_path_factory.mktemp("differential") / "httpx")
    return typecheck_only(copy)


@dataclass(frozen=True)
class Disagreement:
    patch: GeneratedPatch
    only_daemon: list[Diagnostic]
    only_oracle: list[Diagnostic]
    daemon_ok: bool

    def render(self) -> str:
        lines = [f"{self.patch.name}  (files: {', '.join(self.patch.paths)})"]
        lines.append(f"  daemon ok={self.daemon_ok}")
        lines += [f"  only in daemon: {_show(d)}" for d in self.only_daemon]
        lines += [f"  only in oracle: {_show(d)}" for d in self.only_oracle]
        return "\n".join(lines)


def _key(d: Diagnostic) -> Key:
    return (d.path, d.rule, d.severity, d.message)


def _show(d: Diagnostic) -> str:
    return f"{d.path}:{d.line}:{d.column} {d.severity} [{d.rule}] {d.message!r}"


def _surplus(ours: Iterable[Diagnostic], theirs: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics of ``ours`` left once each key of ``theirs`` has consumed one of ours."""
    remaining = Counter(_key(d) for d in theirs)
    out: list[Diagnostic] = []
    for d in ours:
        if remaining[_key(d)] > 0:
            remaining[_key(d)] -= 1
        else:
            out.append(d)
    return out


def _compare(
    client: Client, workload: Workload, oracle: ColdOracle, patch: GeneratedPatch, scratch: Path
) -> tuple[bool, Disagreement | None]:
    """Judge ``patch`` both ways; returns the oracle's "red" verdict and any disagreement."""
    reply = client.check(workload.root, patch.changes, python=workload.python, timeout_s=300)
    daemon = normalize_paths(reply.diagnostics, workload.root)
    tree = write_patched_copy(workload.root, patch.changes, scratch)
    try:
        cold = oracle.introduced(tree)
    finally:
        shutil.rmtree(tree)
    red = any(d.severity == "error" for d in cold)
    only_daemon, only_oracle = _surplus(daemon, cold), _surplus(cold, daemon)
    if only_daemon or only_oracle or reply.ok == red:
        return red, Disagreement(patch, only_daemon, only_oracle, reply.ok)
    return red, None


@pytest.mark.timeout(1800)
def test_daemon_matches_cold_pyright_on_generated_patches(
    client: Client, workload: Workload, tmp_path: Path
) -> None:
    oracle = ColdOracle(workload.root, workload.python)
    patches = generate_patches(workload.root, error_files=sorted({d.path for d in oracle.base}))
    assert len(patches) >= MIN_PATCHES, [p.name for p in patches]
    assert sum(len(p.changes) > 1 for p in patches) >= MIN_CROSS_FILE

    disagreements: list[Disagreement] = []
    verdicts: Counter[str] = Counter()
    for n, patch in enumerate(patches):
        red, disagreement = _compare(client, workload, oracle, patch, tmp_path / f"case-{n}")
        verdicts["red" if red else "green"] += 1
        if disagreement is not None:
            disagreements.append(disagreement)

    report = "\n".join(d.render() for d in disagreements)
    assert not disagreements, (
        f"{len(disagreements)} of {len(patches)} patches judged differently:\n{report}"
    )
    # A daemon (or oracle) that always answers green or always red must not pass.
    assert verdicts["red"] >= MIN_EACH_VERDICT, verdicts
    assert verdicts["green"] >= MIN_EACH_VERDICT, verdicts
