"""Shared by the path policy tests: writing the root's ``pyproject.toml``, a patch of it, and
``BASE`` (a pyproject with dependency, build and tool tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.check.patch import FileEdit, PreparedPatch

if TYPE_CHECKING:
    from pathlib import Path


def write_pyproject(root: Path, text: str) -> None:
    (root / "pyproject.toml").write_text(text)


BASE = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "demo"
version = "0.1.0"
dependencies = ["msgspec>=0.18"]

[project.optional-dependencies]
dev = ["pytest>=8"]

[dependency-groups]
lint = ["ruff"]

[tool.poetry.dependencies]
python = "^3.11"

[tool.ruff]
line-length = 100

[tool.pyright]
typeCheckingMode = "strict"
"""


def pyproject_patch(root: Path, old: str | None, new: str | None) -> PreparedPatch:
    return PreparedPatch(root, (FileEdit("pyproject.toml", old, new),))
