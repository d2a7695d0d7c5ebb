"""``prewrite doctor`` on whole repositories (``doctor.examine``): each rung as the daemon would
run it, beside CI, the mismatches marked — and none where the two agree."""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.doctor.__main__ import main
from prewrite_daemon.doctor.examine import examine
from prewrite_daemon.doctor.render import render

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.doctor.report import Mismatch, Report

MYPY_STRICT = """\
jobs:
  types:
    steps:
      - run: mypy src tests --strict
"""


@pytest.fixture(autouse=True)
def private_runtime(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No daemon, and mypy's shim for an interpreter that may not run written here."""
    monkeypatch.setenv("PREWRITE_RUNTIME_DIR", str(tmp_path_factory.mktemp("run")))


def _repo(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root.resolve()


def _examine(root: Path) -> Report:
    return examine(root, sys.executable)


def _kinds(report: Report) -> list[tuple[str, str, str]]:
    return [(m.rung, m.kind, m.tool) for m in report.mismatches]


def _only(report: Report, kind: str) -> Mismatch:
    (found,) = [m for m in report.mismatches if m.kind == kind]
    return found


def test_ci_runs_mypy_where_prewrite_judges_with_pyright(tmp_path: Path) -> None:
    root = _repo(tmp_path, {".github/workflows/ci.yml": MYPY_STRICT, "src/a.py": "x = 1\n"})
    report = _examine(root)
    (pyright,) = [t for t in report.rungs if t.rung == "typecheck"]
    assert (pyright.tool, pyright.chosen_by) == (
        "pyright",
        "the default: no type checker is configured",
    )
    checker = _only(report, "checker")
    assert checker.where == ".github/workflows/ci.yml:4"
    assert "CI runs mypy (.github/workflows/ci.yml:4)" in checker.message
    assert not report.ok
    text = render(report)
    assert "✗ checker: CI runs mypy" in text
    assert "CI         .github/workflows/ci.yml:4: mypy src tests --strict" in text


def test_mypy_targets_and_strict_flag_differ(tmp_path: Path) -> None:
    files = {
        ".github/workflows/ci.yml": MYPY_STRICT,
        "pyproject.toml": "[tool.mypy]\nwarn_unused_ignores = true\n",
        "src/pkg/__init__.py": "",
        "tests/test_a.py": "",
        "scripts/tool.py": "",
    }
    report = _examine(_repo(tmp_path, files))
    (mypy,) = [t for t in report.rungs if t.rung == "typecheck"]
    assert (mypy.tool, mypy.config, mypy.targets) == (
        "mypy",
        "pyproject.toml",
        ["src", "tests"],  # CI's targets, followed (languages.python.mypy_ci)
    )
    assert mypy.command[-3:] == ["--strict", "src", "tests"]  # and its --strict
    assert _kinds(report) == []


def test_ci_mypy_settings_prewrite_does_not_follow_differ(tmp_path: Path) -> None:
    files = {
        ".github/workflows/ci.yml": MYPY_STRICT.replace("--strict", "--follow-imports=skip"),
        "pyproject.toml": "[tool.mypy]\n",
        "src/pkg/__init__.py": "",
        "tests/test_a.py": "",
    }
    report = _examine(_repo(tmp_path, files))
    assert _kinds(report) == [("typecheck", "flags", "mypy")]
    assert "CI passes --follow-imports skip on mypy's" in _only(report, "flags").message


def test_a_pre_commit_pin_of_another_ruff(tmp_path: Path) -> None:
    pre_commit = (
        "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.0.1\n"
        "    hooks:\n      - id: ruff\n      - id: ruff-format\n"
    )
    files = {".pre-commit-config.yaml": pre_commit, "pyproject.toml": "[tool.ruff]\n"}
    report = _examine(_repo(tmp_path, files))
    fmt, lint = (t for t in report.rungs if t.rung in ("format", "lint"))
    assert (fmt.state, lint.state, lint.config) == ("on", "on", "pyproject.toml")
    assert _kinds(report) == [
        ("format", "version", "ruff format"),
        ("lint", "version", "ruff check"),
    ]
    message = report.mismatches[1].message
    assert message.startswith("CI runs ruff 0.0.1 (.pre-commit-config.yaml:5 and 1 more")
    assert f"prewrite runs {lint.version}" in message


def test_a_makefile_naming_another_ruff_config(tmp_path: Path) -> None:
    files = {
        "Makefile": "lint:\n\truff check --config ci/ruff.toml .\n",
        "ruff.toml": "line-length = 90\n",
        "ci/ruff.toml": "line-length = 120\n",
    }
    report = _examine(_repo(tmp_path, files))
    config = _only(report, "config")
    assert (config.rung, config.where) == ("lint", "Makefile:2")
    assert "CI's ruff check reads ci/ruff.toml (Makefile:2); prewrite's reads ruff.toml" in (
        config.message
    )


def test_ci_and_prewrite_agree(tmp_path: Path) -> None:
    workflow = (
        "jobs:\n  lint:\n    steps:\n      - run: |\n          ruff check .\n"
        "          ruff format --check .\n          pyright\n"
    )
    files = {
        ".github/workflows/ci.yml": workflow,
        "pyproject.toml": "[tool.ruff]\nline-length = 100\n\n[tool.pyright]\n",
    }
    report = _examine(_repo(tmp_path, files))
    assert report.mismatches == []
    assert report.problems == []
    assert [r.where for r in report.ci] == [
        ".github/workflows/ci.yml:5",
        ".github/workflows/ci.yml:6",
        ".github/workflows/ci.yml:7",
    ]
    assert render(report).rstrip().endswith("as far as its files say")


def test_a_repository_without_ci(tmp_path: Path) -> None:
    report = _examine(_repo(tmp_path, {"a.py": "x = 1\n"}))
    assert (report.ci, report.ci_files, report.mismatches) == ([], [], [])
    assert report.ok
    assert report.setup.trusted  # the test session trusts its temporary trees
    assert not report.setup.daemon.running
    assert [t.rung for t in report.rungs] == ["format", "lint", "typecheck", "tests"]
    assert "CI files read: none found" in render(report)


def test_a_broken_prewrite_table_is_a_problem(tmp_path: Path) -> None:
    report = _examine(_repo(tmp_path, {"pyproject.toml": "[tool.prewrite]\nnonsense = 1\n"}))
    assert not report.ok
    assert "unknown keys in [tool.prewrite]: nonsense" in report.problems[0]


def test_a_fifo_where_the_configuration_lives_is_a_problem_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pyproject.toml")
    report = _examine(tmp_path.resolve())
    assert not report.ok
    assert len(report.problems) == 3  # the ladder's table, ruff's and the checkers' choice
    assert all("pyproject.toml is a FIFO" in p for p in report.problems)
    details = [line for line in render(report).splitlines() if line.endswith(": a FIFO")]
    assert len(details) == 3
    assert all(line.startswith("    ") for line in details)  # under their problem


def test_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["/"]) == 2
    assert main([str(tmp_path), "--python", "relative/python"]) == 1  # every check would fail
    assert "interpreter: interpreter not found" in capsys.readouterr().out
    clean = _repo(tmp_path / "clean", {"a.py": ""})
    assert main([str(clean), "--python", sys.executable]) == 0
    _repo(clean, {".github/workflows/ci.yml": MYPY_STRICT})
    assert main([str(clean), "--python", sys.executable, "--json"]) == 1
    assert '"ok":false' in capsys.readouterr().out


def test_json_on_bad_input_is_one_error_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing"), "--json"]) == 2
    out, err = capsys.readouterr()
    assert "not a directory" in err
    assert json.loads(out)["error"]["code"] == "invalid_workspace"


def test_a_checker_prewrite_judges_with_that_ci_does_not_run(tmp_path: Path) -> None:
    files = {
        ".github/workflows/ci.yml": MYPY_STRICT.replace(" --strict", ""),
        "pyproject.toml": "[tool.mypy]\n\n[tool.pyright]\n",
        "src/a.py": "",
        "tests/test_a.py": "",
    }
    report = _examine(_repo(tmp_path, files))
    assert _kinds(report) == [("typecheck", "checker", "pyright")]
    assert report.mismatches[0].message.startswith(
        "prewrite judges with pyright (pyproject.toml [tool.pyright]), which CI does not run"
    )


def test_a_rung_off_that_ci_runs(tmp_path: Path) -> None:
    files = {"Makefile": "fmt:\n\truff format --check .\n", "a.py": ""}
    report = _examine(_repo(tmp_path, files))
    (fmt,) = [t for t in report.rungs if t.rung == "format"]
    assert fmt.state.startswith("off (the repository configures no ruff")
    assert _kinds(report) == [("format", "rung", "")]
    assert "✗ rung: the format rung is off" in render(report)


def test_untrusted_runs_prewrites_ruff_not_the_workspaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing of an untrusted workspace runs: its venv's ruff 0.0.2 is read, never run, and
    the rung says so — the version CI's ``pip install`` would give differs."""
    monkeypatch.setenv("PREWRITE_TRUST_FILE", str(tmp_path / "trusted-nothing"))
    root = _repo(tmp_path / "repo", {"pyproject.toml": "[tool.ruff]\n", ".venv/pyvenv.cfg": ""})
    (root / ".venv/lib/python3.11/site-packages/ruff-0.0.2.dist-info").mkdir(parents=True)
    (root / ".venv/bin").mkdir()
    (root / ".venv/bin/python").symlink_to(sys.executable)
    report = examine(root)
    assert (report.setup.trusted, report.setup.python_runs) == (False, False)
    assert report.setup.python == str(root / ".venv/bin/python")
    lint = next(t for t in report.rungs if t.rung == "lint")
    assert (lint.origin, lint.workspace_version) == ("bundled with prewrite", "0.0.2")
    assert ("lint", "version", "ruff check") in _kinds(report)
    tests = next(t for t in report.rungs if t.rung == "tests")
    assert tests.state.startswith("off (the workspace is not trusted")
    assert f"`prewrite trust {root}`" in render(report)


def test_ci_runs_another_ty_with_another_config_and_a_setting(tmp_path: Path) -> None:
    workflow = MYPY_STRICT.replace(
        "mypy src tests --strict", "uvx ty@0.0.1 check --config-file ci/ty.toml --error all"
    )
    files = {
        ".github/workflows/ci.yml": workflow,
        "pyproject.toml": "[tool.ty]\n",
        "ci/ty.toml": "",
        "src/a.py": "",
    }
    report = _examine(_repo(tmp_path, files))
    (ty,) = [t for t in report.rungs if t.rung == "typecheck"]
    assert (ty.tool, ty.config) == ("ty", "pyproject.toml")
    assert _kinds(report) == [
        ("typecheck", "version", "ty"),
        ("typecheck", "config", "ty"),
        ("typecheck", "flags", "ty"),
    ]
    version, config, flags = report.mismatches
    assert version.message.startswith("CI runs ty 0.0.1 (.github/workflows/ci.yml:4)")
    assert "CI's ty reads ci/ty.toml (.github/workflows/ci.yml:4); prewrite's reads pyproject" in (
        config.message
    )
    assert "CI passes --error all on ty's" in flags.message
    assert "CI         .github/workflows/ci.yml:4 [0.0.1]: uvx ty@0.0.1 check" in render(report)


def test_ci_runs_pyrefly_where_prewrite_judges_with_pyright(tmp_path: Path) -> None:
    pre_commit = (
        "repos:\n  - repo: https://github.com/facebook/pyrefly-pre-commit\n    rev: 0.44.0\n"
        "    hooks:\n      - id: pyrefly-check\n        language: system\n"
    )
    files = {".pre-commit-config.yaml": pre_commit, "pyproject.toml": "[tool.pyright]\n"}
    report = _examine(_repo(tmp_path, files))
    assert _kinds(report) == [("typecheck", "checker", "")]
    assert _only(report, "checker").message.startswith(
        "CI runs pyrefly (.pre-commit-config.yaml:5); prewrite judges with pyright"
    )


def test_ci_and_prewrite_agree_on_pyrefly(tmp_path: Path) -> None:
    workflow = MYPY_STRICT.replace("mypy src tests --strict", "uv run pyrefly check --summary=none")
    files = {".github/workflows/ci.yml": workflow, "pyrefly.toml": ""}
    report = _examine(_repo(tmp_path, files))
    assert [t.tool for t in report.rungs if t.rung == "typecheck"] == ["pyrefly"]
    assert report.mismatches == []
