"""The scale bench's private copy of a repository, and the cold checker that is its oracle.

A Python repository (a pinned sdist, ``tests.support.workloads``) is staged with its venv and the
ruff rungs off, and judged by the pyright CLI; a TypeScript one (a pinned npm package,
``tests.support.ts_workloads``, the same fetcher and cache as the main bench's rxjs and mobx) is
staged with its ``node_modules`` (``typescript`` a link to the toolchain of ``ts_major``) and
judged by that TypeScript's own ``tsc --noEmit -p tsconfig.json``, which is also what the daemon
runs (tsserver for 5.x, ``tsc --lsp`` for 7.x). Either way the bench sees one shape: a root, an
interpreter or none, a label, a cold run of a tree, and the repository's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from prewrite_daemon.backends.pyright_command import checker_version
from prewrite_daemon.backends.typescript import find_typescript
from tests.support.oracle import cold_pyright
from tests.support.ts_oracle import cold_tsc
from tests.support.ts_workloads import TsPackageSpec, copy_ts_workload, prepare_ts_workload
from tests.support.workloads import TYPECHECK_ONLY, copy_workspace, prepare_workload

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from bench.scale_repos import ScaleRepo
    from prewrite.protocol import Diagnostic


@dataclass(frozen=True)
class Staged:
    """A staged repository: where it is, what judges it cold, and how big it is."""

    root: Path
    python: str | None  # the venv's interpreter (Python), None for TypeScript
    checker: str  # e.g. "pyright 1.1.414", "TypeScript 5.9.3 (tsserver)"
    cold: Callable[[Path, float], list[Diagnostic]]  # (tree, timeout_s): all its diagnostics
    files: int  # source files under the repository's package
    lines: int  # their lines


def _size(root: Path, repo: ScaleRepo) -> tuple[int, int]:
    files = sorted((root / repo.package).rglob(f"*{repo.suffix}"))
    lines = sum(len(f.read_bytes().splitlines()) for f in files)
    return len(files), lines


def _cold_pyright(python: str, tree: Path, timeout_s: float) -> list[Diagnostic]:
    return cold_pyright(tree, python, timeout_s=timeout_s)


def _cold_tsc(ts_dir: Path, tree: Path, timeout_s: float) -> list[Diagnostic]:
    return cold_tsc(tree, ts_dir, timeout_s)


def stage(repo: ScaleRepo, dest: Path, ts_major: int) -> Staged:
    """A private copy of ``repo`` at ``dest`` (a new directory), ready for a daemon and its
    oracle; ``ts_major`` picks the TypeScript toolchain (ignored for Python)."""
    if isinstance(repo.spec, TsPackageSpec):
        copy = copy_ts_workload(prepare_ts_workload(repo.spec, ts_major), dest)
        ts = find_typescript(copy.root)
        engine = "tsc --lsp" if ts.native else "tsserver"
        files, lines = _size(copy.root, repo)
        cold = partial(_cold_tsc, copy.ts_dir)
        return Staged(copy.root, None, f"TypeScript {ts.version} ({engine})", cold, files, lines)
    staged = copy_workspace(prepare_workload(repo.spec), dest)
    pyproject = staged.root / "pyproject.toml"
    pyproject.write_text(repo.staged_pyproject(pyproject.read_text()) + TYPECHECK_ONLY)
    files, lines = _size(staged.root, repo)
    cold = partial(_cold_pyright, staged.python)
    return Staged(staged.root, staged.python, checker_version(), cold, files, lines)
