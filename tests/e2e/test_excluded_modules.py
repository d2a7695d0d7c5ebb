"""Modules the configuration excludes but the code imports: pyright neither tracks them nor
holds them unless something open imports them, and dropped the file events the daemon sent for
them — a deleted module still resolved (a wrong green), a created one still missing, an edit on
disk unseen (a wrong green). Each step is judged by the warm daemon and by cold pyright on the
patched copy of the tree as it is on disk."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.changes import change_file, delete_file, new_file
from tests.support.oracle import normalize_paths, oracle_introduced, surplus, write_patched_copy

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import FileChange

pytestmark = [pytest.mark.e2e]

UTIL = "def helper() -> int:\n    return 1\n"
APP = "import vendor.util\n\nX = vendor.util.helper()\n"


def _repo(root: Path) -> Path:
    (root / "vendor").mkdir(parents=True)
    (root / "vendor" / "__init__.py").write_text("")
    (root / "vendor" / "util.py").write_text(UTIL)
    (root / "app.py").write_text(APP)
    (root / "pyproject.toml").write_text('[tool.pyright]\nexclude = ["vendor"]\n')
    return root


def _judge(
    client: Client, root: Path, python: str, scratch: Path, *changes: FileChange
) -> tuple[bool, bool, list[str]]:
    """(daemon red, cold red, the differences) for ``changes`` on the tree as it is now."""
    reply = client.check(root, list(changes), python=python, timeout_s=120)
    patched = write_patched_copy(root, changes, scratch / "patched")
    base = write_patched_copy(root, (), scratch / "base")
    cold = oracle_introduced(base, patched, python)
    daemon = normalize_paths(reply.diagnostics, root)
    diff = [f"only daemon: {d}" for d in surplus(daemon, cold)]
    diff += [f"only cold: {d}" for d in surplus(cold, daemon)]
    return not reply.ok, any(d.severity == "error" for d in cold), diff


@pytest.mark.timeout(300)
def test_excluded_modules_are_seen_as_cold_pyright_sees_them(
    client: Client, python_exe: str, tmp_path: Path
) -> None:
    root = _repo(tmp_path / "repo")
    body = change_file(root, "app.py", APP + "Y = 2\n")
    uses_more = change_file(root, "app.py", APP + "import vendor.more\n")
    steps: list[tuple[str, tuple[FileChange, ...], bool]] = [
        ("a body edit (resolves vendor.util warm)", (body,), False),
        ("the excluded module deleted", (delete_file(root, "vendor/util.py"),), True),
        ("an excluded module that is not there", (uses_more,), True),
        ("the same, created by the patch", (new_file("vendor/more.py", ""), uses_more), False),
    ]
    failures: list[str] = []
    for n, (name, changes, red) in enumerate(steps):
        daemon_red, cold_red, diff = _judge(client, root, python_exe, tmp_path / f"s{n}", *changes)
        if diff or daemon_red != red or cold_red != red:
            failures.append(f"{name}: daemon red={daemon_red}, cold red={cold_red}: {diff}")
    # Edited on disk behind the daemon's back: helper now returns str.
    (root / "vendor" / "util.py").write_text(UTIL.replace("int", "str").replace("1", "'one'"))
    typed = change_file(root, "app.py", APP + "Z: int = vendor.util.helper()\n")
    daemon_red, cold_red, diff = _judge(client, root, python_exe, tmp_path / "disk", typed)
    if diff or not daemon_red or not cold_red:
        failures.append(
            f"after an edit on disk: daemon red={daemon_red}, cold red={cold_red}: {diff}"
        )
    assert not failures, "\n".join(failures)
