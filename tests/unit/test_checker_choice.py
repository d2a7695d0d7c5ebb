"""Which checkers judge a Python workspace (``languages.checkers``); how mypy is read and run."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BadRequest
from prewrite_daemon.backends.mypy_command import (
    MypyTool,
    installed_version,
    mypy_flags,
    untrusted_shim,
)
from prewrite_daemon.backends.mypy_output import MypyOutputError, parse_report
from prewrite_daemon.backends.pyright_command import (
    dist_version,
    langserver_argv,
    pyright_dist,
    pyright_origin,
)
from prewrite_daemon.languages.checkers import choose, mypy_config_file
from prewrite_daemon.languages.python.mypy import mypy_settings, targets
from prewrite_daemon.languages.python.mypy_ci import CiMypy, ci_mypy
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.languages.registry import languages_for

if TYPE_CHECKING:
    from pathlib import Path


def _names(root: Path) -> list[tuple[str, str]]:
    return [(c.name, c.chosen_by) for c in choose(root)]


def test_nothing_configured_is_pyright(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert _names(tmp_path) == [("pyright", "the default: no type checker is configured")]


@pytest.mark.parametrize(
    ("name", "text", "chosen_by"),
    [
        ("pyproject.toml", "[tool.mypy]\nstrict = true\n", "pyproject.toml [tool.mypy]"),
        ("mypy.ini", "[mypy]\nstrict = True\n", "mypy.ini [mypy]"),
        (".mypy.ini", "[mypy]\n", ".mypy.ini [mypy]"),
        ("setup.cfg", "[metadata]\nname = x\n[mypy]\n", "setup.cfg [mypy]"),
    ],
)
def test_mypy_where_it_is_configured(tmp_path: Path, name: str, text: str, chosen_by: str) -> None:
    (tmp_path / name).write_text(text)
    assert _names(tmp_path) == [("mypy", chosen_by)]
    assert mypy_config_file(disk_reader(tmp_path)) == name


def test_a_setup_cfg_without_mypy_is_not_mypy(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\n")
    (tmp_path / "mypy.ini").write_text("[something_else]\n")
    assert [c.name for c in choose(tmp_path)] == ["pyright"]


def test_both_configured_both_judge(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n[tool.pyright]\n[tool.basedpyright]\n")
    chosen = choose(tmp_path)
    assert [c.name for c in chosen] == ["pyright", "mypy", "basedpyright"]
    names = [lang.name for lang in languages_for(tmp_path, ["a.py"])]
    assert names == ["python", "mypy", "basedpyright"]  # each one judges


def test_the_override_names_them(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\n[tool.prewrite]\ntypecheck = ["pyright"]\n'
    )
    assert _names(tmp_path) == [("pyright", "pyproject.toml [tool.prewrite] typecheck")]
    assert [lang.name for lang in languages_for(tmp_path, ["a.py"])] == ["python"]


@pytest.mark.parametrize("value", ['["pytype"]', "[]", '"mypy"', "3"])
def test_a_bad_override_is_refused(tmp_path: Path, value: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.prewrite]\ntypecheck = {value}\n")
    with pytest.raises(BadRequest, match="typecheck"):
        choose(tmp_path)


def test_a_flag_override_leaves_the_choice_to_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n[tool.prewrite]\ntypecheck = true\n")
    assert [c.name for c in choose(tmp_path)] == ["mypy"]


def test_typescript_roots_keep_their_checker(tmp_path: Path) -> None:
    (tmp_path / "tsconfig.json").write_text("{}")
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    assert [lang.name for lang in languages_for(tmp_path, ["a.ts"])] == ["typescript"]
    assert [lang.name for lang in languages_for(tmp_path, ["a.ts", "b.py"])] == [
        "mypy",
        "typescript",
    ]


def test_mypy_settings_leave_other_tools_out(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='a'\n[tool.mypy]\nstrict = true\n")
    before = mypy_settings(disk_reader(tmp_path))
    (tmp_path / "pyproject.toml").write_text("[project]\nname='b'\n[tool.mypy]\nstrict = true\n")
    assert mypy_settings(disk_reader(tmp_path)) == before
    (tmp_path / "pyproject.toml").write_text("[project]\nname='b'\n[tool.mypy]\nstrict = false\n")
    assert mypy_settings(disk_reader(tmp_path)) != before


def test_targets_are_the_top_level_sources_or_the_configured_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.py").write_text("")
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "venv").symlink_to(tmp_path / "pkg")
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n")
    assert targets(tmp_path) == ["pkg", "setup.py"]
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["pkg"]\n')
    assert targets(tmp_path) == ["pkg"]


def test_configured_files_are_named_as_mypy_expands_them(tmp_path: Path) -> None:
    """Named, never left to mypy: dmypy's ``check`` request checks exactly the files it carries
    (pytest 8.3.4's ``files = ["src", "testing", "scripts"]`` was answered green whatever the
    patch, its request empty). Globs expand under the root; a missing entry stays (mypy says so)."""
    for name in ("src", "testing", "scripts"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["src", "testing", "scripts"]\n')
    assert targets(tmp_path) == ["src", "testing", "scripts"]
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nfiles = "src, t*/**/*.py,gone"\n')
    assert targets(tmp_path) == ["src", "testing/a.py", "gone"]
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "setup.cfg").write_text("[mypy]\nfiles = scripts,src,\n")
    assert targets(tmp_path) == ["scripts", "src"]
    (tmp_path / "setup.cfg").write_text("[mypy]\nfiles =\n")
    assert targets(tmp_path) == ["scripts", "src", "testing"]  # none named: the layout's


def test_mypy_report_lines(tmp_path: Path) -> None:
    report = "\n".join(
        [
            '{"file": "a.py", "line": 3, "column": 4, "end_line": 3, "end_column": 9, '
            '"message": "Bad", "hint": "See here\\nAnd there", "code": "arg-type", '
            '"severity": "error"}',
            '{"file": "' + str(tmp_path / "b.py") + '", "line": 1, "column": -1, '
            '"end_line": 1, "end_column": -1, "message": "Unused", "hint": null, '
            '"code": "unused-ignore", "severity": "error"}',
            '{"file": "a.py", "line": 5, "column": 0, "message": "Revealed", "hint": null, '
            '"code": null, "severity": "note"}',
            "Found 2 errors in 2 files (checked 2 source files)",
        ]
    )
    found = parse_report(report, tmp_path)
    first, note = found["a.py"]
    assert (first.line, first.column, first.end_column, first.rule) == (2, 4, 9, "arg-type")
    assert first.message == "Bad\nSee here\nAnd there"  # notes stay with their error
    assert note.severity == "information"
    (unused,) = found["b.py"]
    assert (unused.line, unused.column, unused.source) == (0, 0, "mypy")


def test_a_report_with_a_traceback_is_no_answer(tmp_path: Path) -> None:
    with pytest.raises(MypyOutputError):
        parse_report('Traceback (most recent call last):\n  File "x"\nAssertionError', tmp_path)


def test_installed_mypy_is_read_from_disk(tmp_path: Path) -> None:
    assert installed_version([tmp_path]) is None
    (tmp_path / "mypy-1.13.0.dist-info").mkdir()
    assert installed_version([tmp_path]) is None  # metadata without the package: not installed
    (tmp_path / "mypy").mkdir()
    (tmp_path / "mypy" / "__init__.py").write_text("")
    assert installed_version([tmp_path]) == "1.13.0"


def test_the_untrusted_shim_answers_without_the_workspace(tmp_path: Path) -> None:
    import ast
    import subprocess

    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    shim = untrusted_shim(tmp_path / "state", [site])
    out = subprocess.run([shim, "pyinfo.py", "getsearchdirs"], capture_output=True, check=True)
    assert ast.literal_eval(out.stdout.decode()) == ([], [str(site)])


def _fake_pyright(where: Path, version: str) -> Path:
    where.mkdir(parents=True)
    (where / "package.json").write_text(f'{{"name": "pyright", "version": "{version}"}}')
    (where / "index.js").write_text("")
    (where / "langserver.index.js").write_text("")
    return where


def test_the_workspace_pyright_judges_where_it_may_run(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    own = _fake_pyright(site / "pyright" / "dist", "1.1.390")
    theirs = pyright_origin(tmp_path, [site], may_run_own=True)
    assert (theirs.dist, theirs.label) == (own, "pyright 1.1.390 (the workspace's own)")
    assert langserver_argv(theirs.dist)[1] == str(own / "langserver.index.js")
    ours = pyright_origin(tmp_path, [site], may_run_own=False)  # untrusted: never run
    assert ours.dist is None
    assert ours.label == f"pyright {dist_version(pyright_dist())}"


def test_npm_pyright_at_the_root_counts_too(tmp_path: Path) -> None:
    own = _fake_pyright(tmp_path / "node_modules" / "pyright", "1.1.380")
    assert pyright_origin(tmp_path, [], may_run_own=True).dist == own


def test_a_pinned_version_is_named_when_another_judges(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[dependency-groups]\ndev = ["pyright==1.1.390"]\n')
    origin = pyright_origin(tmp_path, [], may_run_own=True)
    bundled = dist_version(pyright_dist())
    assert origin.label == f"pyright {bundled} (bundled; the repository pins 1.1.390)"


def test_ci_mypy_is_followed(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text("")
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n")
    assert ci_mypy(tmp_path) == CiMypy()
    assert targets(tmp_path) == ["src", "tests"]
    workflow = tmp_path / ".github" / "workflows" / "ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: mypy --strict --follow-imports=skip --python-version 3.10 src\n"
    )
    ci = ci_mypy(tmp_path)
    assert ci.targets == ("src",)
    assert ci.flags == ("--strict", "--python-version", "3.10")
    assert ci.not_followed == ("--follow-imports skip",)
    assert ci.where == ".github/workflows/ci.yml:6"
    assert targets(tmp_path, None, ci) == ["src"]  # CI's, not the layout's


def test_ci_targets_outside_the_root_are_not_followed(tmp_path: Path) -> None:
    workflow = tmp_path / ".github" / "workflows" / "ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: mypy --strict ../elsewhere\n"
    )
    ci = ci_mypy(tmp_path)
    assert (ci.targets, ci.flags) == ((), ("--strict",))  # its settings still count


def test_the_text_report_of_mypy_before_1_11_reads_as_the_json_one(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "a.py:3:5:3:9: error: Bad  [arg-type]",
            "a.py:3:5:3:9: note: See here",
            'b.py:1: error: Unused "type: ignore" comment  [unused-ignore]',
            'a.py:7:1:7:2: note: Revealed type is "int"',
        ]
    )
    found = parse_report(text, tmp_path)
    first, revealed = found["a.py"]
    assert (first.line, first.column, first.end_column, first.rule) == (2, 4, 9, "arg-type")
    assert first.message == "Bad\nSee here"  # the note stays with its error, as in JSON
    assert revealed.severity == "information"
    (unused,) = found["b.py"]
    assert (unused.line, unused.column, unused.rule) == (0, 0, "unused-ignore")
    old = MypyTool("python", "1.10.1", "the workspace's own")
    assert "--show-error-codes" in mypy_flags(old, "python")
    assert "--output" in mypy_flags(MypyTool("python", "1.11.0", "x"), "python")
