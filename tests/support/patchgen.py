"""A seeded, deterministic generator of patches over a Python tree, for the differential test.

Each kind of patch looks for its targets with ``ast`` (see ``sourceindex``), visits them in an
order shuffled by its own ``random.Random(f"{seed}:{kind}")`` and yields a patch for every target
where the edit compiles, until it has its quota. Kinds aim at green edits, cross-file breaks,
errors seen only in importers, deletions, new modules, and pure line shifts; whether a patch is
really red is for the oracle to say, the ``kind`` only names the intent.
"""

from __future__ import annotations

import ast
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from prewrite.changes import change_file, delete_file, new_file

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
DEFAULT_SEED = 1729


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


def _shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    out = list(items)
    rng.shuffle(out)
    return out


def _patch(kind: str, detail: str, changes: Sequence[FileChange | None]) -> GeneratedPatch | None:
    if not changes or any(c is None for c in changes):
        return None
    return GeneratedPatch(f"{kind}[{detail}]", kind, tuple(c for c in changes if c is not None))


# --- edit builders ---------------------------------------------------------------------------


def _body_insert(ctx: Context, fn: Function, code: str) -> Edit | None:
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


def _def_paren(file: SourceFile, fn: Function) -> tuple[int, int]:
    """(line, byte column) just after the ``(`` opening ``fn``'s parameters."""
    line = file.line(fn.node.lineno)
    at = line.index(f"{fn.name}(", fn.node.col_offset) + len(fn.name) + 1
    return fn.node.lineno, len(line[:at].encode("utf-8"))


def _after_imports(file: SourceFile) -> int | None:
    """The line after the last module-level import, or None for a module without imports."""
    ends = [
        s.end_lineno or s.lineno
        for s in file.tree.body
        if isinstance(s, ast.Import | ast.ImportFrom)
    ]
    return max(ends) + 1 if ends else None


def _end_of_file(file: SourceFile, code: str) -> Edit:
    lines = file.text.splitlines()
    sep = "" if file.text.endswith("\n") else "\n"
    return insert_at(len(lines) + 1, 0, f"{sep}\n{code}\n")


def _top_level(ctx: Context) -> list[Function]:
    return [fn for fn in ctx.index.functions if not fn.is_method]


# --- kinds -----------------------------------------------------------------------------------

GREEN_STATEMENTS = ("pass  # prewrite: body-only edit", "_pw_probe: int = len('prewrite')")
RED_STATEMENTS = ("_pw_bad: int = 'prewrite'", "_pw_value = pw_undefined_name")


