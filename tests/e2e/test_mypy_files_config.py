"""A project whose mypy settings name its ``files`` (pytest's shape): the warm daemon checks them.

dmypy's ``check`` request checks exactly the files it is sent; with ``files`` in the settings
and no CI command naming targets, the daemon once sent none, so every patch was answered green
(a new error in ``pkg/`` included: a wrong green found on pytest 8.3.4). Each patch here is
judged by the daemon and by cold ``mypy`` on the patched copy, with the designed verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.changes import change_file, new_file
from tests.support.mypy_oracle import Case, judged_as_cold

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client

pytestmark = [pytest.mark.e2e]

PYPROJECT = '[tool.mypy]\nfiles = ["pkg", "scripts/*.py"]\n'
LIB = "def name() -> str:\n    return 'x'\n"
USE = "from pkg.lib import name\n\nvalue: str = name()\n"
BAD = "z: int = 'no'\n"


def _repo(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIB)
    (root / "scripts" / "use.py").write_text(USE)
    return root


@pytest.mark.timeout(300)
def test_the_configured_files_are_checked_warm(
    client: Client, python_exe: str, tmp_path: Path
) -> None:
    root = _repo(tmp_path / "files")
    broken_lib = LIB.replace("-> str", "-> int").replace("'x'", "1")
    cases: list[Case] = [
        ("an error in a configured package", (change_file(root, "pkg/lib.py", LIB + BAD),), True),
        ("an error through a glob", (change_file(root, "scripts/use.py", USE + BAD),), True),
        ("a break seen in an importer", (change_file(root, "pkg/lib.py", broken_lib),), True),
        ("a new module in the package", (new_file("pkg/more.py", BAD),), True),
        ("a clean body edit", (change_file(root, "pkg/lib.py", LIB.replace("'x'", "'y'")),), False),
    ]
    failures = judged_as_cold(client, root, python_exe, cases, tmp_path)
    assert not failures, "\n".join(failures)
