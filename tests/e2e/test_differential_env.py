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
import shutil
from collections import Counter
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import msgspec
import pytest

from prewrite.changes import change_file, new_file
from prewrite_daemon.check.config_change import BEFORE_NOTE
from prewrite_daemon.languages.python.checker_config import CONFIG_FILES
from tests.support.oracle import (
    cold_pyright,
    introduced_between,
    normalize_paths,
    surplus,
    write_patched_copy,
)
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
    from collections.abc import Iterator, Sequence
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.protocol import CheckReply, Diagnostic, FileChange

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MIN_EACH_VERDICT = 2
REPORT_LINES = 12  # per side and case: a strict config introduces about a thousand diagnostics
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


@dataclass(frozen=True)
class Case:
    name: str
    changes: tuple[FileChange, ...]
    expect_red: bool  # what the case was designed to be; the oracle must agree
    expect_some: bool = False  # designed to introduce diagnostics even when green


@dataclass(frozen=True)
class Outcome:
    case: Case
    oracle: list[Diagnostic]
    daemon: list[Diagnostic]
    daemon_ok: bool

    @property
    def red(self) -> bool:
        return any(d.severity == "error" for d in self.oracle)

    def problems(self) -> list[str]:
        """The report lines of this case: none when both sides and the design agree."""
        only_daemon = surplus(self.daemon, self.oracle)
        only_oracle = surplus(self.oracle, self.daemon)
        lines: list[str] = []
        if self.red != self.case.expect_red:
            lines.append(f"  oracle red={self.red}, designed red={self.case.expect_red}")
        if self.case.expect_some and not self.oracle:
            lines.append("  the oracle found nothing introduced, designed to find some")
        if only_daemon or only_oracle or self.daemon_ok == self.red:
            lines.append(f"  daemon ok={self.daemon_ok}, oracle red={self.red}")
            lines += _shown("only in daemon", only_daemon)
            lines += _shown("only in oracle", only_oracle)
        if not lines:
            return []
        files = ", ".join(c.path for c in self.case.changes)
        return [f"{self.case.name}  (files: {files})", *lines]


def _shown(label: str, diagnostics: Sequence[Diagnostic]) -> list[str]:
    lines = [
        f"  {label}: {d.path}:{d.line}:{d.column} {d.severity} [{d.rule}] {d.message!r}"
        for d in diagnostics[:REPORT_LINES]
    ]
    if len(diagnostics) > REPORT_LINES:
        lines.append(f"  {label}: ... and {len(diagnostics) - REPORT_LINES} more")
    return lines


# --- judging ---------------------------------------------------------------------------------


ORACLE_THREADS = 2  # cold runs at a time; with the daemon's, enough to fill a 2-core machine


def _cold_base(tree: Path, python: str) -> list[Diagnostic]:
    return cold_pyright(tree, python, recorded=True)


def _oracle_case(
    base: Future[list[Diagnostic]], base_tree: Path, tree: Path, python: str
) -> list[Diagnostic]:
    try:
        candidate = cold_pyright(tree, python, recorded=True)
        return introduced_between(base_tree, base.result(), tree, candidate)
    finally:
        shutil.rmtree(tree)


def _oracle_both(
    base: Future[list[Diagnostic]], base_tree: Path, trees: tuple[Path, Path], python: str
) -> list[Diagnostic]:
    """A config patch: the whole patch, plus what the code alone adds under the old settings."""
    after = _oracle_case(base, base_tree, trees[0], python)
    before = _oracle_case(base, base_tree, trees[1], python)
    seen = {(d.path, d.line, d.column, d.rule, d.message) for d in after}
    hidden = [
        msgspec.structs.replace(d, message=d.message + BEFORE_NOTE)
        for d in before
        if (d.path, d.line, d.column, d.rule, d.message) not in seen
    ]
    return [*after, *hidden]


def _code_only(changes: Sequence[FileChange]) -> tuple[FileChange, ...] | None:
    """The patch without its checker configuration files, if it has code left to judge."""
    if not any(c.path in CONFIG_FILES for c in changes):
        return None
    rest = tuple(c for c in changes if c.path not in CONFIG_FILES)
    return rest if any(c.path.endswith(".py") for c in rest) else None


class Judge:
    """Each case by the daemon now, and by the oracle on copies of the tree as it is now.

    The copies are made before the daemon is asked, and the cold runs go on in the background
    while the test changes the disk for its next step: the daemon's checks (one at a time) and
    the oracle's runs (``ORACLE_THREADS`` at a time) overlap, keeping the file at a few minutes.
    """

    def __init__(self, client: Client, workload: Workload, pool: Executor, scratch: Path) -> None:
        self.client, self.workload, self.pool, self.scratch = client, workload, pool, scratch
        self._pending: list[tuple[Case, Future[list[Diagnostic]], CheckReply]] = []

    def step(self, label: str, *cases: Case) -> Future[list[Diagnostic]]:
        """Judge ``cases`` against the tree on disk now; returns the oracle's pending base."""
        root, python, n = self.workload.root, self.workload.python, len(self._pending)
        base_tree = write_patched_copy(root, (), self.scratch / f"base-{n}")
        trees = [
            write_patched_copy(root, c.changes, self.scratch / f"case-{n + i}")
            for i, c in enumerate(cases)
        ]
        # Submitted first, so it runs before any case's job waits for it.
        base = self.pool.submit(_cold_base, base_tree, python)
        for i, (case, tree) in enumerate(zip(cases, trees, strict=True)):
            rest = _code_only(case.changes)
            if rest is None:
                oracle = self.pool.submit(_oracle_case, base, base_tree, tree, python)
            else:
                code_tree = write_patched_copy(root, rest, self.scratch / f"code-{n + i}")
                both = (tree, code_tree)
                oracle = self.pool.submit(_oracle_both, base, base_tree, both, python)
            reply = self.client.check(root, case.changes, python=python, timeout_s=300)
            self._pending.append((replace(case, name=f"{label} | {case.name}"), oracle, reply))
        return base

    def outcomes(self) -> list[Outcome]:
        root = self.workload.root
        return [
            Outcome(case, oracle.result(), normalize_paths(reply.diagnostics, root), reply.ok)
            for case, oracle, reply in self._pending
        ]


@pytest.fixture
def judge(client: Client, workload: Workload, tmp_path: Path) -> Iterator[Judge]:
    with ThreadPoolExecutor(ORACLE_THREADS, thread_name_prefix="oracle") as pool:
        yield Judge(client, workload, pool, tmp_path / "scratch")


def assert_all_agree(judge: Judge) -> None:
    outcomes = judge.outcomes()
    report = "\n".join(line for o in outcomes for line in o.problems())
    bad = sum(bool(o.problems()) for o in outcomes)
    assert not report, f"{bad} of {len(outcomes)} cases judged differently:\n{report}"
    # A daemon (or oracle) that always answers green or always red must not pass.
    verdicts = Counter("red" if o.red else "green" for o in outcomes)
    assert verdicts["red"] >= MIN_EACH_VERDICT, verdicts
    assert verdicts["green"] >= MIN_EACH_VERDICT, verdicts


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
