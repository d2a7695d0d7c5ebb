"""pyrefly as a checker: its choice and settings, its report (recorded from pyrefly 1.5.0), its
command line trusted and untrusted, the settings an untrusted workspace is refused under, and
the directories and configurations above the root it is refused for.

``tests/data/pyrefly/report-1.5.0.json`` is ``pyrefly check --output-format json
--use-ignore-files=false --skip-interpreter-query`` on a small project (``pkg/a.py``: an
unresolved import, a bad assignment after non-ASCII text, a bad return, a bad override;
``pkg/b.py``: a deprecated call, a bad assignment).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from prewrite.errors import BackendFailed, UntrustedWorkspace
from prewrite_daemon.backends.cli_report import ReportError
from prewrite_daemon.backends.cli_tool import (
    BUNDLED,
    ToolPython,
    bundled_binary,
    bundled_version,
    find_tool,
)
from prewrite_daemon.backends.cli_whole import CliWholeProgram, run_cli
from prewrite_daemon.backends.pyrefly_output import parse_report
from prewrite_daemon.languages.checkers import choose
from prewrite_daemon.languages.python.checker_specs import PYREFLY_SPEC
from prewrite_daemon.languages.python.cli_checker import PYREFLY, unmirrored_sources
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.languages.registry import language_named, languages_for

RECORDED = Path(__file__).parents[1] / "data" / "pyrefly" / "report-1.5.0.json"
TRUSTED = ToolPython("/venv/bin/python", may_run=True)
UNTRUSTED = ToolPython("/ws/.venv/bin/python", False, ("/ws/.venv/site", "/ws/src"), "3.11")


def _names(root: Path) -> list[tuple[str, str]]:
    return [(c.name, c.chosen_by) for c in choose(root)]


def test_pyrefly_judges_where_it_is_configured(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\n[tool.pyrefly]\n")
    assert _names(tmp_path) == [("pyrefly", "pyproject.toml [tool.pyrefly]")]
    (tmp_path / ".pyrefly.toml").write_text("")
    assert _names(tmp_path) == [("pyrefly", ".pyrefly.toml")]
    (tmp_path / "pyrefly.toml").write_text("")
    assert _names(tmp_path) == [("pyrefly", "pyrefly.toml")]  # as pyrefly reads them
    assert [lang.name for lang in languages_for(tmp_path, ["a.py"])] == ["pyrefly"]
    assert language_named("pyrefly") is PYREFLY


def test_pyrefly_judges_beside_the_others_or_by_name(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n[tool.ty]\n[tool.pyrefly]\n")
    assert [c.name for c in choose(tmp_path)] == ["mypy", "ty", "pyrefly"]
    text = '[tool.pyright]\n[tool.prewrite]\ntypecheck = ["pyrefly", "pyright"]\n'
    (tmp_path / "pyproject.toml").write_text(text)
    assert [c.name for c in choose(tmp_path)] == ["pyrefly", "pyright"]


def test_settings_are_pyrefly_s_own(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.pyrefly]\npython-version = "3.11"\n[tool.ruff]\nx = 1\n')
    read = disk_reader(tmp_path)
    before = PYREFLY_SPEC.settings(read)
    assert before[0] == "pyproject.toml"
    assert PYREFLY_SPEC.config(read) == {"python-version": "3.11"}
    pyproject.write_text('[tool.pyrefly]\npython-version = "3.11"\n[tool.ruff]\nx = 2\n')
    assert PYREFLY_SPEC.settings(read) == before  # another tool's table: no change
    pyproject.write_text('[tool.pyrefly]\npython-version = "3.12"\n')
    assert PYREFLY_SPEC.settings(read) != before
    (tmp_path / ".pyrefly.toml").write_text('python-platform = "darwin"\n')
    assert PYREFLY_SPEC.settings(read)[0] == ".pyrefly.toml"
    (tmp_path / "pyrefly.toml").write_text("[errors]\n")
    assert PYREFLY_SPEC.settings(read)[0] == "pyrefly.toml"
    assert PYREFLY_SPEC.config(read) == {"errors": {}}
    (tmp_path / "pyrefly.toml").write_text("not = [toml\n")
    assert PYREFLY_SPEC.config(read) == {}  # pyrefly refuses it itself: no report, a failure
    for name in ("pyrefly.toml", ".pyrefly.toml", "pyproject.toml"):
        assert PYREFLY.is_checker_config(name)
        assert PYREFLY.is_mirrored(name)


def test_the_recorded_report_is_read_into_our_records(tmp_path: Path) -> None:
    found = parse_report(RECORDED.read_text(), tmp_path)
    assert sorted(found) == ["pkg/a.py", "pkg/b.py"]
    a = {d.rule: d for d in found["pkg/a.py"]}
    assert sorted(a) == ["bad-assignment", "bad-override", "bad-return", "missing-import"]
    bad = a["bad-assignment"]  # `count: int = "three"` after `label = "é😀"; `: code points
    assert (bad.line, bad.column, bad.end_line, bad.end_column) == (3, 27, 3, 34)  # 0-based
    assert (bad.severity, bad.source) == ("error", "pyrefly")
    assert bad.message == "`Literal['three']` is not assignable to `int`"
    # the concise message: the description's details name the configuration's absolute path
    assert a["missing-import"].message == "Cannot find module `nosuchmodule`"
    assert "\n" not in a["bad-override"].message
    (deprecated,) = [d for d in found["pkg/b.py"] if d.rule == "deprecated"]
    assert (deprecated.severity, deprecated.message) == ("warning", "`old` is deprecated")


def _report(**fields: object) -> str:
    item = {"line": 2, "column": 3, "stop_line": 2, "stop_column": 6, "path": "m.py",
            "name": "bad-return", "description": "first\n  more", "severity": "error"}  # fmt: skip
    return json.dumps({"errors": [{**item, **fields}]})


def test_paths_severities_and_messages(tmp_path: Path) -> None:
    absolute = parse_report(_report(path=str(tmp_path / "pkg" / "m.py")), tmp_path)
    assert list(absolute) == ["pkg/m.py"]
    (d,) = parse_report(_report(severity="something-new"), tmp_path)["m.py"]
    assert d.severity == "error"  # an unknown severity can only make red
    assert d.message == "first"  # no concise description: the description's first line
    assert parse_report(_report(severity="info"), tmp_path)["m.py"][0].severity == "information"
    assert parse_report('{"errors": []}', tmp_path) == {}


@pytest.mark.parametrize(
    "text",
    ["", "Fatal configuration error\n", "[]", '{"errors": {}}', '{"error": []}',
     '{"errors": [1]}', '{"errors": [{"name": "x"}]}', _report(line="two")],
)  # fmt: skip
def test_an_unreadable_report_is_no_answer(tmp_path: Path, text: str) -> None:
    with pytest.raises(ReportError):
        parse_report(text, tmp_path)


def test_the_command_line_where_the_interpreter_may_run(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pyrefly]\nscript-command = ['uv']\n")
    argv = PYREFLY_SPEC.argv("/bin/pyrefly", TRUSTED, tmp_path)  # trusted: its commands run
    assert argv[:4] == ["/bin/pyrefly", "check", "--output-format", "json"]
    assert "--use-ignore-files=false" in argv  # the shadow holds no ignore file
    assert argv[argv.index("--python-interpreter-path") + 1] == "/venv/bin/python"
    assert "--skip-interpreter-query" not in argv
    assert "--site-package-path" not in argv


def _values(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, a in enumerate(argv) if a == flag]


def test_the_command_line_where_nothing_of_the_workspace_may_run(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pyrefly]\n")
    argv = PYREFLY_SPEC.argv("/bin/pyrefly", UNTRUSTED, tmp_path)
    assert "--skip-interpreter-query" in argv
    assert "--python-interpreter-path" not in argv
    assert _values(argv, "--site-package-path") == ["/ws/.venv/site", "/ws/src"]
    assert _values(argv, "--python-version") == ["3.11"]
    assert _values(argv, "--python-platform") == [sys.platform]
    (tmp_path / "typings").mkdir()  # pyrefly's default package path, which ours would replace
    argv = PYREFLY_SPEC.argv("/bin/pyrefly", UNTRUSTED, tmp_path)
    assert _values(argv, "--site-package-path") == ["typings", "/ws/.venv/site", "/ws/src"]
    text = '[tool.pyrefly]\nsite_package_path = ["vendor"]\npython-version = "3.9"\n'
    (tmp_path / "pyproject.toml").write_text(text)  # its settings win over a query's answer
    argv = PYREFLY_SPEC.argv("/bin/pyrefly", UNTRUSTED, tmp_path)
    assert _values(argv, "--site-package-path") == ["vendor", "/ws/.venv/site", "/ws/src"]
    assert _values(argv, "--python-version") == []
    bare = PYREFLY_SPEC.argv("/bin/pyrefly", ToolPython("/usr/bin/python3", False), tmp_path)
    assert "--site-package-path" not in bare  # nothing found: pyrefly keeps its own


def test_settings_that_skip_the_interpreter_are_kept(tmp_path: Path) -> None:
    (tmp_path / "pyrefly.toml").write_text(
        'skip-interpreter-query = true\nsite-package-path = ["v"]\n'
    )
    for py in (TRUSTED, UNTRUSTED):  # neither asks an interpreter nor adds packages
        argv = PYREFLY_SPEC.argv("/bin/pyrefly", py, tmp_path)
        assert argv[-1] == "--skip-interpreter-query"
        assert "--python-interpreter-path" not in argv
        assert "--site-package-path" not in argv


@pytest.mark.parametrize(
    "settings",
    ['script-command = ["sh", "-c", "touch x"]\n', '[build-system]\ntype = "buck"\n',
     '[[sub-config]]\nmatches = "a/**"\nscript_command = ["uv"]\n'],
)  # fmt: skip
def test_settings_that_run_commands_refuse_an_untrusted_workspace(
    tmp_path: Path, settings: str
) -> None:
    (tmp_path / "pyrefly.toml").write_text(settings)
    with pytest.raises(UntrustedWorkspace, match="would run what the repository names"):
        PYREFLY_SPEC.argv("/bin/pyrefly", UNTRUSTED, tmp_path)
    assert PYREFLY_SPEC.argv("/bin/pyrefly", TRUSTED, tmp_path)[1] == "check"


def test_sources_the_shadow_leaves_out_refuse_pyrefly(tmp_path: Path) -> None:
    for name in (".venv", ".github", ".cache", "node_modules", "pkg", "pkg/venv", "pkg/.x"):
        (tmp_path / name).mkdir(parents=True)
        (tmp_path / name / "m.py").write_text("")
    spec = PYREFLY_SPEC
    excludes, suffixes = spec.excludes, spec.checked_suffixes
    assert unmirrored_sources(tmp_path, excludes, suffixes) == []  # pyrefly skips them too
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "gen.py").write_text("")
    assert unmirrored_sources(tmp_path, excludes, suffixes) == []
    (tmp_path / "env").mkdir()  # a virtual environment pyrefly checks: not named venv
    (tmp_path / "env" / "pyvenv.cfg").write_text("")
    (tmp_path / "env" / "tool.py").write_text("")
    (tmp_path / "site-packages").mkdir()
    (tmp_path / "site-packages" / "explore.ipynb").write_text("{}")  # pyrefly checks these too
    assert unmirrored_sources(tmp_path, excludes, suffixes) == ["env", "site-packages"]


def test_the_shadow_holds_what_pyrefly_checks() -> None:
    for name in ("m.py", "m.pyi", "gui.pyw", "explore.ipynb", ".pyrefly.toml"):
        assert PYREFLY.is_mirrored(name), name
    assert not PYREFLY.is_mirrored("ext.pyx")  # measured: not checked


def test_a_configuration_above_the_root_refuses_it(tmp_path: Path) -> None:
    (tmp_path / "pyrefly.toml").write_text("[errors]\nbad-assignment = false\n")
    root = tmp_path / "ws"
    root.mkdir()
    text = '[tool.ruff]\n[tool.prewrite]\ntypecheck = ["pyrefly"]\n'
    (root / "pyproject.toml").write_text(text)  # a marker: pyrefly still prefers the one above
    env = PYREFLY.environment(root, sys.executable, None, trusted=False)
    assert env.refusal is not None
    assert str(tmp_path / "pyrefly.toml") in env.refusal
    (root / "pyproject.toml").write_text("[tool.pyrefly]\n")  # its own comes first
    assert PYREFLY.environment(root, sys.executable, None, trusted=False).refusal is None


def test_a_configuration_above_the_shadow_refuses_it(tmp_path: Path) -> None:
    root, shadow = tmp_path / "ws", tmp_path / "state" / "shadow"
    root.mkdir()
    shadow.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.prewrite]\ntypecheck = ["pyrefly"]\n')
    env = PYREFLY.environment(root, sys.executable, None, trusted=False)
    assert env.refusal is None
    assert isinstance(PYREFLY.make_backend(shadow, env, None), CliWholeProgram)
    (tmp_path / "state" / ".pyrefly.toml").write_text("")  # the shadow's run would read it
    with pytest.raises(BackendFailed, match=r"state/\.pyrefly\.toml"):
        PYREFLY.make_backend(shadow, env, None)


def test_the_bundled_binary_and_its_label(tmp_path: Path) -> None:
    tool = find_tool("pyrefly", [tmp_path], None)
    assert (tool.binary, tool.origin) == (str(bundled_binary("pyrefly")), BUNDLED)
    assert tool.label == f"pyrefly {bundled_version('pyrefly')} (bundled)"
    assert bundled_version("pyrefly") == "1.5.0"  # the pin in pyproject's daemon extra


def _project(root: Path, settings: str) -> Path:
    """A project whose one error pyrefly sees only through a package outside it."""
    site = root / "site"
    (site / "extpkg").mkdir(parents=True)
    (site / "extpkg" / "__init__.py").write_text("def e() -> str:\n    return 'e'\n")
    ws = root / "ws"
    ws.mkdir()
    (ws / "pyproject.toml").write_text(settings)
    (ws / "app.py").write_text("from extpkg import e\n\nx: int = e()\n")
    return site


def test_the_bundled_pyrefly_accepts_the_untrusted_command_line(tmp_path: Path) -> None:
    site = _project(tmp_path, "[tool.pyrefly]\n")
    py = ToolPython("/nowhere/bin/python", False, (str(site),), "3.11")
    ws = tmp_path / "ws"
    argv = PYREFLY_SPEC.argv(str(bundled_binary("pyrefly")), py, ws)
    found = asyncio.run(run_cli("pyrefly", argv, ws, parse_report, 60.0))
    assert [(d.rule, d.message) for d in found["app.py"]] == [
        ("bad-assignment", "`str` is not assignable to `int`")  # extpkg resolved, read
    ]


def test_a_configuration_error_is_a_failure_not_an_answer(tmp_path: Path) -> None:
    _project(tmp_path, "[tool.pyrefly]\nerrors = 3\n")
    ws = tmp_path / "ws"
    argv = PYREFLY_SPEC.argv(str(bundled_binary("pyrefly")), ToolPython("/x", False), ws)
    with pytest.raises(BackendFailed, match="could not be read"):  # exit 1, nothing on stdout
        asyncio.run(run_cli("pyrefly", argv, ws, parse_report, 60.0))


def test_the_doctor_names_pyrefly_as_a_check_runs_it(tmp_path: Path) -> None:
    from prewrite_daemon.doctor.ladder_tools import rung_tools
    from prewrite_daemon.doctor.setup_state import Place

    (tmp_path / ".pyrefly.toml").write_text("")
    problems: list[str] = []
    place = Place(tmp_path, trusted=False, python=sys.executable, run_python=None)
    [tool] = [t for t in rung_tools(place, problems) if t.rung == "typecheck"]
    assert (tool.tool, tool.origin, tool.config, tool.chosen_by) == (
        "pyrefly",
        BUNDLED,
        ".pyrefly.toml",
        ".pyrefly.toml",
    )
    assert tool.command[:2] == [str(bundled_binary("pyrefly")), "check"]
    assert "--skip-interpreter-query" in tool.command
    assert problems == []
    (tmp_path / ".pyrefly.toml").write_text('script-command = ["uv"]\n')
    problems = []
    [tool] = [t for t in rung_tools(place, problems) if t.rung == "typecheck"]
    assert tool.command == []
    assert len(problems) == 1
    assert "script-command" in problems[0]
