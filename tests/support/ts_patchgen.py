"""A seeded, deterministic generator of patches over any TypeScript tree, for the differential test.

The Python generator's design (``patchgen.py``) for TypeScript, with regexes in place of ``ast``:
exported functions whose whole header sits on one line (``export function f<T>(a: A): R {``),
exported interfaces, relative imports and re-exports. Nothing is known about the package, so a
tree never seen before works. Each kind visits its targets in an order shuffled by its own
``random.Random(f"{seed}:{kind}")`` and yields patches until it has its quota. The edits are
conservative (whole lines, or a header's parameter list); there is no TypeScript parser here, and
the ``kind`` only names the intent: whether a patch is red is for the oracle to say.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.changes import change_file, delete_file, new_file
from tests.support.patchkit import GeneratedPatch, shuffled

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.protocol import Diagnostic, FileChange

__all__ = ["DEFAULT_SEED", "KINDS", "GeneratedPatch", "TsIndex", "generate_ts_patches"]

DEFAULT_SEED = 1729
TSCONFIG = "tsconfig.json"
STRICTNESS_OPTIONS = (
    "noUnusedLocals",
    "noImplicitReturns",
    "noUnusedParameters",
    "noFallthroughCasesInSwitch",
    "noImplicitOverride",
    "noUncheckedIndexedAccess",
)
GREEN_STATEMENT = 'const pwProbe: number = "prewrite".length; void pwProbe;'
RED_STATEMENT = 'const pwBad: number = "prewrite"; void pwBad;'

_FUNCTION = re.compile(
    r"^(?P<indent>\s*)export (?:async )?function\*? ?(?P<name>\w+)\s*(?P<rest>.*)$"
)
_INTERFACE = re.compile(r"^export interface (?P<name>\w+)\b[^{]*\{\s*$")
_SPECIFIER = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*['"](?P<spec>\.{1,2}/[^'"]+)['"]""")
_IMPORT_END = re.compile(
    r"""^import\b(?:[^;'"]*?\bfrom)?\s*['"][^'"]+['"];?[ \t]*$""", re.MULTILINE
)
_UNCHANGEABLE_RETURNS = {"void", "any", "unknown", "never", "undefined", "this"}


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
        for match in _SPECIFIER.finditer(file.text):
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


# --- edits ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    root: Path
    index: TsIndex
    errors: tuple[tuple[str, int], ...]  # (path, 1-based line) of the base's errors

    def edited(self, path: str, lines: Sequence[str]) -> FileChange:
        file = self.index.files[path]
        return change_file(self.root, path, file.newline.join(lines) + file.newline)


def _with_lines(file: TsFile, at: int, added: Sequence[str]) -> list[str]:
    return [*file.lines[:at], *added, *file.lines[at:]]


def _body_insert(ctx: Context, fn: Header, statement: str) -> FileChange:
    file = ctx.index.files[fn.path]
    following = next((s for s in file.lines[fn.line + 1 :] if s.strip()), "}")
    indent = following[: len(following) - len(following.lstrip())] or "  "
    return ctx.edited(fn.path, _with_lines(file, fn.line + 1, [indent + statement]))


def _with_header(ctx: Context, fn: Header, params: str | None, returns: str | None) -> FileChange:
    file = ctx.index.files[fn.path]
    line = file.lines[fn.line]
    head = line[: fn.params[0]] + (
        params if params is not None else line[fn.params[0] : fn.params[1]]
    )
    tail = ")" + (f": {returns}" if returns is not None else "") + " {"
    lines = list(file.lines)
    lines[fn.line] = head + tail
    return ctx.edited(fn.path, lines)


def _after_imports(file: TsFile) -> int:
    ends = [m.end() for m in _IMPORT_END.finditer(file.text)]
    return file.text.count(file.newline, 0, max(ends)) + 1 if ends else 0


