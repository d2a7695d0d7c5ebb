"""Patch kinds that change a function's signature or name, so that its importers see it."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from tests.support.patchkit import (
    Context,
    GeneratedPatch,
    Maker,
    def_paren,
    make_patch,
    shuffled,
    top_level,
)
from tests.support.sourceindex import Edit, Function, insert_at

if TYPE_CHECKING:
    import random
    from collections.abc import Iterator


def return_annotation(kind: str, methods: bool) -> Maker:
    def make(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
        for fn in shuffled(ctx.index.functions, rng):
            returns = fn.node.returns
            if fn.is_method != methods or returns is None or fn.name.startswith("__"):
                continue
            if not ctx.index.users(fn.name, fn.path):
                continue
            new = "str" if ast.unparse(returns) == "int" else "int"
            end_line, end_col = returns.end_lineno or returns.lineno, returns.end_col_offset or 0
            edit = Edit(returns.lineno, returns.col_offset, end_line, end_col, new)
            if p := make_patch(
                kind, f"{fn.path}:{fn.qualname}->{new}", [ctx.edited(fn.path, [edit])]
            ):
                yield p

    return make


def required_param(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for fn in shuffled(top_level(ctx), rng):
        if not any(f.path != fn.path for f, _ in ctx.index.calls(fn.name)):
            continue
        a = fn.node.args
        has_params = bool(a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg)
        line, col = def_paren(ctx.index.files[fn.path], fn)
        edit = insert_at(line, col, "pw_required: int, " if has_params else "pw_required: int")
        if p := make_patch("required_param", f"{fn.path}:{fn.name}", [ctx.edited(fn.path, [edit])]):
            yield p


def _kwonly_param_edit(ctx: Context, fn: Function) -> Edit | None:
    a = fn.node.args
    if a.kwarg is not None:
        return None
    parts: list[ast.AST] = [*a.posonlyargs, *a.args, *a.kwonlyargs, *a.defaults]
    parts += [d for d in a.kw_defaults if d is not None]
    parts += [v for v in (a.vararg,) if v is not None]
    if not parts:
        line, col = def_paren(ctx.index.files[fn.path], fn)
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
    for fn in shuffled(top_level(ctx), rng):
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
        if p := make_patch("optional_param_callers", f"{fn.path}:{fn.name}", changes):
            yield p


def rename_function(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    for fn in shuffled(top_level(ctx), rng):
        if not ctx.index.name_importers(fn.path, fn.name):
            continue
        line, col = def_paren(ctx.index.files[fn.path], fn)
        edit = insert_at(line, col - 1, "_pw_renamed")
        if p := make_patch(
            "rename_function", f"{fn.path}:{fn.name}", [ctx.edited(fn.path, [edit])]
        ):
            yield p


def rename_everywhere(ctx: Context, rng: random.Random) -> Iterator[GeneratedPatch]:
    """Rename a function in its module and in every module importing it: multi-file green."""
    for fn in shuffled(top_level(ctx), rng):
        importers = ctx.index.name_importers(fn.path, fn.name)
        quoted = (f'"{fn.name}"', f"'{fn.name}'")
        if not 1 <= len(importers) <= 4 or fn.name in ctx.index.method_names:
            continue
        if any(q in f.text for f in ctx.index.files.values() for q in quoted):
            continue  # named in __all__ or a string: leave those alone
        if fn.name in ctx.index.attribute_names:
            continue  # also reached as an attribute: a rename would miss those
        changes = [ctx.edited(path, _rename_edits(ctx, path, fn)) for path in [fn.path, *importers]]
        if p := make_patch("rename_everywhere", f"{fn.path}:{fn.name}", changes):
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
        line, col = def_paren(file, fn)
        edits.append(insert_at(line, col - 1, "_pw_renamed"))
    return edits
