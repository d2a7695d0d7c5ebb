"""A fixed, seeded set of patches per workload, one per kind of edit an agent makes.

The edits are built with the differential test's generator parts (``tests.support``: the ``ast``
index, the body insertions, the signature changes), so bench and tests agree on what a "body-only
edit" or a "signature change" is. Each kind takes the first target its seeded order yields; a
kind with no target in a workload (the 5-file demo has few) is left out and reported as such.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from prewrite.changes import new_file
from prewrite_daemon.languages.python.names.imports import ImportGraph, interface_changed
from tests.support.patchkit import (
    Context,
    GeneratedPatch,
    after_imports,
    body_insert,
    end_of_file,
    make_patch,
    shuffled,
)
from tests.support.signature_patches import (
    optional_param_callers,
    rename_everywhere,
    required_param,
)
from tests.support.sourceindex import Function, SourceIndex, insert_at

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from prewrite.protocol import FileChange

SEED = 1729
GREEN = "_pw_probe: int = len('prewrite')"
HELPER = (
    '"""Added by a bench patch."""\n\n\ndef pw_helper(value: int) -> int:\n    return value + 1\n'
)


@dataclass(frozen=True)
class BenchPatch:
    """One patch: what kind of edit, where, and whether importers see a different interface."""

    kind: str
    name: str
    changes: tuple[FileChange, ...]
    interface: str  # "preserving" (bodies only) or "changing" (signatures, names, modules)

    @property
    def files(self) -> int:
        return len(self.changes)

    def salted(self, run: int) -> list[FileChange]:
        return salted(self.changes, run, (".py",), "#")


def module_level_checked(root: Path, patch: BenchPatch) -> int:
    """How many files the module-level rule (before name-level dependencies) would compare:
    the patched ones plus every transitive importer of one whose interface changed."""
    graph = ImportGraph()
    for path in root.rglob("*.py*"):
        if path.suffix in (".py", ".pyi") and path.is_file():
            graph.update(path.relative_to(root).as_posix(), path.read_text(errors="replace"))
    patched = {c.path for c in patch.changes if not c.delete}
    reaching: set[str] = set()
    for c in patch.changes:
        old_path = root / c.path
        old = old_path.read_text(errors="replace") if old_path.is_file() else None
        if interface_changed(old, None if c.delete else c.content):
            reaching.add(c.path)
    deleted = {c.path for c in patch.changes if c.delete}
    return len(patched | (graph.importers(reaching) - deleted))


def salted(
    changes: tuple[FileChange, ...], run: int, suffixes: tuple[str, ...], comment: str
) -> list[FileChange]:
    """``changes`` with a run-specific comment at the end of the first written source file, so
    no run can be answered from a cache of an identical earlier request."""
    out = list(changes)
    for i, change in enumerate(out):
        if change.content is not None and change.path.endswith(suffixes):
            text = change.content + f"\n{comment} prewrite bench run {run}\n"
            out[i] = msgspec.structs.replace(change, content=text)
            break
    return out


KINDS = ("body_1", "body_5", "signature", "rename", "new_module")
INTERFACE = {
    "body_1": "preserving",
    "body_5": "preserving",
    "signature": "changing",
    "rename": "changing",
    "new_module": "changing",
}


def _is_test(path: str) -> bool:
    return any(part.startswith(("test", "conftest")) for part in path.split("/"))


def _annotated_functions(ctx: Context) -> list[Function]:
    """Functions of the package proper (not its test-suite) with a return annotation (pyright
    infers unannotated return types from the body). An edit is kept only where the daemon's own
    ``interface_changed`` agrees importers cannot see it (no ``self.x = ...``, no ``global``)."""
    return [
        fn for fn in ctx.index.functions if not _is_test(fn.path) and fn.node.returns is not None
    ]


def _body_edits(ctx: Context, rng: random.Random, files: int) -> Iterator[GeneratedPatch]:
    """Green body-only insertions in ``files`` different modules (fewer if the tree is small)."""
    by_file: dict[str, list[Function]] = {}
    for fn in _annotated_functions(ctx):
        by_file.setdefault(fn.path, []).append(fn)
    changes: list[FileChange] = []
    for path in shuffled(sorted(by_file), rng):
        edit = next(
            (e for fn in shuffled(by_file[path], rng) if (e := body_insert(ctx, fn, GREEN))), None
        )
        change = ctx.edited(path, [edit]) if edit else None
        old = ctx.index.files[path].text
        if change is not None and not interface_changed(old, change.content):
            changes.append(change)
        if len(changes) == files:
            break
    kind = "body_1" if files == 1 else "body_5"
    if p := make_patch(kind, "+".join(c.path for c in changes), changes):
        yield p


def _new_module(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """A new module in a package, imported and used by an existing module of that package."""
    packages = {f.path.rpartition("/")[0] for f in ctx.index.files.values() if f.is_package}
    for f in shuffled(sorted(ctx.index.files.values(), key=lambda f: f.path), rng):
        folder, after = f.path.rpartition("/")[0], after_imports(f)
        if folder not in packages or after is None or _is_test(f.path) or f.is_package:
            continue
        edits = [insert_at(after, 0, "from ._pw_added import pw_helper\n")]
        edits.append(end_of_file(f, "_PW_VALUE = pw_helper(1)"))
        added = new_file(f"{folder}/_pw_added.py", HELPER)
        if p := make_patch("new_module", f"{f.path}+_pw_added", [added, ctx.edited(f.path, edits)]):
            yield p


def _first(makers: list[Iterator[GeneratedPatch]]) -> GeneratedPatch | None:
    return next((patch for maker in makers for patch in maker), None)


def generate(root: Path, seed: int = SEED) -> list[BenchPatch]:
    """The workload's patches, in ``KINDS`` order; the same tree and seed give the same set."""
    ctx = Context(root, SourceIndex(root), ())

    def rng(kind: str) -> random.Random:
        return random.Random(f"{seed}:{kind}")

    candidates = {
        "body_1": [_body_edits(ctx, rng("body_1"), 1)],
        "body_5": [_body_edits(ctx, rng("body_5"), 5)],
        "signature": [required_param(ctx, rng("signature"))],
        # A multi-file rename; where none is safe, a keyword added at every call site.
        "rename": [
            rename_everywhere(ctx, rng("rename")),
            optional_param_callers(ctx, rng("rename")),
        ],
        "new_module": [_new_module(ctx, rng("new_module"))],
    }
    patches: list[BenchPatch] = []
    for kind in KINDS:
        found = _first(candidates[kind])
        if found is not None:
            patches.append(BenchPatch(kind, found.name, found.changes, INTERFACE[kind]))
    return patches
