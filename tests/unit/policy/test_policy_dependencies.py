"""The policy's ``check_content`` on pyproject dependency and build tables: changing, adding or
deleting them is refused unless ``allow_dependency_changes``; tool tables and rewording pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import ForbiddenPath
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.policy import check_content
from tests.unit.policy.policy_helpers import BASE
from tests.unit.policy.policy_helpers import pyproject_patch as _pyproject_patch
from tests.unit.policy.policy_helpers import write_pyproject as _write_pyproject

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("old", "new", "table"),
    [
        ('dependencies = ["msgspec>=0.18"]', 'dependencies = ["msgspec>=0.18", "requests"]',
         "project.dependencies"),
        ('dev = ["pytest>=8"]', 'dev = ["pytest>=8", "evil"]', "project.optional-dependencies"),
        ('requires = ["setuptools>=68"]', 'requires = ["setuptools>=68", "x"]', "build-system"),
        ('lint = ["ruff"]', 'lint = ["ruff", "black"]', "dependency-groups"),
        ('python = "^3.11"', 'python = "^3.11"\nrequests = "*"', "tool.poetry.dependencies"),
    ],
)  # fmt: skip
def test_dependency_table_changes_are_refused(root: Path, old: str, new: str, table: str) -> None:
    assert old in BASE
    patch = _pyproject_patch(root, BASE, BASE.replace(old, new))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert [d.message for d in caught.value.details] == [f"[{table}] changed"]
    assert caught.value.details[0].path == "pyproject.toml"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('typeCheckingMode = "strict"', 'typeCheckingMode = "basic"'),
        ("line-length = 100", "line-length = 88"),
        ('version = "0.1.0"', 'version = "0.2.0"'),
        ("[tool.ruff]", "[tool.black]\nline-length = 90\n\n[tool.ruff]"),
    ],
)
def test_tool_table_changes_pass(root: Path, old: str, new: str) -> None:
    check_content(_pyproject_patch(root, BASE, BASE.replace(old, new)), load_config(root))


def test_reformatting_dependency_tables_is_not_a_change(root: Path) -> None:
    new = BASE.replace(
        'dependencies = ["msgspec>=0.18"]', 'dependencies = [\n  "msgspec>=0.18",\n]'
    )
    check_content(_pyproject_patch(root, BASE, new), load_config(root))


def test_allow_dependency_changes_permits_it(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nallow_dependency_changes = true\n")
    new = BASE.replace('"msgspec>=0.18"', '"msgspec>=0.18", "requests"')
    check_content(_pyproject_patch(root, BASE, new), load_config(root))


def test_a_new_pyproject_with_dependencies_is_refused(root: Path) -> None:
    with pytest.raises(ForbiddenPath):
        check_content(_pyproject_patch(root, None, BASE), load_config(root))


def test_a_new_pyproject_with_tool_tables_only_passes(root: Path) -> None:
    check_content(
        _pyproject_patch(root, None, "[tool.ruff]\nline-length = 90\n"), load_config(root)
    )


def test_deleting_a_pyproject_with_dependencies_is_refused(root: Path) -> None:
    with pytest.raises(ForbiddenPath):
        check_content(_pyproject_patch(root, BASE, None), load_config(root))


def test_repairing_a_broken_pyproject_does_not_smuggle_dependencies(root: Path) -> None:
    """The base does not parse; the candidate does and declares dependencies: fail closed."""
    broken = BASE.replace("[tool.ruff]", "[tool.ruff")
    with pytest.raises(ForbiddenPath):
        check_content(_pyproject_patch(root, broken, BASE), load_config(root))
