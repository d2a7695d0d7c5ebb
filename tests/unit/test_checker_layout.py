"""The shadow's checker configuration, the checker's scope, .pth search paths, and what the
shadow mirrors: pure functions and small trees, no checker."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.check.scope import CheckerScope
from prewrite_daemon.languages.python.checker_config import (
    CheckerConfig,
    load_checker_config,
    outside_dirs,
    render_shadow_config,
)
from prewrite_daemon.languages.python.environment import pth_dirs, read_venv
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.languages.python.layout import compute_layout
from prewrite_daemon.shadow.scan import MAX_FILE_BYTES
from prewrite_daemon.shadow.tree import ShadowTree

if TYPE_CHECKING:
    from prewrite_daemon.languages.readers import Reader

ROOT = Path("/w/root")


def reader(files: dict[str, str]) -> Reader:
    return files.get


def test_json_config_wins_and_may_carry_comments() -> None:
    files = {
        "pyrightconfig.json": '{\n // strict here\n "strict": ["src"],\n}\n',
        "pyproject.toml": "[tool.pyright]\ninclude = ['x']\n",
    }
    config = load_checker_config(reader(files))
    assert config.settings == {"strict": ["src"]}
    assert config.source == "pyrightconfig.json"


def test_broken_json_config_is_passed_through_verbatim() -> None:
    config = load_checker_config(reader({"pyrightconfig.json": "{ nope"}))
    assert render_shadow_config(config, ROOT, ["lib"]) == "{ nope"


def test_paths_outside_the_root_become_absolute_inside_stay_relative() -> None:
    config = CheckerConfig(
        {
            "extraPaths": ["../shared", "vendor", "/w/root/abs"],
            "stubPath": "../stubs",
            "venvPath": "envs",
            "executionEnvironments": [{"root": "app", "extraPaths": ["../../x"]}],
        },
        "pyproject.toml [tool.pyright]",
    )
    rendered = json.loads(render_shadow_config(config, ROOT, ["packages/lib/src"]))
    assert rendered["extraPaths"] == ["/w/shared", "vendor", "abs", "packages/lib/src"]
    assert rendered["stubPath"] == "/w/stubs"
    assert rendered["venvPath"] == "/w/root/envs"  # venvs are not mirrored: the real place
    [env] = rendered["executionEnvironments"]
    assert env == {"root": "app", "extraPaths": ["/x", "packages/lib/src"]}


def test_auto_search_path_src_is_kept_when_search_dirs_are_added(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    rendered = json.loads(render_shadow_config(CheckerConfig({}, None), tmp_path, ["lib"]))
    assert rendered["extraPaths"] == ["src", "lib"]
    assert json.loads(render_shadow_config(CheckerConfig({}, None), tmp_path, [])) == {
        "extraPaths": ["src"]
    }


def test_outside_dirs_are_the_existing_ones_beyond_the_root(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    root = tmp_path / "root"
    root.mkdir()
    config = CheckerConfig({"extraPaths": ["../shared", "../missing", "in", "../g*"]}, None)
    assert outside_dirs(config, root) == [tmp_path / "shared"]


@pytest.mark.parametrize(
    ("settings", "rel", "covered"),
    [
        ({}, "a.py", True),
        ({}, ".hidden/a.py", False),  # default excludes: **/.*
        ({}, "x/node_modules/a.py", False),
        ({"include": ["src"]}, "src/a.py", True),
        ({"include": ["src"]}, "srcx/a.py", False),
        ({"include": ["src"]}, "tests/a.py", False),
        ({"include": ["src/*.py"]}, "src/a.py", True),
        ({"include": ["src/*.py"]}, "src/sub/a.py", False),
        ({"include": ["**/typing"]}, "tests/typing/a.py", True),
        ({"exclude": ["**/gen"]}, "a/gen/b.py", False),
        ({"exclude": ["**/gen"]}, ".hidden/b.py", True),  # an explicit exclude replaces defaults
        ({"ignore": ["vendored"]}, "vendored/v.py", False),
        ({"include": ["src", "tests/typing"]}, "tests/typing/t.py", True),
        ({"include": ["./src/../lib"]}, "lib/a.py", True),
    ],
)
def test_scope_follows_pyright_file_specs(
    settings: dict[str, list[str]], rel: str, covered: bool
) -> None:
    assert CheckerScope.from_settings(settings, ROOT).covers(rel) is covered


def test_scope_leaves_out_venvs_unless_excludes_are_explicit(tmp_path: Path) -> None:
    (tmp_path / "env").mkdir()
    (tmp_path / "env/pyvenv.cfg").write_text("home = /usr\n")
    assert not CheckerScope.from_settings({}, tmp_path).covers("env/lib/x.py")
    assert CheckerScope.from_settings({"exclude": []}, tmp_path).covers("env/lib/x.py")


def test_pth_dirs_read_like_site_py_and_never_run(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    (tmp_path / "src").mkdir()
    site.mkdir()
    (site / "a.pth").write_text(f"# comment\n\nimport os; os.system('x')\n{tmp_path / 'src'}\n")
    (site / "b.pth").write_text("../src\nmissing-dir\n")
    assert pth_dirs([site]) == [tmp_path / "src"]


def test_layout_maps_in_root_editable_sources_and_watches_outside_ones(tmp_path: Path) -> None:
    root = tmp_path / "root"
    site = root / ".venv/lib/python3.11/site-packages"
    site.mkdir(parents=True)
    (root / "packages/lib/src").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (site / "x.pth").write_text(f"{root}/packages/lib/src\n{tmp_path}/outside\n")
    layout = compute_layout(root, [site], lambda _rel: None)
    assert layout.search_dirs == ("packages/lib/src",)
    assert layout.outside == (tmp_path / "outside",)
    assert json.loads(layout.config_text)["extraPaths"] == ["packages/lib/src"]


def test_an_unrun_venv_is_named_in_the_config(tmp_path: Path) -> None:
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\nversion_info = 3.12.1.final.0\n")
    assert read_venv(str(venv / "bin/python")) == (venv, "3.12")
    layout = compute_layout(tmp_path, [], lambda _rel: None, str(venv / "bin/python"))
    assert json.loads(layout.config_text) == {
        "venvPath": str(tmp_path),
        "venv": ".venv",
        "pythonVersion": "3.12",
    }


def test_shadow_mirrors_regular_files_and_links_never_devices(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "real").mkdir()
    (root / "real/b.py").write_text("B = 1\n")
    (root / "pkg/a.py").write_text("A = 1\n")
    os.symlink("/dev/zero", root / "pkg/zero.py")
    os.symlink(root / "real", root / "linked")
    os.symlink("../real/b.py", root / "pkg/b_link.py")
    (tmp_path / "ext.py").write_text("E = 1\n")
    os.symlink(tmp_path / "ext.py", root / "pkg/ext.py")
    (root / "pyrightconfig.json").write_text("{}")
    with (root / "pkg/huge.py").open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    shadow = ShadowTree(root, tmp_path / "shadow", PYTHON.is_mirrored)
    shadow.config_text = '{"generated": true}'
    shadow.create()
    assert sorted(shadow.files) == ["pkg/a.py", "real/b.py"]
    assert sorted(shadow.links) == ["linked", "pkg/b_link.py", "pkg/ext.py"]
    assert shadow.read_text("linked/b.py") == "B = 1\n"  # through the shadow's own copy
    assert (tmp_path / "shadow/linked").resolve() == (tmp_path / "shadow/real").resolve()
    assert shadow.outside_targets == [tmp_path / "ext.py"]
    assert (tmp_path / "shadow/pyrightconfig.json").read_text() == '{"generated": true}'
    os.unlink(root / "linked")
    scan = shadow.sync()
    assert scan.changed == ["linked"]
    assert not (tmp_path / "shadow/linked").exists()
