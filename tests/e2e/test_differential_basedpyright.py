"""The differential test for basedpyright: the warm daemon (basedpyright's language server) against
a cold ``basedpyright`` run per patch.

On a private copy of httpx 0.28.1 judged by basedpyright alone (``[tool.prewrite] typecheck``),
with no ``[tool.basedpyright]``: both sides run basedpyright's own defaults (the "recommended"
rule set, many warnings and its own rules: ``reportAny``, ``reportImplicitOverride``,
``reportImportCycles`` …). The pyright test's generated patches, one of each kind, are
judged by the daemon and by the basedpyright CLI of the same version on a patched copy
(``tests/support/oracle.py`` with basedpyright's ``Flavour``), diffed with the daemon's own
``introduced`` rule. For every patch the multisets of (path, rule, severity, message) must be
equal, and the daemon's ``ok`` must say "no new error" exactly when the oracle's set has none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.backends.pyright_command import BASEDPYRIGHT, dist_version, pyright_dist
from tests.support.differential import assert_each_kind_agrees
from tests.support.oracle import ColdOracle
from tests.support.workloads import (
    PACKAGE_ONLY,
    Workload,
    copy_workspace,
    prepare_workload,
    typecheck_only,
)

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# One patch of each kind: basedpyright's warm path is pyright's (the pyright differential tests
# judge it on ~60 patches); this one proves basedpyright's own plumbing (its package, settings,
# rule set and configuration) against its own CLI, on httpx without its tests (PACKAGE_ONLY).


@pytest.fixture(scope="module")
def workload(tmp_path_factory: pytest.TempPathFactory) -> Workload:
    """A private copy of httpx without its tests (its plumbing is the claim, not reaching
    importers), the ruff rungs off, basedpyright the only judge."""
    dest = tmp_path_factory.mktemp("based-diff") / "httpx"
    copy = copy_workspace(prepare_workload(), dest, leave_out=PACKAGE_ONLY)
    return typecheck_only(copy, "basedpyright")


@pytest.mark.timeout(1200)
def test_daemon_matches_cold_basedpyright_on_generated_patches(
    client: Client, workload: Workload, tmp_path: Path
) -> None:
    oracle = ColdOracle(workload.root, workload.python, BASEDPYRIGHT, recorded=True)
    errors = sorted({d.path for d in oracle.base})
    version = dist_version(pyright_dist(BASEDPYRIGHT), BASEDPYRIGHT)
    assert_each_kind_agrees(client, workload, oracle, errors, f"basedpyright {version}", tmp_path)
