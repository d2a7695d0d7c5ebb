"""The differential test: the warm daemon's verdict equals a cold pyright run on the patched tree.

Generated patches over a real PyPI package (httpx 0.28.1 with its test-suite, see
``tests/support/workloads.py``) are judged by the daemon, which never writes them, and by the
pyright CLI of the same version on a patched copy on disk, diffed with the daemon's own
``introduced`` rule. For every patch the multisets of (path, rule, severity, message) must be
equal, and the daemon's ``ok`` must say "no new error" exactly when the oracle's set has none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.support.differential import assert_all_agree
from tests.support.oracle import ColdOracle
from tests.support.patchgen import generate_patches
from tests.support.workloads import Workload, copy_workspace, prepare_workload, typecheck_only

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

Key = tuple[str, str, str, str]
MIN_PATCHES = 24
MIN_CROSS_FILE = 5
MIN_EACH_VERDICT = 5


@pytest.fixture(scope="module")
def workload(tmp_path_factory: pytest.TempPathFactory) -> Workload:
    """A private copy of the prepared workspace (the cached one stays pristine), with the
    ladder's ruff rungs off: this test compares the type-check rung with the oracle."""
    copy = copy_workspace(prepare_workload(), tmp_path_factory.mktemp("differential") / "httpx")
    return typecheck_only(copy)


@pytest.mark.timeout(1800)
def test_daemon_matches_cold_pyright_on_generated_patches(
    client: Client, workload: Workload, tmp_path: Path
) -> None:
    oracle = ColdOracle(workload.root, workload.python, recorded=True)
    patches = generate_patches(workload.root, error_files=sorted({d.path for d in oracle.base}))
    assert len(patches) >= MIN_PATCHES, [p.name for p in patches]
    assert sum(len(p.changes) > 1 for p in patches) >= MIN_CROSS_FILE

    assert_all_agree(client, workload, oracle, patches, tmp_path, MIN_EACH_VERDICT)
