"""One patch judged two ways: the daemon's verdict, and a cold pyright run on the patched tree.

The multisets of (path, rule, severity, message) of introduced diagnostics must be equal, and the
daemon's ``ok`` must say "no new error" exactly when the oracle's set has none.
"""

from __future__ import annotations

import shutil
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.oracle import normalize_paths, write_patched_copy
from tests.support.patchgen import generate_patches

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import Diagnostic
    from tests.support.cli_oracle import CliOracle
    from tests.support.oracle import ColdOracle
    from tests.support.patchgen import GeneratedPatch
    from tests.support.workloads import Workload

Key = tuple[str, str, str, str]


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


def compare(
    client: Client,
    workload: Workload,
    oracle: ColdOracle | CliOracle,
    patch: GeneratedPatch,
    scratch: Path,
) -> tuple[bool, Disagreement | None]:
    """Judge ``patch`` both ways; returns the oracle's "red" verdict and any disagreement."""
    tree = write_patched_copy(workload.root, patch.changes, scratch)
    try:
        # The cold run on the copy and the daemon's check at once: independent processes, and
        # the machine's second core is otherwise idle while one waits for the other.
        with ThreadPoolExecutor(max_workers=1) as pool:
            cold_run = pool.submit(oracle.introduced, tree)
            reply = client.check(
                workload.root, patch.changes, python=workload.python, timeout_s=300
            )
            cold = cold_run.result()
    finally:
        shutil.rmtree(tree)
    daemon = normalize_paths(reply.diagnostics, workload.root)
    red = any(d.severity == "error" for d in cold)
    only_daemon, only_oracle = _surplus(daemon, cold), _surplus(cold, daemon)
    if only_daemon or only_oracle or reply.ok == red:
        return red, Disagreement(patch, only_daemon, only_oracle, reply.ok)
    return red, None


def one_of_each(patches: Iterable[GeneratedPatch]) -> list[GeneratedPatch]:
    """The first patch of every kind (a checker whose warm path another test judges at length)."""
    seen: set[str] = set()
    kept: list[GeneratedPatch] = []
    for patch in patches:
        if patch.kind not in seen:
            seen.add(patch.kind)
            kept.append(patch)
    return kept


def assert_all_agree(
    client: Client,
    workload: Workload,
    oracle: ColdOracle | CliOracle,
    patches: Sequence[GeneratedPatch],
    scratch: Path,
    min_each_verdict: int,
) -> None:
    """Judge every patch both ways: fail listing every disagreement, and fail if either verdict
    (by the oracle) has fewer than ``min_each_verdict`` patches — a daemon or an oracle that
    always answers one way must not pass."""
    disagreements: list[Disagreement] = []
    verdicts: Counter[str] = Counter()
    for n, patch in enumerate(patches):
        red, disagreement = compare(client, workload, oracle, patch, scratch / f"case-{n}")
        verdicts["red" if red else "green"] += 1
        if disagreement is not None:
            disagreements.append(disagreement)
    report = "\n".join(d.render() for d in disagreements)
    assert not disagreements, (
        f"{len(disagreements)} of {len(patches)} patches judged differently "
        f"(the oracle's verdicts: {dict(verdicts)}):\n{report}"
    )
    assert verdicts["red"] >= min_each_verdict, verdicts
    assert verdicts["green"] >= min_each_verdict, verdicts


EVERY_KIND = 12  # the kinds patchgen makes on httpx
KINDS_CROSS_FILE = 3
KINDS_EACH_VERDICT = 3


def assert_each_kind_agrees(
    client: Client,
    workload: Workload,
    oracle: ColdOracle | CliOracle,
    error_files: Sequence[str],
    judge: str,
    scratch: Path,
) -> None:
    """One generated patch of each kind, judged both ways (a checker whose warm path another
    test judges at length: its own plumbing is the claim); the first reply must name ``judge``
    ("ty 0.0.104") as the bundled checker the workspace's ``[tool.prewrite]`` chose — the
    checker itself, not pyright."""
    patches = one_of_each(generate_patches(workload.root, error_files=error_files))
    assert len(patches) >= EVERY_KIND, [p.name for p in patches]
    assert sum(len(p.changes) > 1 for p in patches) >= KINDS_CROSS_FILE
    chosen = "chosen by pyproject.toml [tool.prewrite] typecheck"
    receipt = f"typecheck: judged by {judge} (bundled), {chosen}"
    first = client.check(workload.root, patches[0].changes, python=workload.python, timeout_s=300)
    assert receipt in first.verified, first.verified
    assert_all_agree(client, workload, oracle, patches, scratch, KINDS_EACH_VERDICT)
