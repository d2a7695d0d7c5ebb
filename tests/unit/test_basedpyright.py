"""basedpyright as a checker of its own: chosen, found, started, configured and labelled as pyright
is, with its own package, version, table and name (``backends.pyright_command.Flavour``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.backends.pyright import _settings, cold_argv  # pyright: ignore[reportPrivateUsage]
from prewrite_daemon.backends.pyright_command import (
    BASEDPYRIGHT,
    PYRIGHT,
    dist_version,
    langserver_argv,
    pyright_dist,
    pyright_origin,
)
from prewrite_daemon.ci.runs import CiPin, CiRun
from prewrite_daemon.doctor.compare import mismatches
from prewrite_daemon.doctor.report import RungTool
from prewrite_daemon.ladder.reach import named_places
from prewrite_daemon.languages.checkers import choose
from prewrite_daemon.languages.python.checker_config import load_checker_config
from prewrite_daemon.languages.python.language import BASEDPYRIGHT as BASED_LANGUAGE
from prewrite_daemon.languages.python.language import PythonEnvironment
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.languages.registry import language_named, languages_for

if TYPE_CHECKING:
    from pathlib import Path


def _fake_basedpyright(site: Path, version: str) -> Path:
    """A PyPI basedpyright in ``site``: the node package at the top, the version in the wheel's
    metadata (its package.json names the pyright it is based on)."""
    package = site / "basedpyright"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"name": "basedpyright", "version": "1.1.400"}')
    (package / "index.js").write_text("")
    (package / "langserver.index.js").write_text("")
    (site / f"basedpyright-{version}.dist-info").mkdir()
    return package


def _fake_venv(root: Path) -> tuple[str, Path]:
    """A venv on disk (never run): its interpreter's path and its site-packages."""
    venv = root / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 99\n")
    (venv / "pyvenv.cfg").write_text("version = 3.11.7\n")
    site = venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    return str(venv / "bin" / "python"), site.resolve()


def test_configured_basedpyright_judges_itself(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.basedpyright]\ntypeCheckingMode = 'all'\n")
    assert [(c.name, c.chosen_by) for c in choose(tmp_path)] == [
        ("basedpyright", "pyproject.toml [tool.basedpyright]")
    ]
    assert languages_for(tmp_path, ["a.py"]) == [BASED_LANGUAGE]
    assert language_named("basedpyright") is BASED_LANGUAGE


def test_its_table_is_read_before_pyrights(tmp_path: Path) -> None:
    """basedpyright's rule: pyrightconfig.json, else [tool.basedpyright], else [tool.pyright]."""
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.pyright]\nstrict = ['a']\n")
    read = disk_reader(tmp_path)
    based = load_checker_config(read, BASED_LANGUAGE.sections)
    assert (based.source, based.settings) == ("pyproject.toml [tool.pyright]", {"strict": ["a"]})
    pyproject.write_text("[tool.basedpyright]\nreportAny = false\n")
    based = load_checker_config(read, BASED_LANGUAGE.sections)
    assert (based.source, based.settings) == (
        "pyproject.toml [tool.basedpyright]",
        {"reportAny": False},
    )
    assert load_checker_config(read).source is None  # pyright never reads basedpyright's table
    (tmp_path / "pyrightconfig.json").write_text('{"typeCheckingMode": "basic"}')
    assert load_checker_config(read, BASED_LANGUAGE.sections).source == "pyrightconfig.json"


def test_bundled_basedpyright_commands_and_label(tmp_path: Path) -> None:
    dist = pyright_dist(BASEDPYRIGHT)
    assert dist != pyright_dist(PYRIGHT)
    version = dist_version(dist, BASEDPYRIGHT)
    assert version.startswith("1.")
    assert version != dist_version(dist)  # the wheel's version, not the pyright it is based on
    origin = pyright_origin(tmp_path, [], True, BASEDPYRIGHT)
    assert (origin.dist, origin.label) == (None, f"basedpyright {version} (bundled)")
    assert langserver_argv(None, BASEDPYRIGHT)[1:] == [str(dist / "langserver.index.js"), "--stdio"]
    argv = cold_argv("/venv/bin/python", None, BASEDPYRIGHT)
    assert argv[1:] == [str(dist / "index.js"), "--outputjson", "--pythonpath", "/venv/bin/python"]


def test_the_workspace_basedpyright_judges_only_where_it_may_run(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    own = _fake_basedpyright(site, "1.30.0")
    theirs = pyright_origin(tmp_path, [site], True, BASEDPYRIGHT)
    assert (theirs.dist, theirs.label) == (own, "basedpyright 1.30.0 (the workspace's own)")
    assert langserver_argv(theirs.dist, BASEDPYRIGHT)[1] == str(own / "langserver.index.js")
    assert pyright_origin(tmp_path, [site], True, PYRIGHT).dist is None  # not pyright's package
    ours = pyright_origin(tmp_path, [site], False, BASEDPYRIGHT)
    assert ours.dist is None
    assert ours.label.endswith("(bundled)")


def test_an_untrusted_workspace_never_runs_its_own_basedpyright(tmp_path: Path) -> None:
    python, site = _fake_venv(tmp_path)
    _fake_basedpyright(site, "1.30.0")
    (tmp_path / "pyproject.toml").write_text(
        '[dependency-groups]\ndev = ["basedpyright==1.30.0"]\n'
    )
    env = BASED_LANGUAGE.environment(tmp_path, python, None, trusted=False)
    assert isinstance(env, PythonEnvironment)
    assert env.site_dirs == [site]  # read from disk
    assert env.pyright_dist is None  # prewrite's own judges
    bundled = dist_version(pyright_dist(BASEDPYRIGHT), BASEDPYRIGHT)
    assert env.checker == f"basedpyright {bundled} (bundled; the repository pins 1.30.0)"
    assert env.sections == ("basedpyright", "pyright")


def test_its_server_is_told_the_analysis_settings_under_its_own_section(tmp_path: Path) -> None:
    settings = _settings("/venv/bin/python")
    analysis = {"diagnosticMode": "openFilesOnly", "autoSearchPaths": True}
    assert settings("basedpyright") == {"analysis": analysis}
    assert settings("python.analysis") == analysis
    assert BASED_LANGUAGE.make_ready(tmp_path) is None  # the ready server is pyright's


def test_its_table_may_not_be_made_to_reach_outside_the_root() -> None:
    text = '[tool.basedpyright]\nextraPaths = ["../shared"]\n'
    assert named_places("pyproject.toml", text)[0] == [
        ("[tool.basedpyright] extraPaths", "../shared")
    ]


def test_the_doctor_finds_ci_basedpyright_judged_and_compares_its_version(tmp_path: Path) -> None:
    rung = RungTool("typecheck", "basedpyright", "on", "1.40.2", "bundled with prewrite")
    run = CiRun("basedpyright", ".github/workflows/ci.yml:9", "basedpyright")
    pin = CiPin("basedpyright", "1.39.0", "pyproject.toml")
    found = mismatches(tmp_path, [rung], [run], [pin])
    assert [m.kind for m in found] == ["version"]  # judged by itself: no "checker" mismatch
    assert "CI runs basedpyright 1.39.0" in found[0].message
