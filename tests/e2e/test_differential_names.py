"""Patches built to tempt a name-level pruner, judged by the daemon and by cold pyright.

The daemon re-checks only the files that can see a changed name (``names.deps``). These patches
change names that reach other files in the ways such a pruner could miss: through
``module.attr``, an alias, a re-export, a star import, an unannotated helper two hops away, an
unannotated module variable, a subclass in another package, a local name that shadows the
changed one, a module added, deleted or renamed, a function renamed with its calls (importers
outside the patch keeping the old name, through the package, as a module attribute, or a
patched file passing the function on as a value, which carries its name into messages). Each
is judged on a real httpx tree (the "tempting" cases on a copy with files added that reach the
changed names in those ways), and the daemon's introduced diagnostics must equal the cold
oracle's. The cases (``bench/name_deps_cases.py``) are the ones ``bench/name_deps_check.py``
validates the narrowing itself with.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pytest

from bench.name_deps_cases import CASES
from bench.name_deps_edits import Case, apply, edited
from bench.name_deps_tempting import TEMPTING
from prewrite import change_file, delete_file, new_file
from tests.support.differential import Disagreement, compare
from tests.support.oracle import ColdOracle
from tests.support.patchkit import GeneratedPatch
from tests.support.workloads import Workload, copy_workspace, prepare_workload, typecheck_only

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import FileChange

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MIN_EACH_VERDICT = 3


def _tree(tmp_path_factory: pytest.TempPathFactory, name: str) -> Workload:
    copy = copy_workspace(prepare_workload(), tmp_path_factory.mktemp(name) / "httpx")
    return typecheck_only(copy)


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Workload]:
    released = _tree(tmp_path_factory, "names-released")
    tempting = _tree(tmp_path_factory, "names-tempting")
    apply(tempting.root, TEMPTING)  # on disk: the base the tempting cases are judged against
    return {"released": released, "tempting": tempting}


def as_patch(root: Path, case: Case) -> GeneratedPatch:
    """The case's edits as a prewrite patch against ``root``, computed without writing to the
    tree: the daemon watches it, and a write and its undo would each reach the warm checker."""
    changes: list[FileChange] = []
    for rel, (old, new) in edited(root, case.edits).items():
        if old is None and new is not None:
            changes.append(new_file(rel, new))
        elif new is None:
            changes.append(delete_file(root, rel))
        elif new != old:
            changes.append(change_file(root, rel, new))
    return GeneratedPatch(case.name, "tempting", tuple(changes))


@pytest.mark.timeout(1800)
def test_tempting_patches_match_cold_pyright(
    client: Client, trees: dict[str, Workload], tmp_path: Path
) -> None:
    oracles = {k: ColdOracle(w.root, w.python, recorded=True) for k, w in trees.items()}
    disagreements: list[Disagreement] = []
    verdicts: Counter[str] = Counter()
    for n, case in enumerate(CASES):
        workload = trees[case.base]
        patch = as_patch(workload.root, case)
        assert patch.changes, case.name
        red, found = compare(client, workload, oracles[case.base], patch, tmp_path / f"c{n}")
        verdicts["red" if red else "green"] += 1
        if found is not None:
            disagreements.append(found)
    report = "\n".join(d.render() for d in disagreements)
    assert not disagreements, f"{len(disagreements)} of {len(CASES)} judged differently:\n{report}"
    assert verdicts["red"] >= MIN_EACH_VERDICT, verdicts
    assert verdicts["green"] >= MIN_EACH_VERDICT, verdicts
