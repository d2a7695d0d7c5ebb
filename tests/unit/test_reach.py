"""Issue 20, item 7: a patch may not make a judge's configuration read outside the root.

Real files and links in a temporary tree; the policy's content check (``check_content``) is what
the ladder runs on every edit after anchoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import ForbiddenPath
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.policy import check_content
from prewrite_daemon.ladder.reach import new_reaches

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    path.mkdir()
    (tmp_path / "outside.toml").write_text("[default]\naws_secret_access_key = AKIA\n")
    return path


def _refused(root: Path, rel: str, new: str, old: str | None = None) -> ForbiddenPath:
    patch = PreparedPatch(root, (FileEdit(rel, old, new),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert "read outside the workspace" in caught.value.message
    assert {d.path for d in caught.value.details} == {rel}
    return caught.value


def _passes(root: Path, rel: str, new: str, old: str | None = None) -> None:
    check_content(PreparedPatch(root, (FileEdit(rel, old, new),)), load_config(root))


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("ruff.toml", 'extend = "{outside}"\n'),
        ("ruff.toml", 'extend = "../outside.toml"\n'),
        ("sub/.ruff.toml", 'extend = "../../outside.toml"\n'),
        ("ruff.toml", 'extend = "~/.config/ruff/ruff.toml"\n'),
        ("pkg/pyproject.toml", '[tool.ruff]\nextend = "{outside}"\n'),
        ("pyrightconfig.json", '{{"extends": "{outside}"}}'),
        ("pyrightconfig.json", '{{"extraPaths": ["../"]}}'),
        ("pyrightconfig.json", '{{"stubPath": "/usr/share"}}'),
        ("pyrightconfig.json", '{{"executionEnvironments": [{{"root": "../x"}}]}}'),
        ("pyproject.toml", '[tool.pyright]\nextends = "../outside.toml"\n'),
        ("tsconfig.json", '{{"extends": "../base.json"}}'),
        ("web/tsconfig.app.json", '{{"extends": ["./ok.json", "../../base.json"]}}'),
        ("tsconfig.json", '{{"include": ["../shared/**/*.ts"]}}'),
        ("tsconfig.json", '{{"references": [{{"path": "../other"}}]}}'),
        ("tsconfig.json", '{{"compilerOptions": {{"paths": {{"x": ["../../x/*"]}}}}}}'),
        ("tsconfig.json", '{{"compilerOptions": {{"typeRoots": ["/usr/lib/types"]}}}}'),
        ("jsconfig.json", '// comment\n{{"extends": "../base",}}'),
        ("biome.json", '{{"extends": ["../biome.json"]}}'),
        (".eslintrc.json", '{{"extends": "../.eslintrc.json"}}'),
    ],
)
def test_a_config_that_reaches_outside_is_refused(root: Path, rel: str, text: str) -> None:
    _refused(root, rel, text.format(outside=root.parent / "outside.toml"))


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("ruff.toml", 'extend = "base.toml"\n'),
        ("sub/ruff.toml", 'extend = "../ruff.toml"\n'),
        ("pyrightconfig.json", '{"extraPaths": ["src", "./lib"], "venvPath": "."}'),
        ("tsconfig.json", '{"extends": "./base.json", "include": ["src/**/*", "${configDir}/x"]}'),
        ("tsconfig.json", '{"extends": "@tsconfig/strictest"}'),  # not installed anywhere
        ("pyproject.toml", "[tool.ruff]\nline-length = 90\n"),
        ("data/config.json", '{"extends": "../../elsewhere.json"}'),  # no judge reads it
    ],
)
def test_a_config_that_stays_inside_passes(root: Path, rel: str, text: str) -> None:
    _passes(root, rel, text)


def test_a_link_inside_the_root_that_leads_outside_counts_as_outside(root: Path) -> None:
    (root / "shared").symlink_to(root.parent)
    refusal = _refused(root, "ruff.toml", 'extend = "shared/outside.toml"\n')
    assert "extend = 'shared/outside.toml'" in refusal.details[0].message


def test_a_package_found_in_node_modules_above_the_root_is_outside(root: Path) -> None:
    """The monorepo layout of item 2: repo/node_modules above the checked folder."""
    (root.parent / "node_modules" / "evil").mkdir(parents=True)
    refusal = _refused(root, "tsconfig.json", '{"extends": "evil/tsconfig.json"}')
    assert "found at" in refusal.details[0].message
    (root / "node_modules" / "evil").mkdir(parents=True)  # the nearer one wins: inside
    _passes(root, "tsconfig.json", '{"extends": "evil/tsconfig.json"}')


def test_a_reach_the_disk_already_has_is_not_the_patchs(root: Path) -> None:
    """A workspace configured by hand to extend a shared file keeps working."""
    old = 'extend = "../outside.toml"\nline-length = 100\n'
    _passes(root, "ruff.toml", old.replace("100", "90"), old)
    _refused(root, "ruff.toml", 'extend = "../elsewhere.toml"\n', old)  # moved elsewhere outside


def test_text_that_does_not_parse_names_nothing(root: Path) -> None:
    assert new_reaches(root, "ruff.toml", None, 'extend = "/etc\n') == []
    assert new_reaches(root, "tsconfig.json", None, '{"extends": ') == []
