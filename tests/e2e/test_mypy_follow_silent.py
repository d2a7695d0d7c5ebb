"""A project whose mypy settings say ``follow_imports = "silent"`` (pydantic-settings 2.6.1):
dmypy refuses that setting ("dmypy: follow-imports=silent not supported") and did not start, so
every check of such a project failed (found by ``bench.ci_corpus``, the replica of issue 22's
corpus). dmypy now runs with ``--follow-imports normal``; each patch here is judged by the daemon
and by cold ``mypy`` on the patched copy (the configuration's ``silent``), with the designed
verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.changes import change_file
from tests.support.mypy_oracle import Case, judged_as_cold

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client

pytestmark = [pytest.mark.e2e]

PYPROJECT = '[tool.mypy]\nfollow_imports = "silent"\nstrict = true\n'
LIB = "def name(x: int) -> str:\n    return str(x)\n"
USE = "from pkg.lib import name\n\nvalue: str = name(1)\n"
BAD = "z: int = 'no'\n"


def _repo(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIB)
    (root / "pkg" / "use.py").write_text(USE)
    return root


@pytest.mark.timeout(300)
def test_a_silent_follow_imports_project_is_judged(
    client: Client, python_exe: str, tmp_path: Path
) -> None:
    root = _repo(tmp_path / "silent")
    narrowed = LIB.replace("-> str", "-> int").replace("str(x)", "x")
    cases: list[Case] = [
        ("an error in the package", (change_file(root, "pkg/lib.py", LIB + BAD),), True),
        ("a break seen in an importer", (change_file(root, "pkg/lib.py", narrowed),), True),
        ("a clean body edit", (change_file(root, "pkg/lib.py", LIB.replace("(x)", "(x + 1)")),),
         False),
    ]  # fmt: skip
    failures = judged_as_cold(client, root, python_exe, cases, tmp_path, judged_by="mypy")
    assert not failures, "\n".join(failures)


@pytest.mark.timeout(300)
def test_silent_reports_only_the_targets_as_cold_mypy_does(
    client: Client, python_exe: str, tmp_path: Path
) -> None:
    """``files`` names ``pkg/use.py`` only: ``pkg/lib.py`` is followed, and ``silent`` hides its
    errors. dmypy follows ``normal`` and reports them; the daemon keeps the targets' files only
    (before: a new error in ``lib.py`` answered red where CI's mypy is green)."""
    root = _repo(tmp_path / "targets")
    (root / "pyproject.toml").write_text(PYPROJECT + 'files = ["pkg/use.py"]\n')
    narrowed = LIB.replace("-> str", "-> int").replace("str(x)", "x")
    cases: list[Case] = [
        ("an error in a module only followed", (change_file(root, "pkg/lib.py", LIB + BAD),),
         False),
        ("a break it causes in a target", (change_file(root, "pkg/lib.py", narrowed),), True),
        ("an error in the target", (change_file(root, "pkg/use.py", USE + BAD),), True),
    ]  # fmt: skip
    failures = judged_as_cold(client, root, python_exe, cases, tmp_path)
    assert not failures, "\n".join(failures)
