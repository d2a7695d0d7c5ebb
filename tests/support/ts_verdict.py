"""Compare a daemon verdict on a TypeScript workspace with cold ``tsc`` on the patched tree."""

from __future__ import annotations

import shutil
from collections import Counter
from typing import TYPE_CHECKING

from tests.support.oracle import normalize_paths
from tests.support.ts_oracle import TsColdOracle, write_patched_copy

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import CheckReply, Diagnostic, FileChange


def _keys(diagnostics: list[Diagnostic]) -> Counter[tuple[str, int, str, str, str]]:
    return Counter((d.path, d.line, d.rule, d.severity, d.message) for d in diagnostics)


def assert_matches_tsc(reply: CheckReply, root: Path, changes: list[FileChange], tmp: Path) -> None:
    """The daemon's new diagnostics and ``ok`` equal what cold tsc says the patch introduced."""
    oracle = TsColdOracle(root, (root / "node_modules" / "typescript").resolve())
    tree = write_patched_copy(root, changes, tmp / "patched")
    try:
        cold = oracle.introduced(tree)
    finally:
        shutil.rmtree(tree)
    daemon = normalize_paths(reply.diagnostics, root)
    assert _keys(daemon) == _keys(cold), (daemon, cold)
    assert reply.ok == (not any(d.severity == "error" for d in cold)), (reply.ok, cold)
