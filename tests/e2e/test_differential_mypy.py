"""The differential test for mypy: the warm daemon (dmypy) against a cold mypy run per patch.

On a private copy of httpx 0.28.1, whose ``[tool.mypy]`` is strict, mypy is the checker that
judges (``[tool.prewrite]`` names no other). Patches from the pyright test's generator, one of
each kind (body edits, cross-file signature breaks, new and deleted modules, line shifts), and
hand-written ones for mypy's own ground (``tests/support/mypy_cases.py``: unused ``# type:
ignore`` in the patched file and in importers, bare generics in new modules, ``[tool.mypy]``
changes) are judged one after another by the same warm daemon, so dmypy's incremental state
carries from each to the next, and by the cold mypy CLI on a patched copy
(``tests/support/mypy_oracle.py``). For every patch the multisets of (path, rule, severity,
message) must be equal, and the daemon's ``ok`` must say "no new error" exactly when the
oracle's set has none.

The second test: a project configuring both mypy and pyright is judged by both, each patch red
when either checker finds a new error, the diagnostics naming their checker.
"""

from __future__ import annotations

import itertools
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import new_file
from prewrite.errors import PrewriteError
from tests.support.differential import Disagreement, one_of_each
from tests.support.mypy_cases import (
    BARE_GENERIC,
    CLEAN_MODULE,
    DESIGNED_RED,
    add_fixture,
    hand_written,
)
from tests.support.mypy_oracle import SOURCE, MypyOracle, differences
from tests.support.oracle import PYRIGHT_SOURCE, ColdOracle, normalize_paths, write_patched_copy
from tests.support.patchgen import generate_patches
from tests.support.workloads import Workload, copy_workspace, prepare_workload

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import CheckReply, Diagnostic
    from tests.support.patchkit import GeneratedPatch

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MIN_PATCHES = 20
MIN_CROSS_FILE = 5
MIN_EACH_VERDICT = 5
# No typecheck key: the checker is chosen from the configuration, and httpx configures mypy. A
# ``[tool.mypy]`` change is judged under the settings before it and after it
# (``check.config_change``), as the oracle models.
MYPY_JUDGES = "\n[tool.prewrite]\nformat = false\nlint = false\n"


@pytest.fixture(scope="module")
def workload(tmp_path_factory: pytest.TempPathFactory) -> Workload:
    """A private copy of httpx with the ``pwfix`` fixture package, judged by mypy alone."""
    copy = copy_workspace(prepare_workload(), tmp_path_factory.mktemp("mypy-diff") / "httpx")
    pyproject = copy.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + MYPY_JUDGES)
    add_fixture(copy.root)
    return copy


def _interleave(
    first: Sequence[GeneratedPatch], second: Sequence[GeneratedPatch]
) -> list[GeneratedPatch]:
    pairs = itertools.zip_longest(first, second)
    return [p for pair in pairs for p in pair if p is not None]


