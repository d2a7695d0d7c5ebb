"""The differential test for ty: the daemon (ty's CLI on its shadow, the patch laid) against a
cold ``ty check`` of a full patched copy of the workspace.

On a private copy of httpx 0.28.1 judged by ty alone (``[tool.prewrite] typecheck``), with no
``[tool.ty]``: both sides run ty's defaults. The pyright test's generated patches, one of each
kind, are judged by the daemon and by the same ty binary on a patched copy
(``tests/support/cli_oracle.py``), diffed with the daemon's own ``introduced`` rule. For every
patch the multisets of (path, rule, severity, message) must be equal, and the daemon's ``ok``
must say "no new error" exactly when the oracle's set has none. The copy is the whole tree, not
the shadow: what the shadow leaves out, or the interpreter it is told, would show here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.backends.cli_tool import bundled_version
from prewrite_daemon.languages.python.checker_specs import TY_SPEC
from tests.support.cli_oracle import CliOracle
from tests.support.differential import assert_each_kind_agrees
from tests.support.workloads import Workload, copy_workspace, prepare_workload, typecheck_only

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def workload(tmp_path_factory: pytest.TempPathFactory) -> Workload:
    """A private copy of httpx, the ruff rungs off, ty the only judge."""
    copy = copy_workspace(prepare_workload(), tmp_path_factory.mktemp("ty-diff") / "httpx")
    return typecheck_only(copy, "ty")


@pytest.mark.timeout(600)
def test_daemon_matches_cold_ty_on_generated_patches(
    client: Client, workload: Workload, tmp_path: Path
) -> None:
    oracle = CliOracle(TY_SPEC, workload.root, workload.python)
    errors = sorted({d.path for d in oracle.base if d.severity == "error"})
    assert_each_kind_agrees(
        client, workload, oracle, errors, f"ty {bundled_version('ty')}", tmp_path
    )
