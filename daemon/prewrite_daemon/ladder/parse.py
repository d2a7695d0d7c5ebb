"""The parse rung: Python by ``ast``, TOML by ``tomllib``, JSON by ``json`` — on the candidate —
and every other format with a provable-only check (``formats/``: YAML, Markdown, CSS, the
JavaScript/TypeScript family) by its own.

Files their tools read as JSON with comments (``pyrightconfig.json``, ``tsconfig*.json``,
``jsconfig.json``, ``.vscode/*.json``, devcontainers) may carry ``//`` and ``/* */`` comments and
trailing commas, and nothing else beyond JSON: what jsonc-parser, which pyright and TypeScript
use, accepts.

Provable only, and comparative: a file that did not parse before the patch either is not held
against the patch (its failure, and the new one where it differs, is named in the receipt); a
file the patch broke ends the ladder before any formatter or checker sees it. In a TypeScript
workspace the JavaScript/TypeScript family is TypeScript's to judge, not the parse rung's.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import TYPE_CHECKING

from prewrite.protocol import Diagnostic
from prewrite_daemon.ladder.config import TS_EXTENSIONS
from prewrite_daemon.ladder.formats import check_for
from prewrite_daemon.languages.jsonc import strip_jsonc
from prewrite_daemon.languages.python.syntax.parse_child import syntax_error

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import FileEdit, PreparedPatch

_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
_JSONC_NAMES = frozenset({"pyrightconfig.json", "jsconfig.json", "devcontainer.json",
                          ".devcontainer.json"})  # fmt: skip
_TS_WORKSPACE_MARKERS = ("tsconfig.json", "jsconfig.json")  # as config.load_config decides


def is_jsonc(path: str) -> bool:
    """Whether the tool that reads ``path`` takes JSON with comments and trailing commas."""
    parts = path.lower().split("/")
    name = parts[-1]
    return name in _JSONC_NAMES or name.startswith("tsconfig") or ".vscode" in parts[:-1]


def _error(path: str, line: int, column: int, message: str, source: str) -> Diagnostic:
    return Diagnostic(path, line, column, line, column + 1, "error", "syntax", message, source)


def parse_error(path: str, text: str) -> Diagnostic | None:
    """The first syntax error of ``text`` as a diagnostic, or None when it parses."""
    lower = path.lower()
    if lower.endswith((".py", ".pyi")):
        found = syntax_error(text)  # a large text in a child: no parse stalls the daemon
        return None if found is None else _error(path, *found, "python")
    try:
        return _data_error(path, lower, text)
    except (RecursionError, MemoryError):
        return None  # nested deeper than the parser goes: no error claimed


def _data_error(path: str, lower: str, text: str) -> Diagnostic | None:
    if lower.endswith(".toml"):
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            found = _TOML_POSITION.search(str(exc))
            line, column = (int(found[1]), int(found[2])) if found else (1, 1)
            return _error(path, line, column, str(exc), "tomllib")
    elif lower.endswith(".json"):
        try:
            json.loads(strip_jsonc(text) if is_jsonc(path) else text)
        except json.JSONDecodeError as exc:
            return _error(path, exc.lineno, exc.colno, exc.msg, "json")
    else:
        check = check_for(path)
        return check(path, text) if check is not None else None
    return None


def parse_patch(patch: PreparedPatch) -> tuple[list[Diagnostic], list[str]]:
    """(errors the patch introduced, files already broken before it, each with what was wrong)."""
    introduced: list[Diagnostic] = []
    already_broken: list[str] = []
    typescript_judges = _typescript_workspace(patch.root)
    for edit in patch.edits:
        if edit.new_text is None:
            continue
        if typescript_judges and edit.path.lower().endswith(tuple(TS_EXTENSIONS)):
            continue
        error = parse_error(edit.path, edit.new_text)
        if error is None:
            continue
        before = parse_error(edit.path, edit.old_text) if edit.old_text is not None else None
        if before is not None:
            already_broken.append(_already_broken(edit, before, error))
            continue
        introduced.append(error)
    return introduced, already_broken


def _typescript_workspace(root: Path) -> bool:
    return any((root / name).is_file() for name in _TS_WORKSPACE_MARKERS)


def _already_broken(edit: FileEdit, before: Diagnostic, after: Diagnostic) -> str:
    """``path (what was wrong, at which line)``, and what is wrong after the patch if it differs."""
    note = f"{edit.path} ({_at_line(before)}"
    if (after.line, after.message) != (before.line, before.message):
        note += f"; after the patch: {_at_line(after)}"
    return note + ")"


def _at_line(found: Diagnostic) -> str:
    """The message, naming its line (the format checks' messages already do)."""
    if f"line {found.line}" in found.message:
        return found.message
    return f"line {found.line}: {found.message}"