def _judge(
    client: Client,
    root: Path,
    python: str,
    oracle: MypyOracle,
    patch: GeneratedPatch,
    scratch: Path,
) -> tuple[bool, str | None, list[Diagnostic]]:
    """The oracle's "red", the disagreement in full (if any), and the daemon's diagnostics; the
    oracle's cold runs overlap the daemon's check. An error reply is a disagreement too (the
    daemon could not judge a patch cold mypy judges), reported and not raised, so one run shows
    every case."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        expected = pool.submit(oracle.expected, patch.changes, scratch)
        try:
            reply: CheckReply | PrewriteError = client.check(
                root, patch.changes, python=python, timeout_s=300
            )
        except PrewriteError as exc:
            reply = exc
        cold = expected.result()
    red = any(d.severity == "error" for d in cold)
    if isinstance(reply, PrewriteError):
        return (
            red,
            (
                f"{patch.name}  (files: {', '.join(patch.paths)})\n  daemon error: {reply}\n"
                f"  oracle: red={red}, {len(cold)} diagnostics"
            ),
            [],
        )
    daemon = normalize_paths(reply.diagnostics, root)
    only_daemon, only_oracle = differences(daemon, cold)
    if only_daemon or only_oracle or reply.ok == red:
        return red, Disagreement(patch, only_daemon, only_oracle, reply.ok).render(), daemon
    return red, None, daemon


@pytest.mark.timeout(900)
def test_daemon_matches_cold_mypy_on_patches(
    client: Client, workload: Workload, tmp_path: Path
) -> None:
    oracle = MypyOracle(workload.root, workload.python, recorded=True)
    # One generated patch of each kind: the generator's quotas are sized for pyright's planner
    # (test_differential.py); here they prove dmypy's incremental state and the mypy plumbing,
    # and mypy's own ground is the hand-written cases (all of them).
    errors = sorted({d.path for d in oracle.base})
    generated = one_of_each(generate_patches(workload.root, error_files=errors))
    hand = hand_written(workload.root)
    patches = [hand[0], *_interleave(generated, hand[1:])]
    assert len(patches) >= MIN_PATCHES, [p.name for p in patches]
    assert sum(len(p.changes) > 1 for p in patches) >= MIN_CROSS_FILE

    disagreements: list[str] = []
    misdesigned: list[str] = []
    verdicts: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    for n, patch in enumerate(patches):
        red, disagreement, daemon = _judge(
            client, workload.root, workload.python, oracle, patch, tmp_path / f"case-{n}"
        )
        verdicts["red" if red else "green"] += 1
        sources.update(d.source for d in daemon)
        designed = DESIGNED_RED.get(patch.kind) if patch in hand else None
        if designed is not None and designed != red:
            misdesigned.append(f"{patch.name}: designed {'red' if designed else 'green'}")
        if disagreement is not None:
            disagreements.append(disagreement)

    # The oracle itself first: each hand-written case gets the verdict it was written for.
    assert not misdesigned, misdesigned
    report = "\n".join(disagreements)
    assert not disagreements, (
        f"{len(disagreements)} of {len(patches)} patches judged differently "
        f"(the oracle's verdicts: {dict(verdicts)}):\n{report}"
    )
    assert set(sources) == {SOURCE}, sources
    # A daemon (or oracle) that always answers green or always red must not pass.
    assert verdicts["red"] >= MIN_EACH_VERDICT, verdicts
    assert verdicts["green"] >= MIN_EACH_VERDICT, verdicts


# --- both checkers ----------------------------------------------------------------------------

BOTH_PYPROJECT = (
    "[tool.mypy]\nstrict = true\n\n[tool.pyright]\n\n"
    "[tool.prewrite]\nformat = false\nlint = false\n"
)
CORE = (
    '"""Clean for both."""\n\n\ndef pw_total(values: list[int]) -> int:\n    return sum(values)\n'
)
UNBOUND = (
    '"""pyright only: possibly unbound (mypy leaves possibly-undefined off, strict too)."""\n\n\n'
    "def pw_maybe(flag: bool) -> int:\n    if flag:\n        found = 1\n    return found\n"
)
OPTIONAL = (
    '"""Both: a member of an optional."""\n\n\n'
    "def pw_bits(value: int | None) -> int:\n    return value.bit_length()\n"
)
# patch -> the sources of the errors it is designed to introduce (none: green)
BOTH_CASES: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("pkg/bare.py", BARE_GENERIC, frozenset({SOURCE})),  # pyright's default leaves it alone
    ("pkg/unbound.py", UNBOUND, frozenset({PYRIGHT_SOURCE})),
    ("pkg/optional.py", OPTIONAL, frozenset({SOURCE, PYRIGHT_SOURCE})),
    ("pkg/clean.py", CLEAN_MODULE, frozenset()),
)


@pytest.mark.timeout(300)
def test_both_checkers_judge_when_both_are_configured(
    client: Client, python_exe: str, tmp_path: Path
) -> None:
    """``[tool.mypy]`` and ``[tool.pyright]`` both: each judges, either one's error is red, and
    the reply equals the two cold oracles' answers together."""
    root = tmp_path / "both"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text(BOTH_PYPROJECT)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(CORE)
    mypy_oracle, pyright_oracle = MypyOracle(root, python_exe), ColdOracle(root, python_exe)
    patches = [(new_file(rel, text),) for rel, text, _ in BOTH_CASES]

    def cold_mypy_answers() -> list[list[Diagnostic]]:
        return [mypy_oracle.expected(c, tmp_path / f"mypy-{n}") for n, c in enumerate(patches)]

    def cold_pyright_answers() -> list[list[Diagnostic]]:
        trees = [
            write_patched_copy(root, c, tmp_path / f"pyright-{n}") for n, c in enumerate(patches)
        ]
        return [pyright_oracle.introduced(tree) for tree in trees]

    # The cold runs (one stream per oracle, each oracle's base run once) overlap the daemon's
    # checks: independent processes, none of them writes the tree the daemon watches.
    with ThreadPoolExecutor(max_workers=2) as pool:
        mypy_cold, pyright_cold = pool.submit(cold_mypy_answers), pool.submit(cold_pyright_answers)
        replies = [client.check(root, c, python=python_exe, timeout_s=120) for c in patches]
        cold = zip(mypy_cold.result(), pyright_cold.result(), strict=True)
    failures: list[str] = []
    for (rel, _, designed), reply, (by_mypy, by_pyright) in zip(
        BOTH_CASES, replies, cold, strict=True
    ):
        expected = [*by_mypy, *by_pyright]
        daemon = normalize_paths(reply.diagnostics, root)
        only_daemon, only_oracle = differences(daemon, expected)
        errors = frozenset(d.source for d in daemon if d.severity == "error")
        if only_daemon or only_oracle or errors != designed or reply.ok == bool(designed):
            failures.append(
                f"{rel}: ok={reply.ok}, error sources {sorted(errors)} (designed "
                f"{sorted(designed)})\n  only daemon: {only_daemon}\n  only oracle: {only_oracle}"
            )
    assert not failures, "\n".join(failures)
