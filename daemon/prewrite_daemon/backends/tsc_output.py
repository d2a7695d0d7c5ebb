"""The cold TypeScript checker's report: ``tsc --noEmit --pretty false`` output, parsed.

tsc prints one diagnostic per header line, ``path(line,col): error TS2345: message``, followed by
the rest of a message chain on lines indented two spaces per level. Those lines are kept verbatim,
joined by ``\\n``: that is exactly how tsserver (TS 5) and ``tsc --lsp`` (TS 7) flatten the chain
into an LSP message, so the cold and the warm checker report equal texts. TS 5.9 and 7.0 print the
same format (checked on captured output of both). Only the start of a range is printed, so the end
is set to the start; the diagnostics diff (``diagnostics.introduced``) never compares ends.

Paths are relative to tsc's working directory, taken to be ``tree``, or absolute. Diagnostics of
files outside ``tree`` or under a ``node_modules`` folder (libraries) are dropped; diagnostics
without a file (``error TS5023: Unknown compiler option '--foo'.``) are kept under the key ``""``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from prewrite_daemon.backends.base import RawDiagnostic

__all__ = ["GLOBAL_KEY", "TSC_SOURCE", "parse_tsc_output"]

GLOBAL_KEY = ""
TSC_SOURCE = "ts"  # what tsserver and tsc --lsp put in an LSP Diagnostic's source

_BODY = r"(?P<category>error|warning|message|suggestion) TS(?P<code>\d+): (?P<message>.*)"
_FILE_HEADER = re.compile(r"^(?P<path>.+?)\((?P<line>\d+),(?P<column>\d+)\): " + _BODY + "$")
_GLOBAL_HEADER = re.compile("^" + _BODY + "$")
# tsc's category words -> prewrite's severities; "suggestion" is a hint, which the wire drops.
_SEVERITIES = {
    "error": "error",
    "warning": "warning",
    "message": "information",
    "suggestion": "hint",
}


@dataclass
class _Pending:
    """A header line read, its continuation lines still coming; ``key`` None: dropped."""

    key: str | None
    line: int
    column: int
    category: str
    code: str
    lines: list[str] = field(default_factory=list[str])

    def finish(self) -> RawDiagnostic:
        return RawDiagnostic(
            line=self.line,
            column=self.column,
            end_line=self.line,
            end_column=self.column,
            severity=_SEVERITIES[self.category],
            rule=f"TS{self.code}",
            message="\n".join(self.lines),
            source=TSC_SOURCE,
        )


def parse_tsc_output(text: str, tree: Path) -> dict[str, list[RawDiagnostic]]:
    """Diagnostics by root-relative POSIX path (``""`` for global ones), 0-based positions."""
    spellings = _tree_spellings(tree)
    found: dict[str, list[RawDiagnostic]] = {}
    pending: _Pending | None = None
    for line in text.splitlines():
        if pending is not None and line.startswith(" "):
            pending.lines.append(line)
            continue
        _flush(pending, found)
        pending = _header(line, spellings)
    _flush(pending, found)
    return found


def _header(line: str, spellings: tuple[str, ...]) -> _Pending | None:
    """The diagnostic a header line starts, or None for anything else ("Found 3 errors.")."""
    if match := _FILE_HEADER.match(line):
        return _Pending(
            key=_relative_key(match["path"], spellings),
            line=int(match["line"]) - 1,
            column=int(match["column"]) - 1,
            category=match["category"],
            code=match["code"],
            lines=[match["message"]],
        )
    if match := _GLOBAL_HEADER.match(line):
        return _Pending(GLOBAL_KEY, 0, 0, match["category"], match["code"], [match["message"]])
    return None


def _flush(pending: _Pending | None, found: dict[str, list[RawDiagnostic]]) -> None:
    if pending is not None and pending.key is not None:
        found.setdefault(pending.key, []).append(pending.finish())


def _tree_spellings(tree: Path) -> tuple[str, ...]:
    """The tree as written and with symlinks resolved: tsc may print either for absolute paths."""
    written = os.path.normpath(os.path.abspath(tree))
    return tuple(dict.fromkeys((written, os.path.realpath(tree))))


def _relative_key(printed: str, spellings: tuple[str, ...]) -> str | None:
    """The root-relative POSIX path of a printed path, or None for a file outside the tree."""
    for spelling in spellings:
        full = os.path.normpath(os.path.join(spelling, printed))
        if full == spelling or not full.startswith(spelling + os.sep):
            continue
        rel = PurePosixPath(Path(full).relative_to(spelling).as_posix())
        return None if "node_modules" in rel.parts else rel.as_posix()
    return None
