"""The TypeScript differential test's body: the warm daemon's verdict equals a cold tsc run.

Generated patches (``tests/support/ts_patchgen.py``) over a real npm package, with TypeScript
5.9.3 or 7.0.2 as the workspace's ``node_modules/typescript``, are judged by the daemon, which
never writes them, and by ``tsc --noEmit`` of the same version on a patched copy on disk, diffed
with the daemon's own ``introduced`` rule. For every patch the multisets of (path, rule,
severity, message) must be equal, and the daemon's ``ok`` must say "no new error" exactly when the
oracle's set has none.

Both verdicts must be well represented, and the kinds that cannot be red (or green) on any tree
must not be, so the comparison cannot pass vacuously. With TypeScript 5 only, a diagnostic whose
message renders a union in another member order than cold tsc is tolerated (``_order_dependent``).
One test module per package (``tests/e2e/test_differential_ts_*.py``), so pytest-xdist can
give the packages to different workers.
"""

from __future__ import annotations

import json
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from tests.support.differential import Disagreement
from tests.support.oracle import normalize_paths, surplus
from tests.support.ts_oracle import TsColdOracle, write_patched_copy
from tests.support.ts_patchgen import generate_ts_patches
from tests.support.ts_workloads import copy_ts_workload, prepare_ts_workload

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

    from prewrite.client import Client
    from prewrite.protocol import Diagnostic
    from tests.support.patchkit import GeneratedPatch
    from tests.support.ts_workloads import TsWorkload

# As the Python differential test's floors (tests/e2e/test_differential.py).
MIN_PATCHES = 24
MIN_CROSS_FILE = 5
MIN_EACH_VERDICT = 5


def private_workload(name: str, major: int, tmp_path_factory: pytest.TempPathFactory) -> TsWorkload:
    """A private copy of the prepared workspace (the cached one stays pristine)."""
    dest = tmp_path_factory.mktemp(f"differential-ts-{name}-{major}") / name
    return copy_ts_workload(prepare_ts_workload(name, major), dest)


def _judge_cold(
    workload: TsWorkload, oracle: TsColdOracle, patch: GeneratedPatch, scratch: Path
) -> list[Diagnostic]:
    tree = write_patched_copy(workload.root, patch.changes, scratch)
    try:
        return oracle.introduced(tree)
    finally:
        shutil.rmtree(tree)


def _red(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)


def _major(workload: TsWorkload) -> int:
    version = json.loads((workload.ts_dir / "package.json").read_text())["version"]
    return int(str(version).split(".", 1)[0])


_QUOTED = re.compile(r"'([^'\n]*)'")


def _rendering(message: str) -> tuple[str, frozenset[str]]:
    """A message's skeleton (quoted parts blanked) and the set of type names it quotes, each
    union split into its members."""
    names = {m.strip() for q in _QUOTED.findall(message) for m in q.split(" | ")}
    return _QUOTED.sub("''", message), frozenset(names)


def _order_dependent(
    ours: list[Diagnostic], theirs: list[Diagnostic]
) -> list[tuple[Diagnostic, Diagnostic]]:
    """Pairs at one position whose messages differ only in how a union is rendered.

    TypeScript 5 orders a union's members by internal type ids, which follow the order types
    were first created: a warm tsserver that has checked other files first prints
    ``'Reaction | Atom'`` (and names ``Reaction`` as the first member missing a property) where a
    cold tsc prints ``'Atom | Reaction'``. Same error, same place, same types; TypeScript 7
    orders unions deterministically and gets no tolerance.
    """
    pairs: list[tuple[Diagnostic, Diagnostic]] = []
    left = list(theirs)
    for d in ours:
        match = next(
            (
                t for t in left
                if (t.path, t.line, t.column, t.rule, t.severity)
                == (d.path, d.line, d.column, d.rule, d.severity)
                and _rendering(t.message) == _rendering(d.message)
            ),
            None,
        )  # fmt: skip
        if match is not None:
            left.remove(match)
            pairs.append((d, match))
    return pairs


def _compare(
    client: Client, workload: TsWorkload, oracle: TsColdOracle, patch: GeneratedPatch, scratch: Path
) -> tuple[bool, Disagreement | None, int]:
    """Judge ``patch`` both ways: the oracle's "red" verdict, any disagreement, and how many
    diagnostics matched only up to union order (TypeScript 5 only)."""
    # The cold run and the daemon's check at once: independent processes, and the machine's
    # second core is otherwise idle while one waits for the other.
    with ThreadPoolExecutor(max_workers=1) as pool:
        cold_run = pool.submit(_judge_cold, workload, oracle, patch, scratch)
        reply = client.check(workload.root, patch.changes, timeout_s=300)
        cold = cold_run.result()
    daemon = normalize_paths(reply.diagnostics, workload.root)
    red = _red(cold)
    only_daemon, only_oracle = surplus(daemon, cold), surplus(cold, daemon)
    tolerated = _order_dependent(only_daemon, only_oracle) if _major(workload) == 5 else []
    only_daemon = [d for d in only_daemon if all(d is not a for a, _ in tolerated)]
    only_oracle = [d for d in only_oracle if all(d is not b for _, b in tolerated)]
    if only_daemon or only_oracle or reply.ok == red:
        return red, Disagreement(patch, only_daemon, only_oracle, reply.ok), len(tolerated)
    return red, None, len(tolerated)


def _patches(workload: TsWorkload, oracle: TsColdOracle) -> list[GeneratedPatch]:
    patches = generate_ts_patches(workload.root, base=oracle.base)
    assert len(patches) >= MIN_PATCHES, [p.name for p in patches]
    assert sum(len(p.changes) > 1 for p in patches) >= MIN_CROSS_FILE
    return patches


def run_differential(client: Client, workload: TsWorkload, tmp_path: Path) -> None:
    """Judge every generated patch of ``workload`` both ways; fail on any disagreement."""
    oracle = TsColdOracle(workload.root, workload.ts_dir, recorded=True)
    patches = _patches(workload, oracle)
    disagreements: list[Disagreement] = []
    verdicts: dict[str, bool] = {}
    tolerated = 0
    for n, patch in enumerate(patches):
        case = tmp_path / f"case-{n}"
        red, disagreement, reordered = _compare(client, workload, oracle, patch, case)
        verdicts[patch.name] = red
        tolerated += reordered
        if disagreement is not None:
            disagreements.append(disagreement)

    report = "\n".join(d.render() for d in disagreements)
    assert not disagreements, (
        f"{len(disagreements)} of {len(patches)} patches judged differently:\n{report}"
    )
    print(f"{workload.name} ts{_major(workload)}: {len(patches)} patches, {tolerated} "
          "diagnostic(s) equal up to union order")  # fmt: skip
    # A daemon (or oracle) that always answers green or always red must not pass.
    reds = sorted(name for name, red in verdicts.items() if red)
    greens = sorted(name for name, red in verdicts.items() if not red)
    assert len(reds) >= MIN_EACH_VERDICT, greens
    assert len(greens) >= MIN_EACH_VERDICT, reds
    # These kinds cannot introduce an error on any tree: a red one means the oracle is wrong.
    always_green = ("body_edit[", "shift_only[", "shift_many[", "mixed_multi_file[green")
    assert not [name for name in reds if name.startswith(always_green)], reds
    always_red = ("intra_file_error[", "new_module_missing_name[", "new_module_broken[")
    assert not [name for name in greens if name.startswith(always_red)], greens
