"""A seeded, deterministic generator of patches over any TypeScript tree, for the differential test.

The Python generator's design (``patchgen.py``) for TypeScript, with regexes in place of ``ast``:
exported functions whose whole header sits on one line (``export function f<T>(a: A): R {``),
exported interfaces, relative imports and re-exports. Nothing is known about the package, so a
tree never seen before works. Each kind visits its targets in an order shuffled by its own
``random.Random(f"{seed}:{kind}")`` and yields patches until it has its quota. The edits are
conservative (whole lines, or a header's parameter list); there is no TypeScript parser here, and
the ``kind`` only names the intent: whether a patch is red is for the oracle to say.

The parts: the tree's index (``ts_index.py``), the edits (``ts_edits.py``), the kinds
(``ts_kinds.py``); here, the kinds' quotas and the generator.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING

from tests.support.patchkit import GeneratedPatch
from tests.support.ts_edits import Context, Maker
from tests.support.ts_index import Header, TsIndex
from tests.support.ts_kinds import (
    BROKEN_MODULE,
    HELPER_MODULE,
    USAGE,
    body_edit,
    delete_imported,
    delete_unimported,
    interface_required,
    intra_file_error,
    mixed_multi_file,
    move_module,
    move_module_stale,
    param_type,
    rename_everywhere,
    rename_export,
    required_param,
    return_type,
    shift_many,
    shift_only,
    tsconfig_strict,
)
from tests.support.ts_kinds import new_module as _new_module

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.protocol import Diagnostic


# Context, Header and required_param: for bench/ts_patches.py, which builds its edits from these.
__all__ = [
    "DEFAULT_SEED",
    "KINDS",
    "Context",
    "GeneratedPatch",
    "Header",
    "TsIndex",
    "generate_ts_patches",
    "required_param",
]

DEFAULT_SEED = 1729


KINDS: tuple[tuple[str, int, Maker], ...] = (
    ("body_edit", 3, body_edit),
    ("intra_file_error", 2, intra_file_error),
    ("required_param", 3, required_param),
    ("param_type", 2, param_type),
    ("return_type", 3, return_type),
    ("rename_export", 2, rename_export),
    ("rename_everywhere", 1, rename_everywhere),
    ("new_module", 2, _new_module("new_module", HELPER_MODULE, "pwHelper", USAGE)),
    (
        "new_module_missing_name",
        1,
        _new_module("new_module_missing_name", HELPER_MODULE, "pwMissing", None),
    ),
    ("new_module_broken", 1, _new_module("new_module_broken", BROKEN_MODULE, "pwHelper", USAGE)),
    ("delete_imported", 2, delete_imported),
    ("delete_unimported", 1, delete_unimported),
    ("move_module", 2, move_module),
    ("move_module_stale", 1, move_module_stale),
    ("interface_required", 2, interface_required),
    ("shift_only", 2, shift_only),
    ("shift_many", 1, shift_many),
    ("tsconfig_strict", 2, tsconfig_strict),
    ("mixed_multi_file", 2, mixed_multi_file),
)


def generate_ts_patches(
    root: Path, *, seed: int = DEFAULT_SEED, base: Sequence[Diagnostic] = ()
) -> list[GeneratedPatch]:
    """Up to ``sum(quota)`` patches over the TypeScript tree at ``root``; ``base``: the tree's
    own diagnostics (the oracle's), whose errors the shift kinds move."""
    errors = tuple(sorted({(d.path, d.line) for d in base if d.severity == "error"}))
    ctx = Context(root, TsIndex(root), errors)
    patches: list[GeneratedPatch] = []
    for kind, quota, maker in KINDS:
        patches.extend(itertools.islice(maker(ctx, random.Random(f"{seed}:{kind}")), quota))
    return patches
