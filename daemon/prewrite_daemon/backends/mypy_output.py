"""mypy's ``--output json`` report (one JSON object per line) as prewrite's diagnostics.

The warm daemon (dmypy) and the cold CLI print the same lines; both are read here, so the warm
verdict and the oracle cannot differ in how they read mypy. A note mypy attaches to an error
(``hint``) stays with its error, in its message, as mypy prints it under the error; a note that
stands alone (``reveal_type``) is information. Positions become 0-based, as LSP's are.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

from prewrite_daemon.backends.base import RawDiagnostic

SOURCE = "mypy"
_SEVERITIES = {"error": "error", "warning": "warning", "note": "information"}
# mypy's closing line and dmypy's own chatter: known lines that carry no diagnostic.
_CHATTER = ("Success: ", "Found ", "Daemon started", "Daemon stopped", "Restarting: ")


class MypyOutputError(ValueError):
    """A line of mypy's report is neither a diagnostic nor known chatter (a crash, a traceback)."""


def parse_report(text: str, tree: Path) -> dict[str, list[RawDiagnostic]]:
    """Diagnostics per root-relative path (``tree``-relative; absolute paths outside it stay),
    from JSON lines (mypy 1.11+) or the text report of older versions (``_TEXT``).

    Any line that is not a diagnostic nor known chatter raises ``MypyOutputError``: an answer
    that cannot be read whole is no answer (a crash prints a traceback and some errors)."""
    items: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith(_CHATTER):
            continue
        item = _json_item(line) if line.startswith("{") else _text_item(line, items)
        if item is None:
            raise MypyOutputError(f"not a mypy diagnostic: {line[:500]}")
        if item is not _ATTACHED:
            items.append(item)
    found: dict[str, list[RawDiagnostic]] = {}
    for item in items:
        rel = _relative(str(item["file"]), tree)
        found.setdefault(rel, []).append(_diagnostic(item))
    return found


_ATTACHED: dict[str, Any] = {}  # a note joined to the error before it
_TEXT = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+)(?::(?P<column>\d+))?(?::(?P<end_line>\d+):(?P<end_column>\d+))?"
    r": (?P<severity>error|warning|note): (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


def _json_item(line: str) -> dict[str, Any] | None:
    try:
        item = json.loads(line)
    except json.JSONDecodeError:
        return None
    return cast("dict[str, Any]", item) if isinstance(item, dict) and "file" in item else None


def _text_item(line: str, items: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One line of the text report as the JSON report has it: 1-based columns become 0-based;
    a note at the line of the error before it is that error's hint (as JSON attaches it)."""
    found = _TEXT.match(line)
    if found is None:
        return None
    g = found.groupdict()
    item: dict[str, Any] = {
        "file": g["file"], "line": int(g["line"]), "column": int(g["column"] or 0) - 1,
        "end_line": int(g["end_line"] or g["line"]),
        "end_column": int(g["end_column"] or g["column"] or -1), "message": g["message"],
        "hint": None, "code": g["code"], "severity": g["severity"],
    }  # fmt: skip
    last = items[-1] if items else None
    if (
        g["severity"] == "note"
        and last
        and last["severity"] != "note"
        and ((last["file"], last["line"]) == (item["file"], item["line"]))
    ):
        last["hint"] = f"{last['hint']}\n{g['message']}" if last["hint"] else g["message"]
        return _ATTACHED
    return item


def _relative(file: str, tree: Path) -> str:
    path = Path(file)
    if not path.is_absolute():
        return path.as_posix()
    return path.relative_to(tree).as_posix() if path.is_relative_to(tree) else path.as_posix()


def _int(item: dict[str, Any], key: str, default: int) -> int:
    value = item.get(key)
    return value if isinstance(value, int) else default


def _diagnostic(item: dict[str, Any]) -> RawDiagnostic:
    line = max(_int(item, "line", 1), 1) - 1
    column = _int(item, "column", -1)
    end_line = _int(item, "end_line", line + 1) - 1
    end_column = _int(item, "end_column", -1)
    if column < 0:  # mypy knows no column (an unused ignore): the line's start
        column, end_line, end_column = 0, line, 0
    message = str(item.get("message", ""))
    hint = item.get("hint")
    if hint:
        message = f"{message}\n{hint}"
    return RawDiagnostic(
        line=line,
        column=column,
        end_line=max(end_line, line),
        end_column=max(end_column, 0),
        severity=_SEVERITIES.get(str(item.get("severity")), "error"),
        rule=str(item.get("code") or ""),
        message=message,
        source=SOURCE,
    )
