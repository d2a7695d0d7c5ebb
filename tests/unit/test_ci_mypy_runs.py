"""CI's mypy runs as the daemon follows them: tox's factor-conditional commands are read, and
the targets of every run are united (``ci.files._tox``, ``languages.python.mypy_ci.ci_mypy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.ci.files import read_ci
from prewrite_daemon.languages.python.mypy import targets
from prewrite_daemon.languages.python.mypy_ci import ci_mypy

if TYPE_CHECKING:
    from pathlib import Path

TOX = """\
[testenv]
deps =
    mypy: mypy==1.14.1
commands =
    tests: pytest {posargs}
    py3{8,12}-!tests: mypy tests/typing
[testenv:mypy-pkg]
commands = mypy src
[testenv:sub]
commands = mypy src/pkg
"""


def _tree(root: Path) -> Path:
    for d in ("src/pkg", "tests/typing"):
        (root / d).mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.mypy]\n")
    (root / "tox.ini").write_text(TOX)
    return root


def test_tox_factor_conditions_are_read(tmp_path: Path) -> None:
    found = read_ci(_tree(tmp_path))
    assert [(r.tool, r.where, r.targets) for r in found.runs] == [
        ("pytest", "tox.ini:5", []),
        ("mypy", "tox.ini:6", ["tests/typing"]),
        ("mypy", "tox.ini:8", ["src"]),
        ("mypy", "tox.ini:10", ["src/pkg"]),
    ]
    assert [(p.package, p.version) for p in found.pins] == [("mypy", "1.14.1")]


def test_every_runs_targets_are_united(tmp_path: Path) -> None:
    ci = ci_mypy(_tree(tmp_path))
    assert ci.targets == ("tests/typing", "src")  # src/pkg lies in src: not given twice
    assert ci.where == "tox.ini:6, tox.ini:8, tox.ini:10"
    assert targets(tmp_path, None, ci) == ["tests/typing", "src"]
