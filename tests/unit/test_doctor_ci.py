"""``prewrite doctor``'s reading of CI (``doctor.ci_files``, ``ci_sources``, ``ci_commands``):
which tool each file runs, with what, at which version, and where — never running anything."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.ci.commands import recognise, recognise_text
from prewrite_daemon.ci.files import read_ci

if TYPE_CHECKING:
    from pathlib import Path

WORKFLOW = """\
name: ci
on: [push]
jobs:
  types:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install "mypy==1.13.0" pytest
      - name: mypy
        run: |
          echo checking
          uv run mypy src tests --strict \\
            --config-file setup.cfg
      - run: python -m pytest -q -m "not slow"
        working-directory: backend
"""

PRE_COMMIT = """\
repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.6.9
    hooks:
      - id: ruff
        args: [--fix]
      - id: ruff-format
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.13.0
    hooks:
      - id: mypy
  - repo: local
    hooks:
      - id: types
        entry: pyright -p pyrightconfig.json
        language: system
        pass_filenames: false
"""

MAKEFILE = """\
BIN := .venv/bin
lint:
\t@$(BIN)/ruff check --select E,F . && \\
\t  $(BIN)/ruff format --check .
\t$(PYTHON) -m mypy src
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_workflow_running_mypy_strict(tmp_path: Path) -> None:
    found = read_ci(_write(tmp_path, {".github/workflows/ci.yml": WORKFLOW}))
    assert found.files == [".github/workflows/ci.yml"]
    mypy, pytest_run = found.runs
    assert (mypy.tool, mypy.where) == ("mypy", ".github/workflows/ci.yml:12")
    assert mypy.targets == ["src", "tests"]
    assert mypy.flags == ["--strict"]
    assert mypy.config == "setup.cfg"
    assert (pytest_run.tool, pytest_run.where) == ("pytest", ".github/workflows/ci.yml:14")
    assert pytest_run.targets == []  # -m "not slow" is pytest's marker option, not a module
    assert [(p.package, p.version, p.where) for p in found.pins] == [
        ("mypy", "1.13.0", ".github/workflows/ci.yml:8")
    ]


def test_a_pre_commit_config_pinning_ruff(tmp_path: Path) -> None:
    found = read_ci(_write(tmp_path, {".pre-commit-config.yaml": PRE_COMMIT}))
    runs = {(r.tool, r.where): r for r in found.runs}
    check = runs["ruff check", ".pre-commit-config.yaml:5"]
    assert check.version == "0.6.9"
    assert check.targets is None  # the hook is given the changed files
    assert check.flags == []  # --fix changes no verdict
    assert runs["ruff format", ".pre-commit-config.yaml:7"].version == "0.6.9"
    mypy = runs["mypy", ".pre-commit-config.yaml:11"]
    assert mypy.flags == ["--ignore-missing-imports"]  # the mirror's own default args
    pyright = runs["pyright", ".pre-commit-config.yaml:14"]
    assert pyright.config == "pyrightconfig.json"
    assert {(p.package, p.version) for p in found.pins} == {("ruff", "0.6.9"), ("mypy", "1.13.0")}


def test_makefile_recipes(tmp_path: Path) -> None:
    found = read_ci(_write(tmp_path, {"Makefile": MAKEFILE}))
    assert [(r.tool, r.where, r.flags) for r in found.runs] == [
        ("ruff check", "Makefile:3", ["--select E,F"]),
        ("ruff format", "Makefile:3", []),
        ("mypy", "Makefile:5", []),
    ]
    assert found.runs[2].targets == ["src"]


