"""The parse rung: syntax errors with positions, and only the ones the patch introduced."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.parse import parse_error, parse_patch

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic


def _error(path: str, text: str) -> Diagnostic:
    found = parse_error(path, text)
    assert found is not None
    return found


def test_python_syntax_error_with_line_and_column() -> None:
    found = _error("pkg/m.py", "x = 1\ny = (\n")
    assert (found.path, found.line, found.column) == ("pkg/m.py", 2, 5)
    assert (found.end_line, found.end_column) == (2, 6)
    assert "never closed" in found.message
    assert (found.severity, found.rule, found.source) == ("error", "syntax", "python")


def test_python_invalid_syntax_column() -> None:
    found = _error("m.py", "def f():\n    return 1\ndef g(:\n    pass\n")
    assert (found.line, found.column) == (3, 7)


def test_null_byte() -> None:
    found = _error("m.py", "x = 1\x00\n")
    assert found.line == 1
    assert "null" in found.message
    assert found.source == "python"


def test_python_warnings_are_not_errors() -> None:
    # An invalid escape sequence is a SyntaxWarning (an error under filterwarnings=error).
    assert parse_error("m.py", 'x = "\\d"\n') is None


@pytest.mark.parametrize("path", ["stubs/m.pyi", "M.PY", "pkg/UPPER.Pyi"])
def test_stubs_and_upper_case_suffixes_are_parsed(path: str) -> None:
    assert _error(path, "def f(:\n").source == "python"
    assert parse_error(path, "def f() -> int: ...\n") is None


def test_toml_error_with_line_and_column_from_the_message() -> None:
    found = _error("pyproject.toml", "[tool.x]\na = 1\nb = \n")
    assert (found.line, found.column) == (3, 5)
    assert found.source == "tomllib"
    assert "at line 3, column 5" in found.message


def test_toml_duplicate_key() -> None:
    found = _error("conf.toml", "a = 1\na = 2\n")
    assert found.line == 2
    assert found.source == "tomllib"


def test_json_error_with_line_and_column() -> None:
    found = _error("data/x.json", '{\n  "a": 1,\n}\n')
    assert (found.line, found.column) == (3, 1)
    assert found.source == "json"
    assert "property name" in found.message


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("m.py", "x: int = 1\n"),
        ("m.pyi", "x: int\n"),
        ("pyproject.toml", '[project]\nname = "x"\n'),
        ("x.json", '{"a": [1, 2]}'),
        ("README.md", "def f(:\n{ not json"),
        ("Makefile", "{{{"),
    ],
)
def test_valid_or_unparsed_files(path: str, text: str) -> None:
    assert parse_error(path, text) is None


def _patch(*edits: FileEdit) -> PreparedPatch:
    return PreparedPatch(Path("/ws"), edits)


def test_parse_patch_reports_only_what_the_patch_broke() -> None:
    broke = FileEdit("a.py", "x = 1\n", "x = (\n")
    fine = FileEdit("b.py", "y = 1\n", "y = 2\n")
    was_broken = FileEdit("c.py", "z = (\n", "z = ((\n")
    new_broken = FileEdit("d.json", None, "{")
    deleted = FileEdit("e.py", "w = (\n", None)
    introduced, already = parse_patch(_patch(broke, fine, was_broken, new_broken, deleted))
    assert [(d.path, d.line) for d in introduced] == [("a.py", 1), ("d.json", 1)]
    assert already == ["c.py (line 1: '(' was never closed)"]  # what was wrong, named


def test_parse_patch_of_a_clean_patch() -> None:
    assert parse_patch(_patch(FileEdit("a.py", "x = 1\n", "x = 2\n"))) == ([], [])


def test_parse_patch_skips_deletions_of_broken_files() -> None:
    assert parse_patch(_patch(FileEdit("a.py", "x = (\n", None))) == ([], [])


JSONC = '{\n  // the checker\'s settings\n  "strict": ["src"], /* all */\n  "x": "//kept",\n}\n'


@pytest.mark.parametrize("path", ["pyrightconfig.json", "tsconfig.app.json", ".vscode/x.json"])
def test_json_with_comments_where_its_tool_takes_them(path: str) -> None:
    assert parse_error(path, JSONC) is None


def test_plain_json_takes_no_comments_and_jsonc_nothing_beyond_them() -> None:
    assert _error("data.json", JSONC).line == 2
    found = _error("pyrightconfig.json", "{\n  // fine\n  'single': 1\n}\n")
    assert (found.line, found.column) == (3, 3)  # positions survive the blanking


@pytest.mark.parametrize(
    "text",
    [
        "type Num = int\n",  # 3.12, PEP 695
        "class Box[T: int = str]:\n    def get[U](self, u: U) -> T: ...\n",  # 3.12/3.13
        'd = {"a": 1}\nx = f"{d["a"]}"\n',  # 3.12, PEP 701
        "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n",  # 3.14, PEP 758
        'name = "x"\ng = t"hi {name}"\n',  # 3.14, PEP 750
    ],
    ids=["type-alias", "type-params", "fstring-quotes", "except-no-parens", "t-string"],
)
def test_syntax_newer_than_the_daemon_is_never_refused(text: str) -> None:
    assert parse_error("m.py", text) is None


@pytest.mark.parametrize("text", ["x = (\n", "1 = x\n", "type = = 1\n", "def f(:\n"])
def test_what_no_python_accepts_is_still_refused(text: str) -> None:
    assert parse_error("m.py", text) is not None
