"""The Python planner fuzzer (issue 19 item 5): generated programs and interface changes, each
judged narrowed against every file of its program on the same warm pyright, and by cold pyright.

Programs (``tests/support/py_fuzzgen.py``) are several modules of Protocols in every spelling,
Enums, ABCs and mixins, subclasses anywhere, records, aliases, decorators, overloads, names
bound by any statement, trivial bodies, stubs and ``-stubs`` packages, re-exports, star imports
and PEP 695; patches are random interface changes of them and of the modules themselves. The
judging is ``py_fuzzgen_judge.py``: a miss (a new diagnostic in a file the narrowed plan did not
compare), a differing verdict, a disagreement with cold pyright or a pruned file whose cold
diagnostics change fails, with a shrunk reproduction. Misses found are written down as
catalogue cases (``planner_cases_fuzzed.py``, strict xfails until fixed).

The seeded tier runs in ``make test`` (one tree of eight programs, cold pyright on half the
patches). ``make fuzz`` runs the long tier: ``PREWRITE_FUZZ_PROGRAMS`` programs from
``PREWRITE_FUZZ_SEED`` on (also ``python -m bench.fuzz_planner``). The comparison cannot pass
vacuously: enough patches must change diagnostics outside the files they touch, narrowing must
have pruned something, and a planner that prunes every importer must be caught.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.python.names.deps import NameGraph
from tests.support.py_fuzzgen_run import FuzzPlan, fuzz

if TYPE_CHECKING:
    from pathlib import Path

    from tests.support.py_fuzzgen_judge import FuzzReport

pytestmark = [pytest.mark.e2e, pytest.mark.fuzz]

SEEDS = range(1, 9)  # the bounded tier: eight programs in one tree, five patches each
LONG_PROGRAMS = int(os.environ.get("PREWRITE_FUZZ_PROGRAMS", "0"))
LONG_SEED = int(os.environ.get("PREWRITE_FUZZ_SEED", "10000"))


def _assert_sound(report: FuzzReport, log: list[str]) -> None:
    print("\n".join(log))
    details = "\n\n".join(f.render() for f in report.findings)
    assert not report.findings, f"{report.summary()}\n{details}"
    assert not report.errors, report.errors


# 50 s on an idle machine here, 117 s on CI's (2026-12-04): a hang guard, with room for a slow one
@pytest.mark.timeout(400)
async def test_seeded_programs_agree_narrowed_whole_and_cold(
    tmp_path: Path, python_exe: str
) -> None:
    log: list[str] = []
    plan = FuzzPlan(SEEDS, batch=len(SEEDS), patches=5, cold_every=2)
    report = await fuzz(plan, tmp_path, python_exe, log.append)
    _assert_sound(report, log)
    assert report.patches >= 35, report.summary()
    assert report.cross_file >= 8, report.summary()
    assert report.cold >= 15, report.summary()
    assert report.checked_narrowed < report.checked_whole, report.summary()  # it narrowed


@pytest.mark.timeout(180)
async def test_a_planner_that_prunes_every_importer_is_caught(
    tmp_path: Path, python_exe: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def nothing(self: NameGraph, *args: object, **kwargs: object) -> set[str]:
        del self, args, kwargs
        return set()

    monkeypatch.setattr(NameGraph, "affected", nothing)
    log: list[str] = []
    plan = FuzzPlan(range(1, 5), batch=4, patches=4, cold_every=1_000_000, shrink=False)
    report = await fuzz(plan, tmp_path, python_exe, log.append)
    misses = [f for f in report.findings if f.kind == "miss"]
    assert misses, report.summary()
    assert {f.cause for f in misses} == {"planner"}, [f.headline() for f in misses]
    assert any(f.wrong_green for f in misses), [f.headline() for f in misses]


@pytest.mark.skipif(not LONG_PROGRAMS, reason="the long tier: `make fuzz`")
@pytest.mark.timeout(8 * 3600)
async def test_long_run(tmp_path: Path, python_exe: str) -> None:
    seeds = range(LONG_SEED, LONG_SEED + LONG_PROGRAMS)
    log: list[str] = []
    report = await fuzz(FuzzPlan(seeds, batch=16, patches=6), tmp_path, python_exe, log.append)
    print(f"seeds {seeds.start}..{seeds.stop - 1}: {report.summary()}\n{report.coverage()}")
    _assert_sound(report, log)
