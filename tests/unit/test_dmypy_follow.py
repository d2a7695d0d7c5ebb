"""dmypy refuses ``follow_imports = silent``: it follows ``normal`` and reports the targets' files
only (``languages.python.mypy.dmypy_only_flags``, ``backends.dmypy.only_under``)."""

from __future__ import annotations

from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.backends.dmypy import only_under
from prewrite_daemon.languages.python.mypy import dmypy_only_flags

NORMAL = ("--follow-imports", "normal")
D = RawDiagnostic(0, 0, 0, 1, "error", "misc", "m", "mypy")


def _reader(files: dict[str, str]):  # a Reader
    return files.get


def test_silent_in_the_configuration_or_on_cis_command_line_follows_normal() -> None:
    silent_toml = {"pyproject.toml": '[tool.mypy]\nfollow_imports = "silent"\n'}
    assert dmypy_only_flags(_reader(silent_toml)) == NORMAL
    assert dmypy_only_flags(_reader({"mypy.ini": "[mypy]\nfollow_imports = silent\n"})) == NORMAL
    assert dmypy_only_flags(_reader({}), ("--follow-imports=silent",)) == NORMAL
    assert dmypy_only_flags(_reader({}), ("--follow-imports", "silent", "--strict")) == NORMAL
    # CI's command line comes after the configuration, so it has the last word
    assert dmypy_only_flags(_reader(silent_toml), ("--follow-imports=normal",)) == ()
    assert dmypy_only_flags(_reader({"pyproject.toml": "[tool.mypy]\nstrict = true\n"})) == ()


def test_only_the_targets_files_are_kept() -> None:
    report = {"src/pkg/a.py": [D], "src/pkgx.py": [D], "other/b.py": [D], "top.py": [D]}
    assert set(only_under(report, ["src/pkg", "top.py"])) == {"src/pkg/a.py", "top.py"}
    assert set(only_under(report, ["./src/pkg/"])) == {"src/pkg/a.py"}
    # anything that is not a plain relative path keeps everything (more reported, never less)
    assert only_under(report, ["-p", "pkg"]) == report
    assert only_under(report, ["."]) == report
    assert only_under(report, ["/abs/src"]) == report
