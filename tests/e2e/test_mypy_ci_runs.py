"""A project whose CI runs mypy twice, on two targets (structlog 24.4.0's shape): both are checked.

structlog's tox runs ``mypy tests/typing`` (a factor-conditional command, ``mypy: mypy ...``)
and ``mypy src``; CI is red when either is. The daemon read neither the factor-conditional line
nor any run after the first, so it checked ``src`` alone: a patch to ``src`` that broke only
``tests/typing`` was answered green (found by ``bench.ci_corpus``, the replica of issue 22's
corpus). Each patch here is judged by the daemon and by cold ``mypy`` on the patched copy, with
the designed verdict.
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

PYPROJECT = '[tool.mypy]\nmypy_path = "src"\n'
TOX = (
    "[tox]\nenv_list = mypy-pkg, py3-mypy\n\n[testenv]\ncommands =\n"
    "    mypy: mypy tests/typing\n\n[testenv:mypy-pkg]\ncommands = mypy src\n"
)
LIB = "def render(x: int) -> str:\n    return str(x)\n"
API = "from pkg.lib import render\n\nvalue: str = render(1)\n"
BAD = "z: int = 'no'\n"


def _repo(root: Path) -> Path:
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "tests" / "typing").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "tox.ini").write_text(TOX)
    (root / "src" / "pkg" / "__init__.py").write_text("")
    (root / "src" / "pkg" / "lib.py").write_text(LIB)
    (root / "tests" / "typing" / "api.py").write_text(API)
    return root


@pytest.mark.timeout(300)
def test_every_ci_mypy_run_is_checked(client: Client, python_exe: str, tmp_path: Path) -> None:
    root = _repo(tmp_path / "two-runs")
    narrowed = LIB.replace("-> str", "-> int").replace("str(x)", "x")
    cases: list[Case] = [
        ("a break seen only by the second run", (change_file(root, "src/pkg/lib.py", narrowed),),
         True),
        ("an error in src", (change_file(root, "src/pkg/lib.py", LIB + BAD),), True),
        ("an error in tests/typing", (change_file(root, "tests/typing/api.py", API + BAD),), True),
        ("a clean body edit", (change_file(root, "src/pkg/lib.py", LIB.replace("(x)", "(x + 1)")),),
         False),
    ]  # fmt: skip
    failures = judged_as_cold(client, root, python_exe, cases, tmp_path)
    assert not failures, "\n".join(failures)
