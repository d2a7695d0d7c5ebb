"""The TypeScript planner fuzzer (issue 19): generated programs and patches, judged narrowed,
with every file compared, and by cold tsc; any difference fails.

Programs and patches come from ``tests/support/ts_fuzzgen.py`` and ``ts_fuzzpatches.py`` (every
import syntax, scripts, globals, augmentations, JSON, references, ``paths``; interface changes
and changes that only look like one), the judging from ``ts_fuzzjudge.py``. The seeded tier runs
in the normal test run on TypeScript 7 (whose cold ``tsc`` takes a fraction of a second), every
patch also cold. ``make fuzz`` runs the long tier: ``PREWRITE_TS_FUZZ_PROGRAMS`` programs from
``PREWRITE_TS_FUZZ_SEED`` on, each on TypeScript 5 (tsserver) and 7, cold on every third patch.

The comparison cannot pass vacuously: enough patches must be red, and red *outside* the files
they touch (what narrowing decides about), and narrowing must have pruned something.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.session import Registry
from tests.support.ts_fuzzgen import generate_program
from tests.support.ts_fuzzjudge import FuzzReport, judge_program
from tests.support.ts_fuzzpatches import generate_patches
from tests.support.ts_oracle import TsColdOracle, write_patched_copy
from tests.support.ts_repo import toolchain

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = [pytest.mark.e2e, pytest.mark.fuzz]

SEEDS = range(1, 11)  # the bounded tier: ten programs
PATCHES = 6  # per program
LONG_PROGRAMS = int(os.environ.get("PREWRITE_TS_FUZZ_PROGRAMS", "0"))
LONG_SEED = int(os.environ.get("PREWRITE_TS_FUZZ_SEED", "1000"))


async def _fuzz(
    tmp_path: Path, seeds: range, major: int, cold_every: int, json: bool
) -> FuzzReport:
    """Judge the patches of each seed's program; ``json``: only those that edit a JSON module,
    else only the others."""
    ts_dir = toolchain(major)
    report = FuzzReport()
    for seed in seeds:
        program = generate_program(seed)
        patches = [p for p in generate_patches(program, PATCHES) if p.touches_json_module == json]
        if not patches:
            continue
        registry = Registry(tmp_path / f"state-{seed}", watch=False)
        try:
            root = tmp_path / f"p{seed}" / "repo"
            root.parent.mkdir()
            await judge_program(registry, program, patches, root, ts_dir, cold_every, report)
        finally:
            await registry.stop()
    return report


def _assert_sound(report: FuzzReport) -> None:
    print(report.summary())
    details = "\n".join(d.render() for d in report.disagreements)
    assert not report.disagreements, f"{report.summary()}\n{details}"


@pytest.mark.timeout(240)
async def test_seeded_programs_agree_narrowed_wide_and_cold(tmp_path: Path) -> None:
    report = await _fuzz(tmp_path, SEEDS, major=7, cold_every=1, json=False)
    _assert_sound(report)
    assert report.patches >= 25
    assert report.red >= report.patches // 4, report.summary()
    assert report.cross_file >= 5, report.summary()
    assert report.checked_narrowed < report.checked_every, report.summary()  # it narrowed


@pytest.mark.timeout(240)
async def test_json_module_edits_reach_their_importers(tmp_path: Path) -> None:
    report = await _fuzz(tmp_path, range(1, 40), major=7, cold_every=1, json=True)
    assert report.patches > 0
    _assert_sound(report)


@pytest.mark.skipif(not LONG_PROGRAMS, reason="the long tier: `make fuzz`")
@pytest.mark.timeout(6 * 3600)
@pytest.mark.parametrize("major", [5, 7])
async def test_long_run(tmp_path: Path, major: int) -> None:
    seeds = range(LONG_SEED, LONG_SEED + LONG_PROGRAMS)
    report = await _fuzz(tmp_path, seeds, major=major, cold_every=3, json=False)
    print(f"TypeScript {major}, seeds {seeds.start}..{seeds.stop - 1}:")
    _assert_sound(report)


@pytest.mark.timeout(120)
async def test_typescript_syntax_in_javascript_is_judged_like_tsc(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    ts_dir = toolchain(7)
    files = {
        "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true, "allowJs": true,'
        ' "checkJs": true, "module": "esnext", "moduleResolution": "bundler"}}',
        "a.ts": "export const a: number = 1;\n",
        "b.ts": 'import { a } from "./a";\nexport const b: number = a;\n',
        "c.js": "export const c = 1;\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(ts_dir, target_is_directory=True)
    changes = [
        change_file(root, "a.ts", 'export const a: string = "s";\n'),
        change_file(root, "c.js", "export const c: number = 1;\n"),
    ]
    registry = Registry(tmp_path / "state", watch=False)
    try:
        reply = await registry.check(CheckRequest(str(root), changes, timeout_s=120))
    finally:
        await registry.stop()
    cold = TsColdOracle(root, ts_dir).introduced(
        write_patched_copy(root, changes, tmp_path / "patched")
    )
    assert {d.rule for d in cold} == {"TS8010"}  # the oracle is as described
    assert sorted((d.path, d.rule) for d in reply.diagnostics) == [("c.js", "TS8010")]
