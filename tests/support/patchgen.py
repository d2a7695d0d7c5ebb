"""A seeded, deterministic generator of patches over a Python tree, for the differential test.

Each kind of patch looks for its targets with ``ast`` (see ``sourceindex``), visits them in an
order shuffled by its own ``random.Random(f"{seed}:{kind}")`` and yields a patch for every target
where the edit compiles, until it has its quota. Kinds aim at green edits, cross-file breaks,
errors seen only in importers, deletions, new modules, and pure line shifts; whether a patch is
really red is for the oracle to say, the ``kind`` only names the intent.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING

from prewrite.changes import delete_file, new_file
from tests.support.patchkit import (
    Context,
    GeneratedPatch,
    Maker,
    after_imports,
    body_insert,
    end_of_file,
    make_patch,
    shuffled,
)
from tests.support.signature_patches import (
    optional_param_callers,
    rename_everywhere,
    rename_function,
    required_param,
    return_annotation,
)
from tests.support.sourceindex import Function, SourceIndex, insert_at

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

__all__ = ["DEFAULT_SEED", "KINDS", "GeneratedPatch", "generate_patches"]

DEFAULT_SEED = 1729

# --- kinds -----------------------------------------------------------------------------------

GREEN_STATEMENTS = ("pass  # prewrite: body-only edit", "_pw_probe: int = len('prewrite')")
RED_STATEMENTS = ("_pw_bad: int = 'prewrite'", "_pw_value = pw_undefined_name")


def body_only(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for n, fn in enumerate(shuffled(ctx.index.functions, rng)):
        edit = body_insert(ctx, fn, GREEN_STATEMENTS[n % 2])
        if edit and (
            p := make_patch("body_only", fn.path + ":" + fn.qualname, [ctx.edited(fn.path, [edit])])
        ):
            yield p


def intra_file_error(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for n, fn in enumerate(shuffled(ctx.index.functions, rng)):
        edit = body_insert(ctx, fn, RED_STATEMENTS[n % 2])
        if edit and (
            p := make_patch(
                "intra_file_error", f"{fn.path}:{fn.qualname}", [ctx.edited(fn.path, [edit])]
            )
        ):
            yield p


def delete_module(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for f in shuffled(list(ctx.index.files.values()), rng):
        if not f.is_package and ctx.index.module_importers(f.path):
            yield GeneratedPatch(
                f"delete_module[{f.path}]", "delete_module", (delete_file(ctx.root, f.path),)
            )


def _new_module(kind: str, imported: str, usage: str | None) -> Maker:
    helper = (
        '"""Added by a generated patch."""\n\n\n'
        "def pw_helper(value: int) -> int:\n    return value + 1\n"
    )

    def make(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
        packages = {f.path.rpartition("/")[0] for f in ctx.index.files.values() if f.is_package}
        for n, f in enumerate(shuffled(list(ctx.index.files.values()), rng)):
            folder, after = f.path.rpartition("/")[0], after_imports(f)
            if folder not in packages or after is None:
                continue
            stem = f"_pw_added_{n}"
            edits = [insert_at(after, 0, f"from .{stem} import {imported}\n")]
            edits += [end_of_file(f, usage)] if usage else []
            added = new_file(f"{folder}/{stem}.py", helper)
            if p := make_patch(kind, f"{f.path}+{stem}", [added, ctx.edited(f.path, edits)]):
                yield p

    return make


def shift_only(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Move pre-existing errors down without touching them: must introduce nothing."""
    files = [ctx.index.files[p] for p in ctx.error_files if p in ctx.index.files]
    for n, f in enumerate(shuffled(files, rng)):
        after = after_imports(f)
        if n % 2 == 0 or after is None:
            edit = insert_at(1, 0, "# prewrite: shifted\n# by three\n# lines\n")
        else:
            edit = insert_at(after, 0, "\n_PW_SHIFT = 0\n\n")
        if p := make_patch("shift_only", f.path, [ctx.edited(f.path, [edit])]):
            yield p


def mixed_multi_file(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Body edits in 3-5 files; every other patch breaks one of them."""
    by_file: dict[str, list[Function]] = {}
    for fn in ctx.index.functions:
        by_file.setdefault(fn.path, []).append(fn)
    paths = sorted(by_file)
    for n in itertools.count():
        if n >= 20 or len(paths) < 3:
            return
        chosen = rng.sample(paths, min(len(paths), rng.randint(3, 5)))
        red = n % 2 == 0
        edits = [(p, body_insert(ctx, rng.choice(by_file[p]), GREEN_STATEMENTS[0])) for p in chosen]
        if red:
            path = chosen[0]
            edits[0] = (path, body_insert(ctx, rng.choice(by_file[path]), RED_STATEMENTS[0]))
        changes = [ctx.edited(p, [e]) if e else None for p, e in edits]
        label = "red" if red else "green"
        if p := make_patch("mixed_multi_file", f"{label}:{'+'.join(sorted(chosen))}", changes):
            yield p


KINDS: tuple[tuple[str, int, Maker], ...] = (
    ("body_only", 3, body_only),
    ("intra_file_error", 2, intra_file_error),
    ("return_annotation", 3, return_annotation("return_annotation", methods=False)),
    ("method_return_annotation", 2, return_annotation("method_return_annotation", methods=True)),
    ("required_param", 3, required_param),
    ("optional_param_callers", 2, optional_param_callers),
    ("rename_function", 2, rename_function),
    ("rename_everywhere", 1, rename_everywhere),
    ("delete_module", 2, delete_module),
    ("new_module", 2, _new_module("new_module", "pw_helper", "_PW_VALUE = pw_helper(1)")),
    ("new_module_missing_name", 1, _new_module("new_module_missing_name", "pw_missing", None)),
    ("shift_only", 2, shift_only),
    ("mixed_multi_file", 2, mixed_multi_file),
)


def generate_patches(
    root: Path, *, seed: int = DEFAULT_SEED, error_files: Sequence[str] = ()
) -> list[GeneratedPatch]:
    """Up to ``sum(quota)`` patches over ``root``; ``error_files`` have pre-existing diagnostics."""
    ctx = Context(root, SourceIndex(root), tuple(sorted(set(error_files))))
    patches: list[GeneratedPatch] = []
    for kind, quota, maker in KINDS:
        patches.extend(itertools.islice(maker(ctx, random.Random(f"{seed}:{kind}")), quota))
    return patches
