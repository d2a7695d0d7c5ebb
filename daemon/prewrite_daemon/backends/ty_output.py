"""ty's command line and its report: ``ty check --output-format gitlab`` read into our records.

ty's machine-readable report is GitLab's Code Quality JSON (ty 0.0.104: ``full``, ``concise``,
``gitlab``, ``github``, ``junit``, ``sarif``): one object per diagnostic with its rule
(``check_name``), ``"<rule>: <message>"`` (``description``), a severity in GitLab's words and
1-based positions. Its exit codes: 0 no error, 1 errors reported (warnings alone exit 0), 2 a
failure (an invalid configuration, an unusable ``--python``), 101 a crash: only 0 and 1 answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.backends.cli_report import ReportError, by_path, load_report, relative_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from prewrite_daemon.backends.cli_tool import ToolPython

SOURCE = "ty"
# GitLab's words for ty's severities (``info``, ``warning``, ``error``, ``fatal``); a word not
# listed counts as an error, so an unknown severity can make a patch red, never green.
_SEVERITIES = {"info": "information", "minor": "warning", "major": "error", "critical": "error",
               "blocker": "error"}  # fmt: skip


def check_argv(binary: str, py: ToolPython, config: Mapping[str, Any], tree: Path) -> list[str]:
    """One cold ``ty check`` of the project in the working directory, the interpreter (read,
    never run by ty, trusted or not) naming its packages; ty reads its settings itself."""
    del config, tree
    return [binary, "check", "--output-format", "gitlab", "--no-progress", "--color", "never",
            "--python", py.python]  # fmt: skip


def parse_report(text: str, tree: Path) -> dict[str, list[RawDiagnostic]]:
    """Diagnostics per root-relative path (``tree``-relative; paths outside it stay as ty
    printed them). Anything but a JSON list of diagnostics raises ``ReportError``."""
    items = load_report(text)
    if not isinstance(items, list):
        raise ReportError(f"not a list of diagnostics: {text[:500]}")
    return by_path(cast("list[Any]", items), _diagnostic, tree)


def _diagnostic(item: dict[str, Any], tree: Path) -> tuple[str, RawDiagnostic]:
    try:
        rule = str(item["check_name"])
        message = str(item["description"]).removeprefix(f"{rule}: ")
        location = cast("dict[str, Any]", item.get("location") or {})
        positions = cast("dict[str, Any]", location.get("positions") or {})
        begin = cast("dict[str, int]", positions.get("begin") or {"line": 1, "column": 1})
        end = cast("dict[str, int]", positions.get("end") or begin)
        path = str(location.get("path", ""))
        severity = _SEVERITIES.get(str(item.get("severity")), "error")
        return relative_path(path, tree), RawDiagnostic(
            int(begin["line"]) - 1, int(begin["column"]) - 1,
            int(end["line"]) - 1, int(end["column"]) - 1,
            severity, rule, message, SOURCE,
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"not a diagnostic: {item!r:.500}") from exc
