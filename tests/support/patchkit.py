"""The patch generator's building blocks: the patch record, the context, and edit builders."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from prewrite.changes import change_file
from tests.support.sourceindex import (
    Edit,
    Function,
    SourceFile,
    SourceIndex,
    apply_edits,
    compiles,
    insert_at,
)

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import FileChange

T = TypeVar("T")


@dataclass(frozen=True)
class GeneratedPatch:
    name: str
    kind: str
    changes: tuple[FileChange, ...]

    @property
    def paths(self) -> list[str]:
        return [c.path for c in self.changes]


@dataclass(frozen=True)
class Context:
    root: Path
    index: SourceIndex
    error_files: tuple[str, ...]

    def edited(self, path: str, edits: Sequence[Edit]) -> FileChange | None:
        """The change applying ``edits`` to ``path``, or None when the result does not compile."""
        text = apply_edits(self.index.files[path].text, edits)
        return change_file(self.root, path, text) if compiles(text, path) else None


Maker = Callable[[Context, random.Random], Iterator[GeneratedPatch]]


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    out = list(items)
    rng.shuffle(out)
    return out


def make_patch(
    kind: str, detail: str, changes: Sequence[FileChange | None]
) -> GeneratedPatch | None:
    if not changes or any(c is None for c in changes):
        return None
    return GeneratedPatch(f"{kind}[{detail}]", kind, tuple(c for c in changes if c is not None))


def body_insert(ctx: Context, fn: Function, code: str) -> Edit | None:
    """Insert a statement before the first non-docstring statement of ``fn``'s body."""
    body = fn.node.body
    is_doc = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    stmt = body[1] if is_doc and len(body) > 1 else body[0]
    if stmt.lineno <= fn.node.lineno or (is_doc and len(body) == 1):
        return None
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))])
    line = ctx.index.files[fn.path].line(stmt.lineno)
    indent = line[: len(line) - len(line.lstrip())]
    return insert_at(first, 0, f"{indent}{code}\n")


def def_paren(file: SourceFile, fn: Function) -> tuple[int, int]:
    """(line, byte column) just after the ``(`` opening ``fn``'s parameters."""
    line = file.line(fn.node.lineno)
    at = line.index(f"{fn.name}(", fn.node.col_offset) + len(fn.name) + 1
    return fn.node.lineno, len(line[:at].encode("utf-8"))


def after_imports(file: SourceFile) -> int | None:
    """The line after the last module-level import, or None for a module without imports."""
    ends = [
        s.end_lineno or s.lineno
        for s in file.tree.body
        if isinstance(s, ast.Import | ast.ImportFrom)
    ]
    return max(ends) + 1 if ends else None


def end_of_file(file: SourceFile, code: str) -> Edit:
    lines = file.text.splitlines()
    sep = "" if file.text.endswith("\n") else "\n"
    return insert_at(len(lines) + 1, 0, f"{sep}\n{code}\n")


def top_level(ctx: Context) -> list[Function]:
    return [fn for fn in ctx.index.functions if not fn.is_method]
