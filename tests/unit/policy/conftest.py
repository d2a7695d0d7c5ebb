"""The path policy tests' workspace: ``root``, an empty resolved directory."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    path.mkdir()
    return path
