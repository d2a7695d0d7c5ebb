"""The ladder definition, ``load_config``: bad ``[tool.prewrite]`` tables are refused, the defaults
without a pyproject, the opt-ins read from disk, when formatting is on, a broken pyproject.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BadRequest
from prewrite_daemon.ladder.config import DEFAULT_EXTENSIONS, load_config
from tests.unit.policy.policy_helpers import write_pyproject as _write_pyproject

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    "table",
    [
        "colour = true",
        'lint = "yes"',
        "typecheck = 1",
        "format = 0",
        'deny = "migrations/*"',
        "allow = [1]",
        'allow_extensions = ".py"',
        'allow_extensions = [".py", 2]',
        'allow_dependency_changes = "true"',
        "allow_config_changes = 1",
        'allow_relaxation = "yes"',
    ],
)
def test_bad_tool_prewrite_tables(root: Path, table: str) -> None:
    _write_pyproject(root, f"[tool.prewrite]\n{table}\n")
    with pytest.raises(BadRequest) as caught:
        load_config(root)
    assert table.split(" = ")[0] in caught.value.message


# --- load_config ----------------------------------------------------------------------------


def test_defaults_without_pyproject(root: Path) -> None:
    config = load_config(root)
    assert (config.format, config.lint, config.typecheck) == (False, True, True)
    assert config.source == "defaults"
    assert config.allow_extensions == DEFAULT_EXTENSIONS
    assert {".py", ".toml", ".json", ".yaml", ".md", ".css", ".js", ".ts"} <= DEFAULT_EXTENSIONS
    assert config.allow == ()
    assert not config.allow_dependency_changes
    assert not config.allow_config_changes
    assert not config.allow_relaxation


def test_the_opt_ins_are_read_from_disk(root: Path) -> None:
    _write_pyproject(
        root, "[tool.prewrite]\nallow_config_changes = true\nallow_relaxation = true\n"
    )
    config = load_config(root)
    assert (config.allow_config_changes, config.allow_relaxation) == (True, True)


@pytest.mark.parametrize(
    ("files", "formats"),
    [
        ({"pyproject.toml": '[project]\nname = "x"\n'}, False),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, True),
        ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['F']\n"}, True),
        ({"ruff.toml": "line-length = 100\n"}, True),
        ({".ruff.toml": "line-length = 100\n"}, True),
        ({"sub/ruff.toml": "line-length = 100\n"}, False),
        ({"pyproject.toml": "[tool.pyright]\nstrict = []\n"}, False),
    ],
)
def test_format_defaults_on_only_when_ruff_is_configured(
    root: Path, files: dict[str, str], formats: bool
) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    config = load_config(root)
    assert config.format is formats
    assert config.lint
    assert config.typecheck
    assert config.source == "defaults"


def test_explicit_flags_and_source(root: Path) -> None:
    _write_pyproject(
        root, "[tool.ruff]\n[tool.prewrite]\nformat = false\nlint = false\ntypecheck = false\n"
    )
    config = load_config(root)
    assert (config.format, config.lint, config.typecheck) == (False, False, False)
    assert config.source == "pyproject.toml [tool.prewrite]"
    assert [config.enabled(r) for r in ("policy", "anchor", "parse")] == [True, True, True]
    assert [config.enabled(r) for r in ("format", "lint", "typecheck")] == [False, False, False]


def test_format_forced_on_without_ruff_config(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nformat = true\n")
    assert load_config(root).format


def test_broken_pyproject_falls_back_to_defaults(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite\nformat = true\n")
    assert load_config(root).source == "defaults"
