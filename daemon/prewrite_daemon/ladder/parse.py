"""The parse rung: Python by ``ast``, TOML by ``tomllib``, JSON by ``json`` — on the candidate.

Files their tools read as JSON with comments (``pyrightconfig.json``, ``tsconfig*.json``,
``jsconfig.json``, ``.vscode/*.json``, devcontainers) may carry ``//`` and ``/* */`` comments and
trailing commas, and nothing else beyond JSON: what jsonc-parser, which pyright and TypeScript
use, accepts.

Provable only, and comparative: a file that did not parse before the patch either is not held
against the patch (its failure is noted in the receipt); a file the patch broke ends the ladder
before any formatter or checker sees it.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
import warnings
from typing import TYPE_CHECKING

from prewrite.protocol import Diagnostic

if TYPE_CHECKING:
    from prewrite_daemon.patch import PreparedPatch

_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
_JSONC_NAMES = frozenset({"pyrightconfig.json", "jsconfig.json", "devcontainer.json",
                          ".devcontainer.json"})  # fmt: skip
_JSONC_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.DOTALL)


def is_jsonc(path: str) -> bool:
    """Whether the tool that reads ``path`` takes JSON with comments and trailing commas."""
    parts = path.lower().split("/")
    name = parts[-1]
    return name in _JSONC_NAMES or name.startswith("tsconfig") or ".vscode" in parts[:-1]


def strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas blanked out (same lines and columns)."""

    def blank(match: re.Match[str]) -> str:
        token = match.group(0)
        if token.startswith('"'):
            return token
        return re.sub(r"[^\n]", " ", token)

    return _JSONC_TOKENS.sub(blank, text)


def _error(path: str, line: int, column: int, message: str, source: str) -> Diagnostic:
    return Diagnostic(path, line, column, line, column + 1, "error", "syntax", message, source)


def parse_error(path: str, text: str) -> Diagnostic | None:
    """The first syntax error of ``text`` as a diagnostic, or None when it parses."""
    lower = path.lower()
    if lower.endswith((".py", ".pyi")):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. invalid escape sequences: not errors
                ast.parse(text, filename=path, type_comments=False)
        except SyntaxError as exc:
            return _error(path, exc.lineno or 1, exc.offset or 1, exc.msg, "python")
        except ValueError as exc:  # null bytes
            return _error(path, 1, 1, str(exc), "python")
    elif lower.endswith(".toml"):
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
    return None


def parse_patch(patch: PreparedPatch) -> tuple[list[Diagnostic], list[str]]:
    """(errors the patch introduced, files that did not parse before the patch either)."""
    introduced: list[Diagnostic] = []
    already_broken: list[str] = []
    for edit in patch.edits:
        if edit.new_text is None:
            continue
        error = parse_error(edit.path, edit.new_text)
        if error is None:
            continue
        if edit.old_text is not None and parse_error(edit.path, edit.old_text) is not None:
            already_broken.append(edit.path)
            continue
        introduced.append(error)
    return introduced, already_broken
