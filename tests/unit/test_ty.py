"""ty as a checker: its choice, its binary and label, its command line and report, the shadow's
limits it is refused under, and the CLI run on a laid tree (``backends.cli_whole``)."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.cli_report import ReportError
from prewrite_daemon.backends.cli_tool import (
    BUNDLED,
    OWN,
    CliTool,
    ToolPython,
    bundled_binary,
    bundled_version,
    find_tool,
)
from prewrite_daemon.backends.cli_whole import CliWholeProgram
from prewrite_daemon.backends.ty_output import check_argv, parse_report
from prewrite_daemon.languages.checkers import choose
from prewrite_daemon.languages.python.checker_specs import TY_SPEC
from prewrite_daemon.languages.python.cli_checker import TY, unmirrored_sources
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.languages.registry import language_named, languages_for

if TYPE_CHECKING:
    from pathlib import Path


def _names(root: Path) -> list[tuple[str, str]]:
    return [(c.name, c.chosen_by) for c in choose(root)]


def test_ty_judges_where_it_is_configured(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ty.rules]\npossibly-unresolved-reference = 'error'\n"
    )
    assert _names(tmp_path) == [("ty", "pyproject.toml [tool.ty]")]
    (tmp_path / "ty.toml").write_text("")
    assert _names(tmp_path) == [("ty", "ty.toml")]  # ty's own file comes first, as ty reads it
    assert [lang.name for lang in languages_for(tmp_path, ["a.py"])] == ["ty"]
    assert language_named("ty") is TY


def test_ty_judges_beside_the_others(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n[tool.ty]\n")
    assert [c.name for c in choose(tmp_path)] == ["mypy", "ty"]
    text = '[tool.pyright]\n[tool.prewrite]\ntypecheck = ["ty", "pyright"]\n'
    (tmp_path / "pyproject.toml").write_text(text)
    assert [c.name for c in choose(tmp_path)] == ["ty", "pyright"]


def test_settings_are_ty_s_own_with_the_python_version(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nrequires-python = ">=3.9"\n[tool.ty]\n[tool.ruff]\nx = 1\n')
    before = TY_SPEC.settings(disk_reader(tmp_path))
    assert before[0] == "pyproject.toml"
    pyproject.write_text('[project]\nrequires-python = ">=3.9"\n[tool.ty]\n[tool.ruff]\nx = 2\n')
    assert TY_SPEC.settings(disk_reader(tmp_path)) == before  # another tool's table: no change
    pyproject.write_text('[project]\nrequires-python = ">=3.12"\n[tool.ty]\n')
    assert TY_SPEC.settings(disk_reader(tmp_path)) != before  # ty's Python version moved
    (tmp_path / "ty.toml").write_text("[rules]\n")
    assert TY_SPEC.settings(disk_reader(tmp_path))[0] == "ty.toml"
    assert TY.is_checker_config("ty.toml")
    assert TY.is_mirrored("ty.toml")


def test_the_bundled_binary_and_its_label(tmp_path: Path) -> None:
    tool = find_tool("ty", [tmp_path], None)
    assert (tool.binary, tool.origin) == (str(bundled_binary("ty")), BUNDLED)
    assert tool.label == f"ty {bundled_version('ty')} (bundled)"
    (tmp_path / "ty-0.0.1.dist-info").mkdir()
    assert find_tool("ty", [tmp_path], None).label.endswith("(bundled; the workspace has 0.0.1)")


def test_the_workspace_binary_only_where_it_may_run(tmp_path: Path) -> None:
    site, bin_dir = tmp_path / "site-packages", tmp_path / "bin"
    (site / "ty-0.0.90.dist-info").mkdir(parents=True)
    bin_dir.mkdir()
    (bin_dir / "ty").write_text("#!/bin/sh\n")
    (bin_dir / "ty").chmod(0o755)
    python = str(bin_dir / "python")
    own = find_tool("ty", [site], python)  # trusted: its interpreter given
    assert own == CliTool("ty", str(bin_dir / "ty"), "0.0.90", OWN)
    assert own.label == "ty 0.0.90 (the workspace's own)"
    assert find_tool("ty", [site], None).origin == BUNDLED  # untrusted: never its binary


def test_the_command_line(tmp_path: Path) -> None:
    argv = check_argv("/bin/ty", ToolPython("/venv/bin/python", may_run=False), {}, tmp_path)
    assert argv[:2] == ["/bin/ty", "check"]
    assert argv[argv.index("--output-format") + 1] == "gitlab"
    assert argv[argv.index("--python") + 1] == "/venv/bin/python"


def _item(path: str, rule: str, severity: str, message: str) -> dict[str, object]:
    where = {"begin": {"line": 3, "column": 5}, "end": {"line": 3, "column": 9}}
    return {"check_name": rule, "description": f"{rule}: {message}", "severity": severity,
            "fingerprint": "0", "location": {"path": path, "positions": where}}  # fmt: skip


def test_the_report_is_read_into_our_records(tmp_path: Path) -> None:
    report = json.dumps([
        _item("pkg/a.py", "invalid-assignment", "major", "Object of type `str`: not `int`"),
        _item(str(tmp_path / "pkg/b.py"), "deprecated", "minor", "old"),
        _item("c.py", "x", "something-new", "y"),
    ])  # fmt: skip
    found = parse_report(report, tmp_path)
    a = found["pkg/a.py"][0]
    assert (a.line, a.column, a.end_line, a.end_column) == (2, 4, 2, 8)  # 0-based, as LSP
    assert (a.severity, a.rule, a.message) == (
        "error",
        "invalid-assignment",
        "Object of type `str`: not `int`",
    )
    assert found["pkg/b.py"][0].severity == "warning"
    assert found["c.py"][0].severity == "error"  # an unknown severity can only make red
    assert parse_report("[]", tmp_path) == {}


@pytest.mark.parametrize("text", ["", "warning: x\n[]", '{"a": 1}', '[{"check_name": "x"}]'])
def test_an_unreadable_report_is_no_answer(tmp_path: Path, text: str) -> None:
    with pytest.raises(ReportError):
        parse_report(text, tmp_path)


def test_sources_the_shadow_leaves_out_refuse_ty(tmp_path: Path) -> None:
    for name in (".venv", ".git", "node_modules", "pkg"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text("")
    assert unmirrored_sources(tmp_path, TY_SPEC.excludes) == []  # ty skips those, or mirrored
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "gen.py").write_text("")
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "ci.py").write_text("")
    assert unmirrored_sources(tmp_path, TY_SPEC.excludes) == [".github", "pkg/__pycache__"]


class _Tree:
    """A LaidTree over a directory: ``restore`` puts the original text back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.original = {p.name: p.read_text() for p in root.iterdir()}

    def shadow_path(self, rel: str) -> str:
        return str(self.root / rel)

    def read_text(self, rel: str) -> str | None:
        path = self.root / rel
        return path.read_text() if path.is_file() else None

    def write(self, rel: str, text: str) -> None:
        (self.root / rel).write_text(text)

    def remove(self, rel: str) -> None:
        (self.root / rel).unlink()

    def restore(self, rel: str) -> None:
        if rel in self.original:
            (self.root / rel).write_text(self.original[rel])
        else:
            (self.root / rel).unlink(missing_ok=True)


