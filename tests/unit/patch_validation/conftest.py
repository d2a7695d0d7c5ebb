"""The patch validation tests' workspace: ``root``, a resolved directory with a package and a
``.git``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace with a package, a .git dir and ordinary files."""
    path = tmp_path.resolve() / "ws"
    (path / "pkg").mkdir(parents=True)
    (path / "pkg" / "__init__.py").write_text("")
    (path / "pkg" / "a.py").write_text("A = 1\n")
    (path / "b.py").write_text("B = 2\n")
    (path / ".git").mkdir()
    (path / ".git" / "config").write_text("[core]\n")
    return path
