"""Never a stale green, differentially: config patches and disk edits judged like a cold run.

Two kinds of case the generated patches of ``test_differential`` never make, on a private copy of
the same httpx workspace per test:

* patches that change pyright's configuration themselves (``[tool.pyright]`` in
  ``pyproject.toml``, a new ``pyrightconfig.json``), which the daemon judges twice: on its cold
  path under the new settings, and warm under the settings on disk (so a patch cannot relax the
  checker to hide its own error). The oracle does the same with two cold runs: the whole patch,
  and the patch without its configuration files; what only the latter finds is marked;
* files changed on disk behind the warm daemon's back between two checks (a return annotation
  its importers see, a module created, the same module deleted, ``pyproject.toml`` made strict).

The oracle is the cold pyright CLI on the tree as it is on disk at that moment (the base) and on
a patched copy of it, diffed with the daemon's own ``introduced`` rule, as in
``test_differential``. Every case states the verdict it was designed for, so an oracle (or a
daemon) that ignores the configuration cannot pass by agreeing with itself. The oracle works on
snapshots in background threads, so its cold runs overlap the daemon's checks and later steps.
"""

from __future__ import annotations

import ast
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import change_file, new_file
from tests.support.env_judge import ORACLE_THREADS, Case, Judge, assert_all_agree
from tests.support.patchgen import GREEN_STATEMENTS, RED_STATEMENTS
from tests.support.patchkit import Context, after_imports, body_insert, end_of_file
from tests.support.sourceindex import Edit, Function, SourceIndex, apply_edits, insert_at
from tests.support.workloads import (
    PACKAGE_ONLY,
    Workload,
    copy_workspace,
    prepare_workload,
    typecheck_only,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import FileChange

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ADDED_MODULE = "httpx/_pw_on_disk.py"
ADDED_TEXT = (
    '"""Created on disk behind the daemon\'s back."""\n\n\n'
    "def pw_disk_helper(value: int) -> int:\n    return value + 1\n"
)
USE_ADDED = "_PW_VALUE = pw_disk_helper(1)"
UNUSED_LOCAL = "pw_unused = len('prewrite')"  # reportUnusedVariable: a warning, an error in strict


def _tool_pyright(**settings: str) -> str:
    return "\n[tool.pyright]\n" + "".join(f'{k} = "{v}"\n' for k, v in settings.items())


STRICT = _tool_pyright(typeCheckingMode="strict")


@pytest.fixture
def workload(tmp_path: Path) -> Workload:
    """A private copy per test (these cases edit files on disk), checked by pyright alone;
    httpx's own tests left out (nothing here is about importers outside the package; a strict
    cold run of them costs ~20 s of CPU)."""
    copy = copy_workspace(prepare_workload(), tmp_path / "httpx", leave_out=PACKAGE_ONLY)
    return typecheck_only(copy)


@pytest.fixture
def judge(client: Client, workload: Workload, tmp_path: Path) -> Iterator[Judge]:
    with ThreadPoolExecutor(ORACLE_THREADS, thread_name_prefix="oracle") as pool:
        yield Judge(client, workload, pool, tmp_path / "scratch")


# --- patch builders over the tree as it is on disk now ----------------------------------------


def context(root: Path) -> Context:
    return Context(root, SourceIndex(root), ())


def body_edit(ctx: Context, code: str, path: str | None = None) -> FileChange:
    """``code`` inserted into the first function (of ``path``, else of the package) taking it."""
    for fn in ctx.index.functions:
        if fn.path == path or (path is None and fn.path.startswith("httpx/")):
            edit = body_insert(ctx, fn, code)
            change = ctx.edited(fn.path, [edit]) if edit else None
            if change is not None:
                return change
    raise AssertionError(f"no function of {path or 'httpx/'} takes {code!r}")


def with_pyproject(ctx: Context, section: str) -> FileChange:
    return change_file(
        ctx.root, "pyproject.toml", (ctx.root / "pyproject.toml").read_text() + section
    )


def imported_function(ctx: Context) -> Function:
    """The first annotated top-level function of the package that other modules import by name."""
    for fn in ctx.index.functions:
        if (
            fn.path.startswith("httpx/")
            and not fn.is_method
            and fn.node.returns is not None
            and ctx.index.name_importers(fn.path, fn.name)
        ):
            return fn
    raise AssertionError("httpx has no function imported by name")


def import_added_module(ctx: Context, usage: str) -> FileChange:
    """The first plain module of the package imports ``ADDED_MODULE``'s helper, runs ``usage``."""
    for f in ctx.index.files.values():
        after = after_imports(f)
        if f.path.count("/") == 1 and f.path.startswith("httpx/") and not f.is_package and after:
            stem = ADDED_MODULE.rsplit("/", 1)[1].removesuffix(".py")
            edits = [
                insert_at(after, 0, f"from .{stem} import pw_disk_helper\n"),
                end_of_file(f, usage),
            ]
            change = ctx.edited(f.path, edits)
            if change is not None:
                return change
    raise AssertionError("no module of httpx can import the added one")


# --- patches that change the configuration ----------------------------------------------------


def config_cases(ctx: Context) -> list[Case]:
    # `_pw_bad: int = 'prewrite'`: reportAssignmentType, which the last case turns off.
    red_body = body_edit(ctx, RED_STATEMENTS[0])
    return [
        Case(
            "strict pyproject + body edit",
            (with_pyproject(ctx, STRICT), body_edit(ctx, GREEN_STATEMENTS[0])),
            expect_red=True,
        ),
        Case(
            "pyproject: reportPrivateUsage=error + body edit",
            (
                with_pyproject(ctx, _tool_pyright(reportPrivateUsage="error")),
                body_edit(ctx, GREEN_STATEMENTS[1]),
            ),
            expect_red=True,
        ),
        Case(  # two pre-existing warnings become errors: same rule and message, new severity
            "new pyrightconfig.json: reportMissingModuleSource=error",
            (new_file("pyrightconfig.json", '{"reportMissingModuleSource": "error"}\n'),),
            expect_red=True,
        ),
        Case(  # new warnings only: green, yet not empty (``ok`` is about errors)
            "new pyrightconfig.json: reportPrivateUsage=warning + body edit",
            (
                new_file("pyrightconfig.json", '{"reportPrivateUsage": "warning"}\n'),
                body_edit(ctx, GREEN_STATEMENTS[0]),
            ),
            expect_red=False,
            expect_some=True,
        ),
        Case("red body edit, config untouched", (red_body,), expect_red=True),
        Case(  # a relaxation with nothing to hide: green under both settings
            "pyproject: reportAssignmentType=none + a green body edit",
            (
                with_pyproject(ctx, _tool_pyright(reportAssignmentType="none")),
                body_edit(ctx, GREEN_STATEMENTS[1]),
            ),
            expect_red=False,
        ),
        Case(  # a relaxation hiding the patch's own error: caught under the settings before
            "pyproject: reportAssignmentType=none + the same red body edit",
            (with_pyproject(ctx, _tool_pyright(reportAssignmentType="none")), red_body),
            expect_red=True,
        ),
    ]


@pytest.mark.timeout(900)
def test_config_patches_match_cold_pyright(judge: Judge, workload: Workload) -> None:
    judge.step("config patch", *config_cases(context(workload.root)))
    assert_all_agree(judge)


# --- files changed on disk between checks -----------------------------------------------------


def retype_on_disk(ctx: Context, fn: Function) -> str:
    """Rewrite ``fn``'s return annotation on disk (``int``, or ``str`` if it was ``int``)."""
    returns = fn.node.returns
    assert returns is not None
    new = "str" if ast.unparse(returns) == "int" else "int"
    end = (returns.end_lineno or returns.lineno, returns.end_col_offset or 0)
    edit = Edit(returns.lineno, returns.col_offset, *end, new)
    (ctx.root / fn.path).write_text(apply_edits(ctx.index.files[fn.path].text, [edit]))
    return f"{fn.path}:{fn.name}->{new}"


@pytest.mark.timeout(900)
def test_disk_changes_between_checks_match_cold_pyright(judge: Judge, workload: Workload) -> None:
    root = workload.root
    # The daemon gets warm on the pristine tree first.
    pristine = judge.step(
        "pristine", Case("body edit", (body_edit(context(root), GREEN_STATEMENTS[1]),), False)
    )

    ctx = context(root)
    fn = imported_function(ctx)
    retyped = retype_on_disk(ctx, fn)
    ctx, importer = context(root), ctx.index.name_importers(fn.path, fn.name)[0]
    retyped_base = judge.step(
        f"on disk: {retyped}",
        # The importer's new errors are old now: a stale base would call them introduced.
        Case(
            f"body edit in the importer {importer}",
            (body_edit(ctx, GREEN_STATEMENTS[0], importer),),
            False,
        ),
    )

    (root / ADDED_MODULE).write_text(ADDED_TEXT)
    ctx = context(root)
    judge.step(
        f"on disk: created {ADDED_MODULE}",
        Case("import it and use it", (import_added_module(ctx, USE_ADDED),), False),
    )

    (root / ADDED_MODULE).unlink()
    ctx = context(root)
    uses = import_added_module(ctx, USE_ADDED)
    judge.step(
        f"on disk: deleted {ADDED_MODULE}",
        Case("import it and use it", (uses,), True),
        Case(
            "import it, the patch recreates it", (uses, new_file(ADDED_MODULE, ADDED_TEXT)), False
        ),
    )

    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + STRICT)
    ctx = context(root)
    judge.step(
        "on disk: pyproject.toml strict",
        Case("body-only edit", (body_edit(ctx, GREEN_STATEMENTS[0]),), False),
        Case("body-only unused local", (body_edit(ctx, UNUSED_LOCAL),), True),
    )
    assert_all_agree(judge)
    # The first disk edit must have broken its importer, or its case proves nothing.
    paths = Counter(d.path for d in retyped_base.result())
    paths.subtract(d.path for d in pristine.result())
    assert paths[importer] > 0, f"{retyped} on disk made no new diagnostic in {importer}"