def test_tox_nox_and_package_json(tmp_path: Path) -> None:
    files = {
        "tox.ini": "[testenv]\ndeps =\n    ruff==0.5.0\ncommands =\n    mypy src {posargs}\n",
        "noxfile.py": (
            "import nox\n\n@nox.session\ndef lint(session):\n"
            '    session.install("pyright==1.1.380")\n    session.run("pyright", "--warnings")\n'
        ),
        "package.json": (
            '{\n  "scripts": {\n    "typecheck": "tsc --noEmit -p web"\n  },\n'
            '  "devDependencies": {\n    "typescript": "5.6.3"\n  }\n}\n'
        ),
    }
    found = read_ci(_write(tmp_path, files))
    assert [(r.tool, r.where) for r in found.runs] == [
        ("mypy", "tox.ini:5"),
        ("pyright", "noxfile.py:6"),
        ("tsc", "package.json:3"),
    ]
    assert found.runs[0].targets == ["src"]  # {posargs} is no target
    assert found.runs[1].flags == ["--warnings"]
    assert found.runs[2].config == "web"
    assert {(p.package, p.version, p.where) for p in found.pins} == {
        ("ruff", "0.5.0", "tox.ini:3"),
        ("pyright", "1.1.380", "noxfile.py:5"),
        ("typescript", "5.6.3", "package.json:6"),
    }


def test_a_repository_without_ci(tmp_path: Path) -> None:
    found = read_ci(_write(tmp_path, {"README.md": "hello\n"}))
    assert (found.runs, found.pins, found.files, found.unread) == ([], [], [], [])


def test_a_fifo_is_refused_unread(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "Makefile")  # opened, it would wait for a writer forever
    found = read_ci(tmp_path)
    assert found.files == []
    assert found.unread == ["Makefile is a FIFO"]


def test_broken_yaml_is_reported(tmp_path: Path) -> None:
    found = read_ci(_write(tmp_path, {".github/workflows/x.yml": "jobs: [\n"}))
    assert found.runs == []
    assert found.unread[0].startswith(".github/workflows/x.yml is not valid YAML")


@pytest.mark.parametrize(
    ("command", "tool", "version"),
    [
        ("uvx ruff@0.6.9 format --check .", "ruff format", "0.6.9"),
        ("npx pyright@1.1.389", "pyright", "1.1.389"),
        ("coverage run -m pytest tests", "pytest", None),
        ("poetry run python -m mypy --strict src", "mypy", None),
        ("FOO=1 ruff .", "ruff check", None),
        ("yarn tsc --noEmit", "tsc", None),
        ("basedpyright", "basedpyright", None),
    ],
)
def test_launchers_are_looked_through(command: str, tool: str, version: str | None) -> None:
    (run,) = recognise_text(command, "x:1")
    assert (run.tool, run.version) == (tool, version)


@pytest.mark.parametrize(
    "command",
    ["ruff server", "npm run typecheck", "echo mypy", "pytest-watch", "make lint"],
)
def test_what_is_not_a_tool_run(command: str) -> None:
    assert recognise_text(command, "x:1") == []


def test_one_line_several_commands() -> None:
    runs = recognise_text("ruff check . && ruff format --check . ; mypy -p shop", "x:1")
    assert [r.tool for r in runs] == ["ruff check", "ruff format", "mypy"]
    assert runs[2].targets == ["shop"]


def test_paths_are_made_root_relative() -> None:
    run = recognise(["mypy", "--config-file=./cfg/mypy.ini", "./src/"], "x:1", "backend")
    assert run is not None
    assert (run.config, run.targets) == ("backend/cfg/mypy.ini", ["backend/src"])


@pytest.mark.parametrize(
    ("command", "tool", "flags", "targets"),
    [
        ("ruff --fix --select I .", "ruff check", ["--select I"], ["."]),
        ("ruff check --config line-length=90", "ruff check", ["--config line-length=90"], []),
        ("mypy src --config-file", "mypy", ["--config-file"], ["src"]),
        ("pyright --warnings --outputjson", "pyright", ["--warnings"], []),
    ],
)
def test_settings_and_targets(
    command: str, tool: str, flags: list[str], targets: list[str]
) -> None:
    (run,) = recognise_text(command, "x:1")
    assert (run.tool, run.flags, run.targets, run.config) == (tool, flags, targets, None)
