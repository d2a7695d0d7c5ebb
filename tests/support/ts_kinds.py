"""The TypeScript patch generator's kinds (``ts_patchgen.py``): each visits its targets in the order
``rng`` shuffles them to and yields patches — body edits, signature changes, renames, new,
deleted and moved modules, interface changes, line shifts, a ``tsconfig`` strictness change, and
mixes of them. The ``kind`` only names the intent: whether a patch is red is for the oracle to
say.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from prewrite.changes import change_file, delete_file, new_file
from tests.support.patchkit import GeneratedPatch, shuffled
from tests.support.ts_edits import Context, Maker
from tests.support.ts_edits import after_imports as _after_imports
from tests.support.ts_edits import body_insert as _body_insert
from tests.support.ts_edits import generated as _patch
from tests.support.ts_edits import import_suffix as _import_suffix
from tests.support.ts_edits import with_header as _with_header
from tests.support.ts_edits import with_lines as _with_lines
from tests.support.ts_index import SPECIFIER as _SPECIFIER
from tests.support.ts_index import Header

if TYPE_CHECKING:
    import random
    from collections.abc import Iterator

    from prewrite.protocol import FileChange


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


_UNCHANGEABLE_RETURNS = {"void", "any", "unknown", "never", "undefined", "this"}


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


def new_module(kind: str, module: str, imported: str, usage: str | None) -> Maker:
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
