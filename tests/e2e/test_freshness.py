"""Never a stale green: the warm daemon follows installs, config edits and files changed on disk.

Each test keeps the daemon warm, changes something behind its back, and compares the next
verdict with a cold pyright run on the tree as it is then (the oracle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file, new_file
from tests.e2e.freshness_repo import (
    PYPROJECT,
    STRICT,
    assert_matches_oracle,
    install_libx,
    make_workspace,
    uninstall_libx,
)

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

UNANNOTATED = new_file("app/loose.py", "def ident(x):\n    return x\n")


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("fresh")
    python = make_workspace(root)
    install_libx(python, tmp_path_factory.mktemp("libx"), "1.0", "int", "1")
    return root, python


def run(client: Client, ws: tuple[Path, str], changes: list[FileChange]) -> CheckReply:
    root, python = ws
    return client.check(root, changes, python=python)


def test_pip_install_behind_the_daemon_is_seen(
    client: Client, ws: tuple[Path, str], tmp_path: Path
) -> None:
    root, python = ws
    patch = [new_file("app/uses_lib.py", "from libx import make\n\nz: int = make()\n")]
    before = run(client, ws, patch)
    assert before.ok
    assert_matches_oracle(before, root, patch, python, tmp_path)
    try:
        install_libx(python, tmp_path, "2.0", "str", "'s'")  # make() -> str now
        after = run(client, ws, patch)
        assert not after.ok
        assert [d.rule for d in after.diagnostics] == ["reportAssignmentType"]
        assert after.environment != before.environment
        assert_matches_oracle(after, root, patch, python, tmp_path)
        uninstall_libx(python)
        gone = run(client, ws, patch)
        assert [d.rule for d in gone.diagnostics] == ["reportMissingImports"]
        assert_matches_oracle(gone, root, patch, python, tmp_path)
    finally:
        install_libx(python, tmp_path, "1.0", "int", "1")
    again = run(client, ws, patch)
    assert again.ok
    status = next(w for w in client.status().workspaces if w.root == str(root))
    # an install moves the dist-infos ("packages") and writes sources the watcher counts
    # ("libraries"): which restart came last depends on how the watcher batched them
    reason = status.last_restart_reason or ""
    assert reason.startswith("environment changed: ")
    assert {"packages", "libraries"} & set(reason.removeprefix("environment changed: ").split(", "))


def test_strict_config_on_disk_applies_to_the_next_verdict(
    client: Client, ws: tuple[Path, str], tmp_path: Path
) -> None:
    root, python = ws
    assert run(client, ws, [UNANNOTATED]).ok
    (root / "pyproject.toml").write_text(STRICT)
    try:
        strict = run(client, ws, [UNANNOTATED])
        assert not strict.ok
        assert "reportMissingParameterType" in {d.rule for d in strict.diagnostics}
        assert_matches_oracle(strict, root, [UNANNOTATED], python, tmp_path)
    finally:
        (root / "pyproject.toml").write_text(PYPROJECT)
    assert run(client, ws, [UNANNOTATED]).ok


def test_a_patch_that_turns_on_strict_is_judged_with_it(
    client: Client, ws: tuple[Path, str], tmp_path: Path
) -> None:
    root, python = ws
    patch = [change_file(root, "pyproject.toml", STRICT), UNANNOTATED]
    reply = run(client, ws, patch)
    assert not reply.ok
    assert "reportMissingParameterType" in {d.rule for d in reply.diagnostics}
    assert "app/loose.py" in reply.checked_files
    assert_matches_oracle(reply, root, patch, python, tmp_path)
    assert (root / "pyproject.toml").read_text() == PYPROJECT  # never written
    assert not (root / "app/loose.py").exists()
    # The warm checker still judges with the configuration on disk.
    assert run(client, ws, [UNANNOTATED]).ok


def test_a_file_edited_on_disk_behind_the_daemons_back(
    client: Client, ws: tuple[Path, str], tmp_path: Path
) -> None:
    root, python = ws
    patch = [new_file("app/sums.py", "from app.core import add\n\ntotal: int = add(1, 2)\n")]
    assert run(client, ws, patch).ok
    core = root / "app/core.py"
    original = core.read_text()
    core.write_text("def add(a: int, b: int) -> str:\n    return str(a + b)\n")
    try:
        reply = run(client, ws, patch)
        assert not reply.ok
        assert_matches_oracle(reply, root, patch, python, tmp_path)
    finally:
        core.write_text(original)
    assert run(client, ws, patch).ok


def test_a_module_created_then_deleted_on_disk(
    client: Client, ws: tuple[Path, str], tmp_path: Path
) -> None:
    root, python = ws
    patch = [new_file("app/consumer.py", "from app.helpers import helper\n\nh: int = helper()\n")]
    assert not run(client, ws, patch).ok  # no such module yet
    helpers = root / "app/helpers.py"
    helpers.write_text("def helper() -> int:\n    return 1\n")
    try:
        created = run(client, ws, patch)
        assert created.ok, created.diagnostics
        assert_matches_oracle(created, root, patch, python, tmp_path)
    finally:
        helpers.unlink()
    deleted = run(client, ws, patch)
    assert not deleted.ok
    assert [d.rule for d in deleted.diagnostics] == ["reportMissingImports"]
    assert_matches_oracle(deleted, root, patch, python, tmp_path)


def test_importing_an_installed_package_not_imported_before(
    client: Client, ws: tuple[Path, str], tmp_path: Path
) -> None:
    root, python = ws
    green = [new_file("app/ext.py", "import libx.missing_name_check as _m\n")]
    red = run(client, ws, green)
    assert not red.ok  # libx has no such submodule
    assert_matches_oracle(red, root, green, python, tmp_path)
    fine = [new_file("app/ext.py", "from libx import make\n\nn: int = make()\n")]
    reply = run(client, ws, fine)
    assert reply.ok, reply.diagnostics
    assert_matches_oracle(reply, root, fine, python, tmp_path)
