"""``prewrite doctor``'s reading of CI for ty and pyrefly (``ci.commands``, ``ci.grammars``,
``ci.sources``): ``ty check`` and ``pyrefly check`` through their launchers, their pins, their
configuration-file options, their settings, and their pre-commit hooks — the option names as
``ty check --help`` (0.0.104) and ``pyrefly check --help`` (1.5.0) give them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.ci.commands import recognise_text
from prewrite_daemon.ci.files import read_ci

if TYPE_CHECKING:
    from pathlib import Path

PRE_COMMIT = """\
repos:
  - repo: https://github.com/astral-sh/ty-pre-commit
    rev: v0.0.76
    hooks:
      - id: ty
        args: [--isolated, --group=typecheck]
  - repo: https://github.com/facebook/pyrefly-pre-commit
    rev: 0.44.0
    hooks:
      - id: pyrefly-check
        args: [--preset=strict]
      - id: pyrefly-check
        language: system
  - repo: https://github.com/facebook/pyrefly-pre-commit
    rev: 0.0.1
    hooks:
      - id: pyrefly-typecheck-specific-version
        additional_dependencies: [pyrefly==0.30.0]
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.13.0
    hooks:
      - id: mypy
        additional_dependencies: [pytest==8.3.0]
  - repo: local
    hooks:
      - id: ty-local
        entry: ty check --error all
        language: python
        additional_dependencies: [ty==0.0.31, types-requests==2.0]
        pass_filenames: false
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.mark.parametrize(
    ("command", "tool", "version"),
    [
        ("ty check", "ty", None),
        ("uvx ty@0.0.1 check src", "ty", "0.0.1"),
        ("uvx ty==0.0.1 check", "ty", "0.0.1"),
        ("uv run ty check", "ty", None),
        ("uv tool run ty@0.0.2 check", "ty", "0.0.2"),
        ("pipx run ty check", "ty", None),
        ("python -m ty check", "ty", None),
        (".venv/bin/ty check", "ty", None),
        ("pyrefly check", "pyrefly", None),
        ("uvx pyrefly@1.5.0 check", "pyrefly", "1.5.0"),
        ("uvx --from pyrefly==1.4.0 pyrefly check", "pyrefly", None),  # a pin, not the launcher's
        ("uv run --group dev pyrefly check", "pyrefly", None),
        ("python3 -m pyrefly check", "pyrefly", None),
        ("pyrefly -j 4 --color never check", "pyrefly", None),  # options before the subcommand
    ],
)
def test_ty_and_pyrefly_through_their_launchers(
    command: str, tool: str, version: str | None
) -> None:
    (run,) = recognise_text(command, "x:1")
    assert (run.tool, run.version) == (tool, version)


@pytest.mark.parametrize(
    "command",
    ["ty", "ty server", "ty version", "pyrefly lsp", "pyrefly init", "echo ty check", "tyx check"],
)
def test_only_check_is_a_type_check(command: str) -> None:
    assert recognise_text(command, "x:1") == []


@pytest.mark.parametrize(
    ("command", "config", "flags", "targets"),
    [
        ("ty check --config-file ci/ty.toml src", "ci/ty.toml", [], ["src"]),
        ("ty check --config-file=ci/ty.toml", "ci/ty.toml", [], []),
        ("ty check --project backend", "backend", [], []),  # its configuration's directory
        ("ty check -c 'rules.x=\"error\"' .", None, ['-c rules.x="error"'], ["."]),  # inline
        ("ty check --error all --ignore unresolved-import", None, [
            "--error all", "--ignore unresolved-import"], []),
        ("ty check --output-format concise --python .venv --exit-zero -q", None, [], []),
        ("ty check --python-version 3.12 --error-on-warning", None, [
            "--python-version 3.12", "--error-on-warning"], []),
        ("pyrefly check -c ci/pyrefly.toml", "ci/pyrefly.toml", [], []),
        ("pyrefly check --config=ci/pyrefly.toml src", "ci/pyrefly.toml", [], ["src"]),
        ("pyrefly check -p strict", None, ["-p strict"], []),  # -p is --preset, not a project
        ("pyrefly check --check-unannotated-defs src", None, ["--check-unannotated-defs"], ["src"]),
        ("pyrefly check --output-format json --summary=none -j 2 --progress-bar no", None, [], []),
        ("pyrefly check --min-severity error --ignore missing-import", None, [
            "--min-severity error", "--ignore missing-import"], []),
    ],
)  # fmt: skip
def test_ty_and_pyrefly_settings_config_and_targets(
    command: str, config: str | None, flags: list[str], targets: list[str]
) -> None:
    (run,) = recognise_text(command, "x:1")
    assert (run.config, run.flags, run.targets) == (config, flags, targets)