def body_only(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for n, fn in enumerate(_shuffled(ctx.index.functions, rng)):
        edit = _body_insert(ctx, fn, GREEN_STATEMENTS[n % 2])
        if edit and (
            p := _patch("body_only", fn.path + ":" + fn.qualname, [ctx.edited(fn.path, [edit])])
        ):
            yield p


def intra_file_error(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for n, fn in enumerate(_shuffled(ctx.index.functions, rng)):
        edit = _body_insert(ctx, fn, RED_STATEMENTS[n % 2])
        if edit and (
            p := _patch(
                "intra_file_error", f"{fn.path}:{fn.qualname}", [ctx.edited(fn.path, [edit])]
            )
        ):
            yield p


def _return_annotation(kind: str, methods: bool) -> Maker:
    def make(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
        for fn in _shuffled(ctx.index.functions, rng):
            returns = fn.node.returns
            if fn.is_method != methods or returns is None or fn.name.startswith("__"):
                continue
            if not ctx.index.users(fn.name, fn.path):
                continue
            new = "str" if ast.unparse(returns) == "int" else "int"
            end_line, end_col = returns.end_lineno or returns.lineno, returns.end_col_offset or 0
            edit = Edit(returns.lineno, returns.col_offset, end_line, end_col, new)
            if p := _patch(kind, f"{fn.path}:{fn.qualname}->{new}", [ctx.edited(fn.path, [edit])]):
                yield p

    return make


def required_param(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for fn in _shuffled(_top_level(ctx), rng):
        if not any(f.path != fn.path for f, _ in ctx.index.calls(fn.name)):
            continue
        a = fn.node.args
        has_params = bool(a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg)
        line, col = _def_paren(ctx.index.files[fn.path], fn)
        edit = insert_at(line, col, "pw_required: int, " if has_params else "pw_required: int")
        if p := _patch("required_param", f"{fn.path}:{fn.name}", [ctx.edited(fn.path, [edit])]):
            yield p


def _kwonly_param_edit(ctx: Context, fn: Function) -> Edit | None:
    a = fn.node.args
    if a.kwarg is not None:
        return None
    parts: list[ast.AST] = [*a.posonlyargs, *a.args, *a.kwonlyargs, *a.defaults]
    parts += [d for d in a.kw_defaults if d is not None]
    parts += [v for v in (a.vararg,) if v is not None]
    if not parts:
        line, col = _def_paren(ctx.index.files[fn.path], fn)
        return insert_at(line, col, "*, pw_option: int = 0")
    last = max(parts, key=lambda n: (getattr(n, "end_lineno", 0), getattr(n, "end_col_offset", 0)))
    star = "" if a.vararg or a.kwonlyargs else "*, "
    line, col = getattr(last, "end_lineno", 0), getattr(last, "end_col_offset", 0)
    return insert_at(line, col, f", {star}pw_option: int = 0")


def _call_keyword_edit(call: ast.Call) -> Edit:
    items: list[ast.AST] = [*call.args, *call.keywords]
    if not items:
        end_line, end_col = call.end_lineno or call.lineno, (call.end_col_offset or 1) - 1
        return insert_at(end_line, end_col, "pw_option=1")
    last = max(items, key=lambda n: (getattr(n, "end_lineno", 0), getattr(n, "end_col_offset", 0)))
    return insert_at(
        getattr(last, "end_lineno", 0), getattr(last, "end_col_offset", 0), ", pw_option=1"
    )


def optional_param_callers(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Add a keyword-only parameter and pass it at every call site: a multi-file green edit."""
    for fn in _shuffled(_top_level(ctx), rng):
        if fn.name in ctx.index.method_names:
            continue
        files = [fn.path, *ctx.index.name_importers(fn.path, fn.name)]
        if not 2 <= len(files) <= 5:
            continue
        signature = _kwonly_param_edit(ctx, fn)
        edits: dict[str, list[Edit]] = {path: [] for path in files}
        for f, call in ctx.index.calls(fn.name):
            if f.path in edits and isinstance(call.func, ast.Name):
                edits[f.path].append(_call_keyword_edit(call))
        if signature is None or sum(len(e) for p, e in edits.items() if p != fn.path) == 0:
            continue
        edits[fn.path].append(signature)
        changes = [ctx.edited(path, e) for path, e in edits.items() if e]
        if p := _patch("optional_param_callers", f"{fn.path}:{fn.name}", changes):
            yield p


def rename_function(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for fn in _shuffled(_top_level(ctx), rng):
        if not ctx.index.name_importers(fn.path, fn.name):
            continue
        line, col = _def_paren(ctx.index.files[fn.path], fn)
        edit = insert_at(line, col - 1, "_pw_renamed")
        if p := _patch("rename_function", f"{fn.path}:{fn.name}", [ctx.edited(fn.path, [edit])]):
            yield p


def rename_everywhere(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Rename a function in its module and in every module importing it: multi-file green."""
    for fn in _shuffled(_top_level(ctx), rng):
        importers = ctx.index.name_importers(fn.path, fn.name)
        quoted = (f'"{fn.name}"', f"'{fn.name}'")
        if not 1 <= len(importers) <= 4 or fn.name in ctx.index.method_names:
            continue
        if any(q in f.text for f in ctx.index.files.values() for q in quoted):
            continue  # named in __all__ or a string: leave those alone
        if fn.name in ctx.index.attribute_names:
            continue  # also reached as an attribute: a rename would miss those
        changes = [ctx.edited(path, _rename_edits(ctx, path, fn)) for path in [fn.path, *importers]]
        if p := _patch("rename_everywhere", f"{fn.path}:{fn.name}", changes):
            yield p


def _rename_edits(ctx: Context, path: str, fn: Function) -> list[Edit]:
    file, new = ctx.index.files[path], fn.name + "_pw_renamed"
    module = ctx.index.files[fn.path].module
    edits: list[Edit] = []
    for node in ast.walk(file.tree):
        if isinstance(node, ast.Name) and node.id == fn.name:
            edits.append(
                Edit(node.lineno, node.col_offset, node.lineno, node.end_col_offset or 0, new)
            )
        elif isinstance(node, ast.ImportFrom) and file.resolve(node) == module:
            for a in node.names:
                if a.name == fn.name:
                    end = a.col_offset + len(fn.name.encode("utf-8"))
                    edits.append(Edit(a.lineno, a.col_offset, a.lineno, end, new))
    if path == fn.path:
        line, col = _def_paren(file, fn)
        edits.append(insert_at(line, col - 1, "_pw_renamed"))
    return edits


def delete_module(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for f in _shuffled(list(ctx.index.files.values()), rng):
        if not f.is_package and ctx.index.module_importers(f.path):
            yield GeneratedPatch(
                f"delete_module[{f.path}]", "delete_module", (delete_file(ctx.root, f.path),)
            )


def _new_module(kind: str, imported: str, usage: str | None) -> Maker:
    helper = (
        '"""Added by a generated patch."""\n\n\n'
        "def pw_helper(value: int) -> int:\n    return value + 1\n"
    )

    def make(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
        packages = {f.path.rpartition("/")[0] for f in ctx.index.files.values() if f.is_package}
        for n, f in enumerate(_shuffled(list(ctx.index.files.values()), rng)):
            folder, after = f.path.rpartition("/")[0], _after_imports(f)
            if folder not in packages or after is None:
                continue
            stem = f"_pw_added_{n}"
            edits = [insert_at(after, 0, f"from .{stem} import {imported}\n")]
            edits += [_end_of_file(f, usage)] if usage else []
            added = new_file(f"{folder}/{stem}.py", helper)
            if p := _patch(kind, f"{f.path}+{stem}", [added, ctx.edited(f.path, edits)]):
                yield p

    return make


def shift_only(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Move pre-existing errors down without touching them: must introduce nothing."""
    files = [ctx.index.files[p] for p in ctx.error_files if p in ctx.index.files]
    for n, f in enumerate(_shuffled(files, rng)):
        after = _after_imports(f)
        if n % 2 == 0 or after is None:
            edit = insert_at(1, 0, "# prewrite: shifted\n# by three\n# lines\n")
        else:
            edit = insert_at(after, 0, "\n_PW_SHIFT = 0\n\n")
        if p := _patch("shift_only", f.path, [ctx.edited(f.path, [edit])]):
            yield p


def mixed_multi_file(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Body edits in 3-5 files; every other patch breaks one of them."""
    by_file: dict[str, list[Function]] = {}
    for fn in ctx.index.functions:
        by_file.setdefault(fn.path, []).append(fn)
    paths = sorted(by_file)
    for n in itertools.count():
        if n >= 20 or len(paths) < 3:
            return
        chosen = rng.sample(paths, min(len(paths), rng.randint(3, 5)))
        red = n % 2 == 0
        edits = [
            (p, _body_insert(ctx, rng.choice(by_file[p]), GREEN_STATEMENTS[0])) for p in chosen
        ]
        if red:
            path = chosen[0]
            edits[0] = (path, _body_insert(ctx, rng.choice(by_file[path]), RED_STATEMENTS[0]))
        changes = [ctx.edited(p, [e]) if e else None for p, e in edits]
        label = "red" if red else "green"
        if p := _patch("mixed_multi_file", f"{label}:{'+'.join(sorted(chosen))}", changes):
            yield p


KINDS: tuple[tuple[str, int, Maker], ...] = (
    ("body_only", 3, body_only),
    ("intra_file_error", 2, intra_file_error),
    ("return_annotation", 3, _return_annotation("return_annotation", methods=False)),
    ("method_return_annotation", 2, _return_annotation("method_return_annotation", methods=True)),
    ("required_param", 3, required_param),
    ("optional_param_callers", 2, optional_param_callers),
    ("rename_function", 2, rename_function),
    ("rename_everywhere", 1, rename_everywhere),
    ("delete_module", 2, delete_module),
    ("new_module", 2, _new_module("new_module", "pw_helper", "_PW_VALUE = pw_helper(1)")),
    ("new_module_missing_name", 1, _new_module("new_module_missing_name", "pw_missing", None)),
    ("shift_only", 2, shift_only),
    ("mixed_multi_file", 2, mixed_multi_file),
)


def generate_patches(
    root: Path, *, seed: int = DEFAULT_SEED, error_files: Sequence[str] = ()
) -> list[GeneratedPatch]:
    """Up to ``sum(quota)`` patches over ``root``; ``error_files`` have pre-existing diagnostics."""
    ctx = Context(root, SourceIndex(root), tuple(sorted(set(error_files))))
    patches: list[GeneratedPatch] = []
    for kind, quota, maker in KINDS:
        patches.extend(itertools.islice(maker(ctx, random.Random(f"{seed}:{kind}")), quota))
    return patches
