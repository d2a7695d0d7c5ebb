"""Two patches per TypeScript workload: a 1-file body edit and an interface change.

The edits come from the TypeScript differential test's index (``tests.support.ts_patchgen``:
exported functions whose header sits on one line, relative imports), so bench and tests read a
tree the same way. The picks are deterministic and typical, not cherry-picked:

- ``body_1``: a green statement at the top of an exported function's body, in the file whose
  number of (direct, relative) importers is the median among files that have importers and a
  function to edit; ties broken by the seed. A leaf nobody imports would flatter the daemon.
- ``interface``: a new required last parameter on an exported function that another file
  calls (the generator's ``required_param``, first such in its seeded order): the call breaks.

Nothing here knows how the daemon scopes a check: how many files it re-checks is measured
(``reply.checked_files``), not predicted.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bench.patches import salted
from prewrite.changes import change_file
from tests.support.patchkit import shuffled
from tests.support.ts_patchgen import Context, TsIndex, required_param

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import FileChange
    from tests.support.patchkit import GeneratedPatch
    from tests.support.ts_patchgen import Header

SEED = 1729
GREEN = 'const pwProbe: number = "prewrite".length; void pwProbe;'
KINDS = ("body_1", "interface")
SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")


@dataclass(frozen=True)
class TsBenchPatch:
    kind: str  # one of KINDS
    name: str  # "path:function"
    changes: tuple[FileChange, ...]
    importers: int  # direct importers of the edited file (relative imports)

    @property
    def files(self) -> int:
        return len(self.changes)

    def salted(self, run: int) -> list[FileChange]:
        return salted(self.changes, run, SOURCE_SUFFIXES, "//")


def _body_insert(root: Path, index: TsIndex, fn: Header) -> FileChange:
    file = index.files[fn.path]
    following = next((s for s in file.lines[fn.line + 1 :] if s.strip()), "}")
    indent = following[: len(following) - len(following.lstrip())] or "  "
    lines = [*file.lines[: fn.line + 1], indent + GREEN, *file.lines[fn.line + 1 :]]
    return change_file(root, fn.path, file.newline.join(lines) + file.newline)


def body_edit(root: Path, index: TsIndex, seed: int) -> TsBenchPatch | None:
    """A green body edit in the file with the median number of importers."""
    rng = random.Random(f"{seed}:body_1")
    by_file: dict[str, list[Header]] = {}
    for fn in index.functions:
        by_file.setdefault(fn.path, []).append(fn)
    counts = {path: len(index.importers(path)) for path in sorted(by_file)}
    imported = sorted(n for n in counts.values() if n > 0)
    if not imported:
        return None
    median = imported[(len(imported) - 1) // 2]
    path = shuffled([p for p, n in counts.items() if n == median], rng)[0]
    fn = shuffled(by_file[path], rng)[0]
    change = _body_insert(root, index, fn)
    return TsBenchPatch("body_1", f"{path}:{fn.name}", (change,), median)


def _called_elsewhere(index: TsIndex, patch: GeneratedPatch) -> bool:
    path, name = patch.name.removeprefix("required_param[").removesuffix("]").split(":")
    call = re.compile(rf"\b{re.escape(name)}\s*(<[^>]*>)?\(")
    return any(call.search(index.files[p].text) for p in index.users(name, path))


def interface_change(root: Path, index: TsIndex, seed: int) -> TsBenchPatch | None:
    """A required parameter added to an exported function that another file calls (so the
    patch is red there), the first in the generator's seeded order."""
    ctx = Context(root, index, ())
    made = required_param(ctx, random.Random(f"{seed}:interface"))
    found = next((p for p in made if _called_elsewhere(index, p)), None)
    if found is None:
        return None
    path = found.changes[0].path
    name = found.name.removeprefix("required_param[").removesuffix("]")
    return TsBenchPatch("interface", name, found.changes, len(index.importers(path)))


def generate(root: Path, seed: int = SEED) -> list[TsBenchPatch]:
    """The workload's patches in ``KINDS`` order; the same tree and seed give the same set."""
    index = TsIndex(root)
    made = (body_edit(root, index, seed), interface_change(root, index, seed))
    return [p for p in made if p is not None]
