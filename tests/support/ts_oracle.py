"""The cold TypeScript oracle: ``tsc --noEmit`` on a tree written to disk, diffed like the daemon.

The Python oracle's design (``oracle.py``) with tsc in place of pyright: the patched tree is
written to a temporary copy (``node_modules`` linked, not copied), the workspace's own TypeScript
checks the base and the copy from scratch, and per file
``prewrite_daemon.check.diagnostics.introduced``
keeps what is new. The output is read by the daemon's own parser (``backends/tsc_output.py``).
"""

from __future__ import annotations

import json
import subprocess
from functools import cached_property
from typing import TYPE_CHECKING

from prewrite_daemon.backends.tsc_output import parse_tsc_output
from prewrite_daemon.check.diagnostics import to_wire
from tests.support import oracle, oracle_record

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.protocol import Diagnostic, FileChange

__all__ = ["TsColdOracle", "TsOracleFailed", "cold_tsc", "tsc_argv", "write_patched_copy"]

# tsc's exit codes with diagnostics printed: 0 none, 1 (7.0) or 2 (5.9, "outputs skipped").
_REPORTED_EXITS = (0, 1, 2)


class TsOracleFailed(RuntimeError):
    """The cold tsc run crashed or printed nothing it could be judged by."""


def tsc_argv(ts_dir: Path) -> list[str]:
    """The cold CLI of the TypeScript package at ``ts_dir``, for the project in the cwd."""
    return ["node", str(ts_dir / "bin" / "tsc"), "--noEmit", "--pretty", "false"]


def cold_tsc(
    tree: Path, ts_dir: Path, timeout_s: float = 600.0, *, recorded: bool = False
) -> list[Diagnostic]:
    """All of tsc's diagnostics for the project at ``tree`` (its ``tsconfig.json``), as prewrite
    reports them: 1-based, root-relative paths, the tree's location masked in messages.
    ``recorded``: the recorded answer for the same input where there is one (``oracle_record``)."""
    if not recorded:
        return _run_tsc(tree, ts_dir, timeout_s)
    version = json.loads((ts_dir / "package.json").read_text(encoding="utf-8"))["version"]
    modules = tree / "node_modules"
    inputs = [oracle_record.typings(modules)] if modules.is_dir() else []
    checker = ["tsc", str(version), *tsc_argv(ts_dir)[2:]]
    return oracle_record.answer(checker, inputs, tree, lambda: _run_tsc(tree, ts_dir, timeout_s))


def _run_tsc(tree: Path, ts_dir: Path, timeout_s: float) -> list[Diagnostic]:
    argv = [*tsc_argv(ts_dir), "-p", "tsconfig.json"]
    proc = subprocess.run(
        argv, cwd=tree, capture_output=True, text=True, timeout=timeout_s, check=False
    )
    found = parse_tsc_output(proc.stdout, tree)
    if proc.returncode not in _REPORTED_EXITS or (proc.returncode != 0 and not found):
        raise TsOracleFailed(f"tsc exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    wire = [d for rel, raws in sorted(found.items()) for raw in raws if (d := to_wire(raw, rel))]
    return oracle.normalize_paths(wire, tree)


class TsColdOracle:
    """Cold verdicts for many patched copies of one base tree; the base is run once."""

    def __init__(self, base_tree: Path, ts_dir: Path, *, recorded: bool = False) -> None:
        self.base_tree = base_tree.resolve()
        self.ts_dir = ts_dir
        self.recorded = recorded  # answers read from ``oracle_record`` where it has them

    @cached_property
    def base(self) -> list[Diagnostic]:
        return cold_tsc(self.base_tree, self.ts_dir, recorded=self.recorded)

    def introduced(self, patched_tree: Path) -> list[Diagnostic]:
        """What the patched tree's cold run reports that the base did not, file by file."""
        candidate = cold_tsc(patched_tree, self.ts_dir, recorded=self.recorded)
        return oracle.introduced_between(self.base_tree, self.base, patched_tree, candidate)


def write_patched_copy(root: Path, changes: Sequence[FileChange], dest: Path) -> Path:
    """Copy ``root`` to the new directory ``dest`` and apply ``changes`` (base hashes checked);
    ``dest/node_modules`` links to the original's, so the copy resolves the same packages and
    runs the same TypeScript without copying either."""
    oracle.write_patched_copy(root, changes, dest)
    modules = root / "node_modules"
    if modules.exists():
        (dest / "node_modules").symlink_to(modules.resolve(), target_is_directory=True)
    return dest
