"""The TypeScript patch generator's index of a tree (``ts_patchgen.py``), with regexes in place of a
parser: its files, the exported functions whose whole header sits on one line (``export function
f<T>(a: A): R {``) with their parameter lists, exported interfaces, and who uses a name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


_FUNCTION = re.compile(
    r"^(?P<indent>\s*)export (?:async )?function\*? ?(?P<name>\w+)\s*(?P<rest>.*)$"
)
_INTERFACE = re.compile(r"^export interface (?P<name>\w+)\b[^{]*\{\s*$")
SPECIFIER = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*['"](?P<spec>\.{1,2}/[^'"]+)['"]""")


@dataclass(frozen=True)
class TsFile:
    path: str
    lines: tuple[str, ...]  # without line ends
    newline: str

    @classmethod
    def parse(cls, path: str, data: bytes) -> TsFile:
        text = data.decode("utf-8")
        newline = "\r\n" if "\r\n" in text else "\n"
        lines = text.split(newline)
        if text.endswith(newline):
            lines.pop()
        return cls(path, tuple(lines), newline)

    @property
    def text(self) -> str:
        return self.newline.join(self.lines) + self.newline


@dataclass(frozen=True)
class Header:
    """An exported function whose header is one line ending in ``{``."""

    path: str
    line: int  # 0-based
    name: str
    params: tuple[int, int]  # the span inside the parentheses, in the line
    returns: str | None  # the declared return type, if any

    def param_list(self, file: TsFile) -> list[str]:
        return _split_top(file.lines[self.line][self.params[0] : self.params[1]])


class TsIndex:
    """The tree's ``.ts`` sources (no declarations, nothing under ``node_modules``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, TsFile] = {}
        for file in sorted(root.rglob("*.ts")):
            rel = file.relative_to(root)
            if file.name.endswith(".d.ts") or any(
                p == "node_modules" or p.startswith(".") for p in rel.parts
            ):
                continue
            self.files[rel.as_posix()] = TsFile.parse(rel.as_posix(), file.read_bytes())
        self.imports = {p: self._imports(f) for p, f in self.files.items()}
        declared = [h for f in self.files.values() for h in _headers(f)]
        names = [h.name for h in declared]
        self.functions = [h for h in declared if names.count(h.name) == 1]  # no overloads
        self.interfaces = [
            (f.path, n, m["name"])
            for f in self.files.values()
            for n, line in enumerate(f.lines)
            if (m := _INTERFACE.match(line))
        ]

    def _imports(self, file: TsFile) -> set[str]:
        folder = file.path.rpartition("/")[0]
        found: set[str] = set()
        for match in SPECIFIER.finditer(file.text):
            if (target := self.resolve(folder, match["spec"])) is not None:
                found.add(target)
        return found

    def resolve(self, folder: str, spec: str) -> str | None:
        parts = [p for p in folder.split("/") if p]
        for part in spec.split("/"):
            if part == "..":
                if not parts:
                    return None
                parts.pop()
            elif part != ".":
                parts.append(part)
        base = "/".join(parts)
        stem = base[: -len(".js")] if base.endswith(".js") else base
        for candidate in (base, f"{stem}.ts", f"{base}/index.ts"):
            if candidate in self.files:
                return candidate
        return None

    def importers(self, path: str) -> list[str]:
        return sorted(p for p, targets in self.imports.items() if path in targets)

    def users(self, name: str, path: str) -> list[str]:
        """Other files that mention ``name`` as a word (importers, through barrels too)."""
        word = re.compile(rf"\b{re.escape(name)}\b")
        return [p for p, f in self.files.items() if p != path and word.search(f.text)]


def _split_top(params: str) -> list[str]:
    """Split a parameter list at its top-level commas."""
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(params):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and params[i - 1] == "="):
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(params[start:i].strip())
            start = i + 1
    last = params[start:].strip()
    return [*out, last] if last else out


def _headers(file: TsFile) -> Iterator[Header]:
    for n, line in enumerate(file.lines):
        match = _FUNCTION.match(line)
        if match is None or not line.rstrip().endswith("{") or match["indent"]:
            continue
        rest_at = match.start("rest")
        open_at = line.find("(", rest_at)
        close_at = _matching_paren(line, open_at) if open_at >= 0 else -1
        if close_at < 0:
            continue
        tail = line[close_at + 1 :].strip()
        returns = tail[1:-1].strip() if tail.startswith(":") else None
        if tail != "{" and returns is None:
            continue
        yield Header(file.path, n, match["name"], (open_at + 1, close_at), returns)


def _matching_paren(line: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(line)):
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        if depth == 0:
            return i
    return -1
