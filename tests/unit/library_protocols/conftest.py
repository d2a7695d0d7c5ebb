"""The library Protocol tests' cache dir: one per module, so typeshed is scanned once a module."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache dir for the module: typeshed is scanned once."""
    return tmp_path_factory.mktemp("protocols")
