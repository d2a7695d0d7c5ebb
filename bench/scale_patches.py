"""The scale bench's patches on a repository (``bench.scale_repos``), and their cold verdicts.

The oracle is the cold
checker (the pyright CLI, or the workspace's own ``tsc``: ``bench.scale_stage``) on the patched
tree written to a copy (``node_modules`` linked, not copied), diffed against the cold run of the
base as the daemon diffs (``tests.support.oracle``); its wall time is also the cold CLI on the
patched tree.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.protocol import Diagnostic, FileChange
from tests.support.oracle import introduced_between, surplus
from tests.support.ts_oracle import write_patched_copy

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from bench.scale_repos import ScaleRepo

    ColdRun = Callable[[Path, float], list[Diagnostic]]  # (tree, timeout_s): its diagnostics


@dataclass(frozen=True)
class ScalePatch:
    """One kind of edit: ``edit(text, run)`` is the module's new text for salted run ``run``."""

    kind: str
    what: str
    path: str
    edit: Callable[[str, int], str]
    runs: int
    timeout_s: float

    def change(self, root: Path, run: int) -> FileChange:
        raw = (root / self.path).read_bytes()
        content = self.edit(raw.decode("utf-8"), run)
        return FileChange(self.path, hashlib.sha256(raw).hexdigest(), content)


def scale_patches(
    repo: ScaleRepo, first_s: float, warm_s: float, interface_s: float, runs: int
) -> list[ScalePatch]:
    """The bench's patches in the order they are checked; the first is the daemon's first check."""
    hub = repo.hub_what.split(" (")[0]
    number = "number" if repo.typescript else "int"
    docstring = [
        ScalePatch("hub_docstring", f"docstring edit of a hub ({repo.hub_what})",
                   repo.hub, repo.hub_docstring, runs, warm_s)
    ] if repo.hub_docstring else []  # fmt: skip
    return [
        ScalePatch("first_check", "comment-only edit of a leaf module (the daemon's first check)",
                   repo.leaf, repo.comment, 1, first_s),
        ScalePatch("leaf_body", f"body edit of a leaf ({repo.leaf_what})",
                   repo.leaf, repo.leaf_body, runs, warm_s),
        ScalePatch("hub_body", f"body edit of a hub ({repo.hub_what})",
                   repo.hub, repo.hub_body, runs, warm_s),
        *docstring,
        ScalePatch("interface", f"interface change: {hub} gains a parameter with a default",
                   repo.hub, repo.new_parameter, 3, interface_s),
        ScalePatch("interface_red", f"interface change: {hub} declared to return {number} (red)",
                   repo.hub, repo.return_annotation, 1, interface_s),
    ]  # fmt: skip


@dataclass(frozen=True)
class Cold:
    """A cold checker's run: its wall time and diagnostics, or why there are none."""

    ms: float
    diagnostics: list[Diagnostic] | None
    error: str | None = None


def run_cold(tree: Path, cold: ColdRun, timeout_s: float) -> Cold:
    """The cold CLI on ``tree``, timed; a timeout or failure is a result, not a crash."""
    started = time.perf_counter()
    try:
        found = cold(tree, timeout_s)
    except subprocess.TimeoutExpired:
        return Cold(timeout_s * 1000, None, f"no answer within {timeout_s:.0f} s")
    except Exception as exc:  # OracleFailed, TsOracleFailed, OSError: reported in the results
        return Cold((time.perf_counter() - started) * 1000, None, f"{type(exc).__name__}: {exc}")
    return Cold((time.perf_counter() - started) * 1000, found)


def cold_introduced(
    root: Path, cold: ColdRun, base: Sequence[Diagnostic], change: FileChange, timeout_s: float
) -> Cold:
    """The oracle for one patch: the cold run on the patched copy, less the base's diagnostics."""
    with tempfile.TemporaryDirectory(prefix="pwb-scale-cold-", dir="/tmp") as tmp:
        tree = write_patched_copy(root, [change], Path(tmp) / "tree")
        found = run_cold(tree, cold, timeout_s)
        if found.diagnostics is None:
            return found
        new = introduced_between(root, base, tree, found.diagnostics)
        shutil.rmtree(tree)
    return Cold(found.ms, new)


def show(d: Diagnostic) -> str:
    return f"{d.path}:{d.line}:{d.column} {d.severity} [{d.rule}] {d.message}"


def disagreement(
    daemon: Sequence[Diagnostic], oracle: Sequence[Diagnostic]
) -> dict[str, list[str]]:
    """What only one side reported, as multisets of (path, rule, severity, message)."""
    return {
        "only_daemon": [show(d) for d in surplus(daemon, oracle)],
        "only_oracle": [show(d) for d in surplus(oracle, daemon)],
    }
