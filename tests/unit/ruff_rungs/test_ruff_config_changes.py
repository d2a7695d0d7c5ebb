"""Detecting a patch that changes ruff's configuration (``linter_config_changes``): ruff's own
files and settings tables, and a file a configuration extends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.ruff import linter_config_changes
from tests.unit.ruff_rungs.ruff_helpers import PYPROJECT
from tests.unit.ruff_rungs.ruff_helpers import edits as _edits
from tests.unit.ruff_rungs.ruff_helpers import write_files as _write_files

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("path", "old", "new", "changes"),
    [
        ("ruff.toml", None, "", True),  # an empty ruff.toml still stops ruff's discovery
        ("ruff.toml", "line-length = 90\n", None, True),
        ("sub/.ruff.toml", "line-length = 90\n", "line-length = 91\n", True),
        ("ruff.toml", "line-length = 90\n", "line-length = 90  # same\n\n", False),
        ("ruff.toml", "line-length = 90\n", "line-length = [\n", True),  # parse rung's job too
        ("pyproject.toml", PYPROJECT, PYPROJECT.replace("100", "90"), True),
        ("sub/pyproject.toml", None, "[tool.ruff]\n", True),
        ("pyproject.toml", PYPROJECT, PYPROJECT + "[tool.pyright]\nstrict = ['x']\n", False),
        ("pyproject.toml", PYPROJECT, PYPROJECT + '[project]\nrequires-python = ">=3.12"\n', True),
        ("pyproject.toml", None, '[project]\nname = "x"\n', False),
        ("pyproject.toml", PYPROJECT, None, True),
        ("ruff.toml.bak", None, "line-length = 1\n", False),
        ("pkg/ruff.py", None, "X = 1\n", False),
    ],
)
def test_linter_config_changes(
    tmp_path: Path, path: str, old: str | None, new: str | None, changes: bool
) -> None:
    patch = PreparedPatch(tmp_path, (FileEdit("pkg/m.py", "", "X = 1\n"), FileEdit(path, old, new)))
    assert linter_config_changes(patch) == ([path] if changes else [])


def test_a_file_a_configuration_extends_is_ruff_configuration_too(workspace: Path) -> None:
    """``extend`` chains, from configurations before or after the patch, in the patched files'
    directories or above them; other TOML files are data."""
    _write_files(workspace, {
        "pkg/ruff.toml": 'extend = "../configs/base.toml"\n',
        "configs/base.toml": 'extend = "deeper.toml"\n[lint]\nselect = ["E"]\n',
        "configs/deeper.toml": "line-length = 90\n",
        "configs/unused.toml": "line-length = 90\n",
        "data/table.toml": "x = 1\n",
    })  # fmt: skip
    edits = {
        "configs/base.toml": 'extend = "deeper.toml"\n[lint]\nselect = ["F"]\n',
        "configs/deeper.toml": "line-length = 120\n",
        "configs/unused.toml": "line-length = 120\n",
        "data/table.toml": "x = 2\n",
    }
    with_code = {"pkg/m.py": "X = 1\n", **edits}
    assert linter_config_changes(_edits(workspace, with_code)) == [
        "configs/base.toml",
        "configs/deeper.toml",
    ]
    # Without a Python file under pkg/, no configuration of the patch's files extends them...
    assert linter_config_changes(_edits(workspace, edits)) == []
    # ...unless the patch itself makes one: the configuration after the patch counts too.
    root_config = {"ruff.toml": 'extend = "configs/unused.toml"\n', **edits}
    assert linter_config_changes(_edits(workspace, root_config)) == [
        "ruff.toml",
        "configs/unused.toml",
    ]