def test_pins_in_workflows_tox_and_nox(tmp_path: Path) -> None:
    workflow = (
        "jobs:\n  types:\n    steps:\n"
        '      - run: pip install "ty==0.0.1" types-requests==2.0\n'
        "      - run: ty check src\n"
    )
    files = {
        ".github/workflows/ci.yml": workflow,
        "tox.ini": "[testenv]\ndeps =\n    pyrefly==1.4.0\ncommands =\n    pyrefly check\n",
        "noxfile.py": (
            "import nox\n\n@nox.session\ndef types(session):\n"
            '    session.install("ty==0.0.2")\n    session.run("ty", "check", "--error", "all")\n'
        ),
    }
    found = read_ci(_write(tmp_path, files))
    assert [(r.tool, r.where, r.flags) for r in found.runs] == [
        ("ty", ".github/workflows/ci.yml:5", []),
        ("pyrefly", "tox.ini:5", []),
        ("ty", "noxfile.py:6", ["--error all"]),
    ]
    assert {(p.package, p.version, p.where) for p in found.pins} == {
        ("ty", "0.0.1", ".github/workflows/ci.yml:4"),
        ("pyrefly", "1.4.0", "tox.ini:3"),
        ("ty", "0.0.2", "noxfile.py:5"),
    }


def test_the_ty_and_pyrefly_pre_commit_hooks(tmp_path: Path) -> None:
    found = read_ci(_write(tmp_path, {".pre-commit-config.yaml": PRE_COMMIT}))
    runs = {r.where: r for r in found.runs}
    ty = runs[".pre-commit-config.yaml:5"]
    assert (ty.tool, ty.version, ty.targets) == ("ty", "0.0.76", None)  # the rev is ty's version
    assert ty.flags == []  # its args are `uv check`'s, not ty's settings
    assert "--isolated" in ty.command
    managed = runs[".pre-commit-config.yaml:10"]
    assert (managed.tool, managed.version, managed.flags) == (
        "pyrefly",
        "0.44.0",
        ["--preset strict"],
    )
    system = runs[".pre-commit-config.yaml:12"]
    assert (system.tool, system.version) == ("pyrefly", None)  # language: system: PATH's pyrefly
    old = runs[".pre-commit-config.yaml:17"]  # rev 0.0.1 is the hook's; the dependency is pyrefly's
    assert (old.tool, old.version) == ("pyrefly", "0.30.0")
    local = runs[".pre-commit-config.yaml:26"]
    assert (local.tool, local.version, local.flags) == ("ty", "0.0.31", ["--error all"])
    assert local.targets == []  # pass_filenames: false: its own targets (none: the project)
    assert sorted((p.package, p.version, p.where) for p in found.pins) == [
        ("mypy", "1.13.0", ".pre-commit-config.yaml:22"),  # pytest==8.3.0 there is not run by CI
        ("pyrefly", "0.30.0", ".pre-commit-config.yaml:17"),
        ("pyrefly", "0.44.0", ".pre-commit-config.yaml:10"),
        ("ty", "0.0.31", ".pre-commit-config.yaml:26"),
        ("ty", "0.0.76", ".pre-commit-config.yaml:5"),
    ]