def _import_suffix(file: TsFile) -> str:
    """ ".js" when the file writes its relative imports with extensions (NodeNext style)."""
    return ".js" if re.search(r"""from\s*['"]\.{1,2}/[^'"]+\.js['"]""", file.text) else ""


def _patch(kind: str, detail: str, changes: Sequence[FileChange]) -> GeneratedPatch:
    return GeneratedPatch(f"{kind}[{detail}]", kind, tuple(changes))


Maker = Callable[[Context, random.Random], Iterator[GeneratedPatch]]


# --- kinds ------------------------------------------------------------------------------------


def _used_elsewhere(ctx: Context) -> list[Header]:
    return [fn for fn in ctx.index.functions if ctx.index.users(fn.name, fn.path)]


def body_edit(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for fn in shuffled(ctx.index.functions, rng):
        yield _patch("body_edit", f"{fn.path}:{fn.name}", [_body_insert(ctx, fn, GREEN_STATEMENT)])


def intra_file_error(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for fn in shuffled(ctx.index.functions, rng):
        change = _body_insert(ctx, fn, RED_STATEMENT)
        yield _patch("intra_file_error", f"{fn.path}:{fn.name}", [change])


def required_param(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """A new required last parameter: callers in other files lack an argument."""
    for fn in shuffled(_used_elsewhere(ctx), rng):
        params = fn.param_list(ctx.index.files[fn.path])
        if any(p.startswith("...") or "?" in p.split(":")[0] or "=" in p for p in params[-1:]):
            continue
        new = ", ".join([*params, "pwExtra: number"])
        yield _patch(
            "required_param", f"{fn.path}:{fn.name}", [_with_header(ctx, fn, new, fn.returns)]
        )


def param_type(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """The first parameter's type becomes ``symbol``: callers' arguments no longer fit."""
    for fn in shuffled(_used_elsewhere(ctx), rng):
        params = fn.param_list(ctx.index.files[fn.path])
        match = re.fullmatch(r"(\w+\??)\s*:\s*[^=]+", params[0]) if params else None
        if match is None:
            continue
        new = ", ".join([f"{match[1]}: symbol", *params[1:]])
        yield _patch("param_type", f"{fn.path}:{fn.name}", [_with_header(ctx, fn, new, fn.returns)])


def return_type(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """``R`` becomes ``R | undefined``: strict callers that use the result break."""
    for fn in shuffled(_used_elsewhere(ctx), rng):
        returns = fn.returns
        if (
            returns is None
            or returns in _UNCHANGEABLE_RETURNS
            or re.search(r"\b(is|asserts)\b", returns)
        ):
            continue
        change = _with_header(ctx, fn, None, f"({returns}) | undefined")
        yield _patch("return_type", f"{fn.path}:{fn.name}", [change])


def _renamed(text: str, name: str) -> str:
    return re.sub(rf"\b{re.escape(name)}\b", f"{name}PwRenamed", text)


def rename_export(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Rename a function in its own file only: its importers break."""
    for fn in shuffled(_used_elsewhere(ctx), rng):
        text = _renamed(ctx.index.files[fn.path].text, fn.name)
        yield _patch(
            "rename_export", f"{fn.path}:{fn.name}", [change_file(ctx.root, fn.path, text)]
        )


def rename_everywhere(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Rename a function in every file that mentions it (a multi-file green refactoring)."""
    for fn in shuffled(_used_elsewhere(ctx), rng):
        paths = [fn.path, *ctx.index.users(fn.name, fn.path)]
        if len(fn.name) < 6 or len(paths) > 8:
            continue  # short names collide with unrelated words; wide renames are slow to judge
        changes = [
            change_file(ctx.root, p, _renamed(ctx.index.files[p].text, fn.name)) for p in paths
        ]
        yield _patch("rename_everywhere", f"{fn.path}:{fn.name}", changes)


def _new_module(kind: str, module: str, imported: str, usage: str | None) -> Maker:
    def make(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
        for n, file in enumerate(shuffled(list(ctx.index.files.values()), rng)):
            folder = file.path.rpartition("/")[0]
            stem = f"pwAdded{n}"
            added = f"{folder}/{stem}.ts" if folder else f"{stem}.ts"
            if added in ctx.index.files:
                continue
            statement = f'import {{ {imported} }} from "./{stem}{_import_suffix(file)}";'
            lines = _with_lines(file, _after_imports(file), [statement])
            lines += ["", usage.format(n=n)] if usage else []
            changes = [new_file(added, module), ctx.edited(file.path, lines)]
            yield _patch(kind, f"{file.path}+{stem}", changes)

    return make


HELPER_MODULE = "export function pwHelper(value: number): number {\n  return value + 1;\n}\n"
BROKEN_MODULE = 'export function pwHelper(value: number): number {\n  return "prewrite";\n}\n'
USAGE = "export const pwValue{n}: number = pwHelper(1);"


def delete_imported(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for path in shuffled(sorted(ctx.index.files), rng):
        if ctx.index.importers(path):
            yield _patch("delete_imported", path, [delete_file(ctx.root, path)])


def _moved(path: str) -> str:
    return path.removesuffix(".ts") + "_moved.ts"


def _repointed(ctx: Context, importer: str, path: str) -> FileChange:
    """``importer`` with each relative specifier that resolves to ``path`` naming its move."""
    file = ctx.index.files[importer]
    folder = importer.rpartition("/")[0]
    stem = path.rpartition("/")[2].removesuffix(".ts")

    def repoint(match: re.Match[str]) -> str:
        spec = match["spec"]
        if ctx.index.resolve(folder, spec) != path:
            return match[0]
        head, _, last = spec.rpartition("/")
        moved = last.replace(stem, f"{stem}_moved", 1)
        return match[0].replace(spec, f"{head}/{moved}")

    text = _SPECIFIER.sub(repoint, file.text)
    return change_file(ctx.root, importer, text)


def _movable(ctx: Context, rng: random.Random) -> Iterator[str]:
    for path in shuffled(sorted(ctx.index.files), rng):
        if path.endswith("/index.ts") or path == "index.ts" or _moved(path) in ctx.index.files:
            continue
        if ctx.index.importers(path):
            yield path


def move_module(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """A module renamed and every importer repointed: a green multi-file refactoring."""
    for path in _movable(ctx, rng):
        moved = [delete_file(ctx.root, path), new_file(_moved(path), ctx.index.files[path].text)]
        repointed = [_repointed(ctx, i, path) for i in ctx.index.importers(path)]
        yield _patch("move_module", path, [*moved, *repointed])


def move_module_stale(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """A module renamed, its importers left pointing at the old name: red where they import."""
    for path in _movable(ctx, rng):
        moved = [delete_file(ctx.root, path), new_file(_moved(path), ctx.index.files[path].text)]
        yield _patch("move_module_stale", path, moved)


def delete_unimported(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for path in shuffled(sorted(ctx.index.files), rng):
        if not ctx.index.importers(path):
            yield _patch("delete_unimported", path, [delete_file(ctx.root, path)])


def interface_required(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """An interface gains a required property: object literals and implementers break."""
    for path, line, name in shuffled(ctx.index.interfaces, rng):
        file = ctx.index.files[path]
        change = ctx.edited(path, _with_lines(file, line + 1, ["  pwRequired: number;"]))
        yield _patch("interface_required", f"{path}:{name}", [change])


def _shifted(ctx: Context, path: str, n: int) -> FileChange:
    """Comment and blank lines at the top, or right above the file's first base error."""
    file = ctx.index.files[path]
    lines = [e for p, e in ctx.errors if p == path]
    at = 0 if n % 2 == 0 or not lines else min(lines) - 1
    return ctx.edited(
        path, _with_lines(file, at, ["// prewrite: shifted", "", "// by three lines"])
    )


def _error_files(ctx: Context) -> list[str]:
    return sorted({p for p, _ in ctx.errors if p in ctx.index.files})


def shift_only(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for n, path in enumerate(shuffled(_error_files(ctx), rng)):
        yield _patch("shift_only", path, [_shifted(ctx, path, n)])


def shift_many(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    files = _error_files(ctx)
    for n in range(len(files) // 2):
        chosen = sorted(rng.sample(files, min(len(files), 3)))
        yield _patch("shift_many", "+".join(chosen), [_shifted(ctx, p, n + 1) for p in chosen])


def tsconfig_strict(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Turn on one more strictness option: red if the tree has code it forbids."""
    if not (ctx.root / TSCONFIG).is_file():
        return
    try:
        config = json.loads((ctx.root / TSCONFIG).read_text())
    except json.JSONDecodeError:
        return  # JSON with comments: not edited without a JSONC parser
    options = config.setdefault("compilerOptions", {})
    for option in shuffled(STRICTNESS_OPTIONS, rng):
        if options.get(option) is not True:
            updated = {**config, "compilerOptions": {**options, option: True}}
            text = json.dumps(updated, indent=2) + "\n"
            yield _patch("tsconfig_strict", option, [change_file(ctx.root, TSCONFIG, text)])


def mixed_multi_file(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Body edits in three files; every other patch breaks one of them."""
    by_file: dict[str, list[Header]] = {}
    for fn in ctx.index.functions:
        by_file.setdefault(fn.path, []).append(fn)
    paths = sorted(by_file)
    for n in range(20 if len(paths) >= 3 else 0):
        chosen = rng.sample(paths, 3)
        red = n % 2 == 0
        changes = [
            _body_insert(
                ctx, rng.choice(by_file[p]), RED_STATEMENT if red and i == 0 else GREEN_STATEMENT
            )
            for i, p in enumerate(chosen)
        ]
        yield _patch("mixed_multi_file", f"{'red' if red else 'green'}:{'+'.join(chosen)}", changes)


KINDS: tuple[tuple[str, int, Maker], ...] = (
    ("body_edit", 3, body_edit),
    ("intra_file_error", 2, intra_file_error),
    ("required_param", 3, required_param),
    ("param_type", 2, param_type),
    ("return_type", 3, return_type),
    ("rename_export", 2, rename_export),
    ("rename_everywhere", 1, rename_everywhere),
    ("new_module", 2, _new_module("new_module", HELPER_MODULE, "pwHelper", USAGE)),
    (
        "new_module_missing_name",
        1,
        _new_module("new_module_missing_name", HELPER_MODULE, "pwMissing", None),
    ),
    ("new_module_broken", 1, _new_module("new_module_broken", BROKEN_MODULE, "pwHelper", USAGE)),
    ("delete_imported", 2, delete_imported),
    ("delete_unimported", 1, delete_unimported),
    ("move_module", 2, move_module),
    ("move_module_stale", 1, move_module_stale),
    ("interface_required", 2, interface_required),
    ("shift_only", 2, shift_only),
    ("shift_many", 1, shift_many),
    ("tsconfig_strict", 2, tsconfig_strict),
    ("mixed_multi_file", 2, mixed_multi_file),
)


def generate_ts_patches(
    root: Path, *, seed: int = DEFAULT_SEED, base: Sequence[Diagnostic] = ()
) -> list[GeneratedPatch]:
    """Up to ``sum(quota)`` patches over the TypeScript tree at ``root``; ``base``: the tree's
    own diagnostics (the oracle's), whose errors the shift kinds move."""
    errors = tuple(sorted({(d.path, d.line) for d in base if d.severity == "error"}))
    ctx = Context(root, TsIndex(root), errors)
    patches: list[GeneratedPatch] = []
    for kind, quota, maker in KINDS:
        patches.extend(itertools.islice(maker(ctx, random.Random(f"{seed}:{kind}")), quota))
    return patches
