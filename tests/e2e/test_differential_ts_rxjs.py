"""The TypeScript differential test on rxjs (``tests/support/ts_differential.py``): every generated
patch judged by the warm daemon and by a cold ``tsc --noEmit`` of the same TypeScript version."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.support.ts_differential import private_workload, run_differential
from tests.support.ts_workloads import TS_MAJORS

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client
    from tests.support.ts_workloads import TsWorkload

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module", params=TS_MAJORS, ids=[f"ts{m}" for m in TS_MAJORS])
def workload(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> TsWorkload:
    return private_workload("rxjs", request.param, tmp_path_factory)


@pytest.mark.timeout(1800)
def test_daemon_matches_cold_tsc_on_generated_patches(
    client: Client, workload: TsWorkload, tmp_path: Path
) -> None:
    run_differential(client, workload, tmp_path)
