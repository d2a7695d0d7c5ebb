"""The TypeScript patch generator's edits (``ts_patchgen.py``): the ``Context`` the kinds work in
and the conservative changes they are made of (whole lines, or a header's parameter list).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.changes import change_file
from tests.support.patchkit import GeneratedPatch

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.protocol import FileChange
    from tests.support.ts_index import Header, TsFile, TsIndex


_IMPORT_END = re.compile(
    r"""^import\b(?:[^;'"]*?\bfrom)?\s*['"][^'"]+['"];?[ \t]*$""", re.MULTILINE
)


# --- edits ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    root: Path
    index: TsIndex
    errors: tuple[tuple[str, int], ...]  # (path, 1-based line) of the base's errors

    def edited(self, path: str, lines: Sequence[str]) -> FileChange:
        file = self.index.files[path]
        return change_file(self.root, path, file.newline.join(lines) + file.newline)


def with_lines(file: TsFile, at: int, added: Sequence[str]) -> list[str]:
    return [*file.lines[:at], *added, *file.lines[at:]]


def body_insert(ctx: Context, fn: Header, statement: str) -> FileChange:
    file = ctx.index.files[fn.path]
    following = next((s for s in file.lines[fn.line + 1 :] if s.strip()), "}")
    indent = following[: len(following) - len(following.lstrip())] or "  "
    return ctx.edited(fn.path, with_lines(file, fn.line + 1, [indent + statement]))


def with_header(ctx: Context, fn: Header, params: str | None, returns: str | None) -> FileChange:
    file = ctx.index.files[fn.path]
    line = file.lines[fn.line]
    head = line[: fn.params[0]] + (
        params if params is not None else line[fn.params[0] : fn.params[1]]
    )
    tail = ")" + (f": {returns}" if returns is not None else "") + " {"
    lines = list(file.lines)
    lines[fn.line] = head + tail
    return ctx.edited(fn.path, lines)


def after_imports(file: TsFile) -> int:
    ends = [m.end() for m in _IMPORT_END.finditer(file.text)]
    return file.text.count(file.newline, 0, max(ends)) + 1 if ends else 0


def import_suffix(file: TsFile) -> str:
    """ ".js" when the file writes its relative imports with extensions (NodeNext style)."""
    return ".js" if re.search(r"""from\s*['"]\.{1,2}/[^'"]+\.js['"]""", file.text) else ""


def generated(kind: str, detail: str, changes: Sequence[FileChange]) -> GeneratedPatch:
    return GeneratedPatch(f"{kind}[{detail}]", kind, tuple(changes))


Maker = Callable[[Context, random.Random], Iterator[GeneratedPatch]]