def _cat_report(text: str, tree: Path) -> dict[str, list[object]]:
    del tree
    return {"seen": [text]}  # the CLI's output, as it read the laid tree


def test_the_cli_runs_on_the_laid_tree_and_the_tree_is_put_back(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("base\n")
    tree = _Tree(tmp_path)
    argv = [sys.executable, "-c", "import pathlib; print(pathlib.Path('a.py').read_text(), end='')"]
    backend = CliWholeProgram("fake", tmp_path, argv, _cat_report)  # type: ignore[arg-type]

    async def run() -> None:
        with pytest.raises(BackendFailed):  # not started
            await backend.check_tree(tree, {}, 10.0)
        await backend.start()
        assert await backend.check_tree(tree, {"a.py": "patched\n", "new.py": "x"}, 10.0) == {
            "seen": ["patched\n"]
        }
        assert (tmp_path / "a.py").read_text() == "base\n"
        assert not (tmp_path / "new.py").exists()

    asyncio.run(run())


def test_a_failed_run_is_a_failure_not_an_answer(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("base\n")
    argv = [sys.executable, "-c", "raise SystemExit(2)"]
    backend = CliWholeProgram("fake", tmp_path, argv, parse_report)

    async def run() -> None:
        await backend.start()
        with pytest.raises(BackendFailed, match="exited 2"):
            await backend.check_tree(_Tree(tmp_path), {"a.py": "x"}, 10.0)
        assert (tmp_path / "a.py").read_text() == "base\n"

    asyncio.run(run())


def test_the_doctor_names_ty_as_a_check_runs_it(tmp_path: Path) -> None:
    from prewrite_daemon.doctor.ladder_tools import rung_tools
    from prewrite_daemon.doctor.setup_state import Place

    (tmp_path / "ty.toml").write_text("")
    problems: list[str] = []
    place = Place(tmp_path, trusted=False, python=sys.executable, run_python=None)
    [tool] = [t for t in rung_tools(place, problems) if t.rung == "typecheck"]
    assert (tool.tool, tool.origin, tool.config, tool.chosen_by) == (
        "ty",
        BUNDLED,
        "ty.toml",
        "ty.toml",
    )
    assert tool.command[:2] == [str(bundled_binary("ty")), "check"]
    assert problems == []
