"""Check ``NameGraph.affected`` against cold pyright on interface-changing patches to httpx.

``.venv/bin/python -m bench.name_deps_check [--only SUBSTRING] [--generated]``

For every patch: the transitive importers of the patched files (``ImportGraph``, what
``plan_check`` rechecks today), the files ``NameGraph.affected`` keeps, and the files whose
diagnostics really changed: ``pyright --outputjson`` (the repository's pyright, the workload's
venv as ``--pythonpath``) from scratch on a copy of the workspace before and after the patch,
every diagnostic compared by (line, column, rule, severity, message). The narrowing is *sound*
when every file that changed is patched or affected. The base runs are done once per base tree.

Two base trees: httpx 0.28.1 as released, and the same with ``TEMPTING`` files added: code built
to tempt a name-level pruner (a name used only as ``module.attr``, through an alias, a star
import, an unannotated helper two hops away, an unannotated module variable, a subclass of a
subclass through the package's re-exports, a local definition shadowing the changed name).
``--generated`` adds the differential test's seeded patches (``tests.support.patchgen``).
Exit status 1 when any patch is unsound.

This module runs the check; the patches are ``bench.name_deps_cases`` (on the model of
``bench.name_deps_edits``) and the tempting tree ``bench.name_deps_tempting``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bench.name_deps_cases import CASES
from bench.name_deps_edits import Case, Edit, apply, restore
from bench.name_deps_tempting import TEMPTING
from prewrite_daemon.languages.python.environment import site_dirs
from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.languages.python.names.imports import ImportGraph
from prewrite_daemon.languages.python.protocols.roots import for_environment
from tests.support.oracle import cold_pyright
from tests.support.workloads import HTTPX, Workload, copy_workspace, prepare_workload

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic
    from prewrite_daemon.languages.python.protocols.library import LibraryProtocols

Key = tuple[int, int, str, str, str]


@dataclass(frozen=True)
class Row:
    case: str
    patched: int
    importers: int
    affected: int
    changed: list[str]
    unsound: list[str]
    narrow_ms: float
    fallbacks: dict[str, str]


def diagnostics_by_file(root: Path, python: str) -> dict[str, Counter[Key]]:
    found: dict[str, Counter[Key]] = defaultdict(Counter)
    diags: list[Diagnostic] = cold_pyright(root, python)
    for d in diags:
        found[d.path][(d.line, d.column, d.rule, d.severity, d.message)] += 1
    return found


def library_protocols(python: str) -> LibraryProtocols:
    """The venv's and typeshed's Protocols, scanned now (as a workspace's graph asks for them)."""
    library = for_environment(site_dirs(python))
    if library.wait(600) is None:
        raise SystemExit(f"the Protocol scan failed: {library.statistics().error}")
    return library


class Tree:
    """One base tree: its copy on disk, cold base diagnostics, and both graphs over it."""

    def __init__(self, root: Path, python: str, protocols: LibraryProtocols) -> None:
        self.root, self.python = root, python
        t0 = time.perf_counter()
        self.base = diagnostics_by_file(root, python)
        self.base_s = time.perf_counter() - t0
        # httpx configures no pyright: reportImportCycles is off, as pyright's default
        self.names = NameGraph(protocols, report_import_cycles=False)
        self.imports = ImportGraph()
        t0 = time.perf_counter()
        for path in sorted(root.rglob("*.py*")):
            if path.suffix in (".py", ".pyi"):
                rel = path.relative_to(root).as_posix()
                text = path.read_text()
                self.names.update(rel, text)
                self.imports.update(rel, text)
        self.update_ms = (time.perf_counter() - t0) * 1000

    def check(self, case: Case) -> Row:
        before = apply(self.root, case.edits)
        try:
            changes = [(rel, old, _read(self.root / rel)) for rel, old in before.items()]
            t0 = time.perf_counter()
            narrowing = self.names.narrow(changes)
            narrow_ms = (time.perf_counter() - t0) * 1000
            after = diagnostics_by_file(self.root, self.python)
        finally:
            restore(self.root, before)
        patched = set(before)
        changed = sorted(
            f for f in self.base.keys() | after.keys() if self.base.get(f) != after.get(f)
        )
        return Row(
            case=case.name,
            patched=len(patched),
            importers=len(self.imports.importers(patched) - patched),
            affected=len(narrowing.files),
            changed=[f for f in changed if f not in patched],
            unsound=[f for f in changed if f not in patched and f not in narrowing.files],
            narrow_ms=narrow_ms,
            fallbacks=narrowing.fallbacks,
        )


def _read(path: Path) -> str | None:
    return path.read_text() if path.exists() else None


def generated_cases(tree: Tree) -> list[Case]:
    from tests.support.patchgen import generate_patches

    errors = sorted(f for f, c in tree.base.items() if c)
    cases: list[Case] = []
    for p in generate_patches(tree.root, error_files=errors):
        edits = tuple(
            Edit(
                c.path,
                None if c.base_sha256 is None else "",
                None if c.delete else c.content,
                whole=True,
            )
            for c in p.changes
        )
        cases.append(Case(f"generated {p.kind}: {p.name}"[:70], edits))
    return cases


def render(rows: list[Row]) -> str:
    width = max(len(r.case) for r in rows)
    lines = [
        f"{'patch':<{width}}  importers  affected  changed  sound  narrow ms",
        f"{'-' * width}  ---------  --------  -------  -----  ---------",
    ]
    for r in rows:
        sound = "yes" if not r.unsound else "NO"
        lines.append(
            f"{r.case:<{width}}  {r.importers:>9}  {r.affected:>8}  "
            f"{len(r.changed):>7}  {sound:>5}  {r.narrow_ms:>9.1f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--only", help="run the cases whose name contains this")
    parser.add_argument("--generated", action="store_true", help="add the seeded patches")
    parser.add_argument("--verbose", action="store_true", help="list the files of every row")
    args = parser.parse_args(argv)
    workload = prepare_workload(HTTPX)
    protocols = library_protocols(workload.python)
    scratch = Path(tempfile.mkdtemp(prefix="prewrite-name-deps-"))
    rows: list[Row] = []
    try:
        trees: dict[str, Tree] = {}
        cases = [c for c in CASES if not args.only or args.only in c.name]
        for base in sorted({c.base for c in cases} | ({"released"} if args.generated else set())):
            copy: Workload = copy_workspace(workload, scratch / base)
            if base == "tempting":
                apply(copy.root, TEMPTING)
            trees[base] = Tree(copy.root, copy.python, protocols)
            tree = trees[base]
            files = len(tree.names.files())
            print(
                f"{base}: cold pyright {tree.base_s:.1f} s, "
                f"NameGraph.update of {files} files {tree.update_ms:.0f} ms",
                flush=True,
            )
        if args.generated:
            cases += generated_cases(trees["released"])
        for patch in cases:
            row = trees[patch.base].check(patch)
            rows.append(row)
            print(
                f"  {row.case}: importers {row.importers}, affected {row.affected}, changed "
                f"{row.changed}{'' if not row.unsound else f' UNSOUND: {row.unsound}'}",
                flush=True,
            )
            if args.verbose and row.fallbacks:
                print(f"    fallbacks: {row.fallbacks}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print()
    print(render(rows))
    unsound = [r for r in rows if r.unsound]
    total_i, total_a = sum(r.importers for r in rows), sum(r.affected for r in rows)
    print(
        f"\n{len(rows)} patches, {len(unsound)} unsound; importers {total_i} -> affected "
        f"{total_a} files ({total_a / max(total_i, 1):.0%})"
    )
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
