"""The overlay check on its own: ``run_check``/``plan_check`` on a real shadow, a fake backend.

The fake (``tests.support.fake_backend``) is the ``Backend`` protocol's second witness: it keeps
the open documents, records every call and answers pulls from a toy checker, so these tests see
exactly what the checker was shown (overlays, materialised and removed modules, file events), what
the reply keeps (only what the patch introduced), and that a failure, a cancellation or a deadline
leaves no overlay behind. The candidate is pulled first (the patched files while the plan is
made), the base only for files whose candidate has diagnostics, once the overlays are reverted.
No pyright, no sleeps: a hang is awaited through the fake's event.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, delete_file, new_file
from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.check.patch import prepare_patch
from prewrite_daemon.check.scope import CheckerScope
from prewrite_daemon.checker import CheckContext, plan_check, run_check
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.shadow.tree import ShadowTree
from tests.support.fake_backend import FakeBackend, toy_check
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite.protocol import FileChange
    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.languages.base import DependencyGraph

CORE = 'def helper(x: int) -> int:\n    return x + 1\n\n\nLEGACY = "BAD"\n'
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": CORE,
    "pkg/user.py": "from pkg.core import helper\n\n\ndef use() -> int:\n    return helper(1)\n",
    "pkg/other.py": "VALUE = 1\n",
}
LONG_S = 60.0  # a deadline no test reaches


@dataclass
class Setup:
    root: Path
    shadow: ShadowTree
    fake: FakeBackend
    ctx: CheckContext
    graph: DependencyGraph

    def patch(self, *changes: FileChange) -> PreparedPatch:
        return prepare_patch(self.root, list(changes))

    def path(self, rel: str) -> str:
        return self.shadow.shadow_path(rel)


def make_setup(
    tmp_path: Path,
    files: dict[str, str] = FILES,
    scope: dict[str, list[str]] | None = None,
    cycles: bool = False,
) -> Setup:
    root = tmp_path / "ws"
    root.mkdir()
    write(root, files)
    root = root.resolve()
    shadow = ShadowTree(root, tmp_path / "shadow", PYTHON.is_mirrored)
    shadow.create()
    # reportImportCycles off, as a layout naming nothing says (``checker._checked_again``)
    graph = NameGraph(None, report_import_cycles=cycles)
    for rel, text in files.items():
        graph.update(rel, text)
    fake = FakeBackend(shadow.shadow_root)
    checker_scope = None if scope is None else CheckerScope.from_settings(dict(scope), root)
    ctx = CheckContext(PYTHON, shadow, graph, fake, {}, checker_scope)
    return Setup(root, shadow, fake, ctx, graph)


def files_of(top: Path) -> dict[str, bytes]:
    return {p.relative_to(top).as_posix(): p.read_bytes() for p in top.rglob("*") if p.is_file()}


def assert_clean(s: Setup) -> None:
    """No document left open, and the shadow holds exactly the workspace's bytes."""
    assert s.fake.docs == {}
    assert files_of(s.shadow.shadow_root) == files_of(s.root)


def watching(
    probe: Callable[[], object], seen: list[object]
) -> Callable[[str, str, Callable[[str], str | None]], list[RawDiagnostic]]:
    """The toy checker, noting ``probe()`` at every pull (what the shadow held at that moment)."""

    def script(rel: str, text: str, view: Callable[[str], str | None]) -> list[RawDiagnostic]:
        seen.append(probe())
        return toy_check(rel, text, view)

    return script


# --- (1) overlays and the diff ------------------------------------------------------------------


async def test_a_modified_file_is_opened_with_disk_text_changed_and_closed(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    # Two lines on top shift the pre-existing BAD; one new BAD at the end.
    candidate = '"""Doc."""\nimport os\n' + CORE + 'NEW = "BAD"\n'
    reply = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", candidate)), LONG_S)

    core = s.path("pkg/core.py")
    # The candidate, then (it has diagnostics) the base, as the disk has it, once reverted.
    assert s.fake.kinds(core) == ["open", "change", "pull", "close", "open", "pull", "close"]
    texts = [c.text for c in s.fake.calls if c.path == core and c.kind != "close"]
    assert texts == [CORE, candidate, candidate, CORE, CORE]
    assert [(d.path, d.line, d.rule) for d in reply.diagnostics] == [("pkg/core.py", 8, "fake-bad")]
    assert not reply.ok
    # user.py uses only ``helper``, which the patch leaves alone: nothing it sees changed.
    assert reply.checked_files == ["pkg/core.py"]
    assert_clean(s)


async def test_only_what_the_patch_introduced_is_reported(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    candidate = "# moved down a line\n" + CORE  # the pre-existing BAD only shifts
    reply = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", candidate)), LONG_S)
    assert reply.ok
    assert reply.diagnostics == []
    assert s.ctx.base_cache["pkg/core.py"][0].line == 5  # the base did see it


# --- (2) new and deleted modules --------------------------------------------------------------


async def test_a_new_module_is_materialised_announced_and_removed(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    extra = s.shadow.shadow_root / "pkg/extra.py"
    on_disk: list[object] = []
    s.fake.script = watching(extra.is_file, on_disk)
    user = "from pkg.extra import more\n\nVALUE = more()\n"
    patch = s.patch(
        new_file("pkg/extra.py", "def more() -> int:\n    return 2\n"),
        change_file(s.root, "pkg/user.py", user),
    )
    reply = await run_check(s.ctx, patch, LONG_S)

    assert reply.ok, reply.diagnostics
    assert s.fake.pulled().count("pkg/extra.py") == 1  # a new file has no base
    assert on_disk[-1] is True  # present while the candidate was judged
    assert s.fake.announced() == [("pkg/extra.py", "created"), ("pkg/extra.py", "deleted")]
    first_pull = s.fake.calls.index(next(c for c in s.fake.calls if c.path == str(extra)))
    created = next(i for i, c in enumerate(s.fake.calls) if c.kind == "files_changed")
    assert created < first_pull
    assert not extra.exists()
    assert_clean(s)


async def test_a_deleted_module_is_removed_announced_and_restored(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    core = s.shadow.shadow_root / "pkg/core.py"
    on_disk: list[object] = []
    s.fake.script = watching(core.is_file, on_disk)
    reply = await run_check(s.ctx, s.patch(delete_file(s.root, "pkg/core.py")), LONG_S)

    assert [(d.path, d.line, d.rule) for d in reply.diagnostics] == [
        ("pkg/user.py", 1, "fake-missing-module")
    ]
    assert s.fake.pulled() == ["pkg/user.py", "pkg/user.py"]  # the deleted file is not judged
    assert on_disk == [False, True]  # candidate without it, base with it
    assert s.fake.announced() == [("pkg/core.py", "deleted"), ("pkg/core.py", "created")]
    assert core.read_text() == CORE
    assert_clean(s)


# --- (3) which importers are pulled ------------------------------------------------------------


async def test_importers_are_pulled_when_the_interface_changes(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    renamed = CORE.replace("def helper", "def helper2")
    patch = s.patch(change_file(s.root, "pkg/core.py", renamed))
    assert plan_check(patch, s.graph, PYTHON).checked == ("pkg/core.py", "pkg/user.py")

    reply = await run_check(s.ctx, patch, LONG_S)
    assert sorted(s.fake.pulled()) == ["pkg/core.py"] * 2 + ["pkg/user.py"] * 2
    # The importer was judged against the candidate of the module it imports.
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("pkg/user.py", "fake-missing-name")]
    assert_clean(s)


async def test_with_import_cycles_reported_the_patched_file_is_pulled_again_with_importers_open(
    tmp_path: Path,
) -> None:
    """pyright's cycle report follows open files only: the patched file, pulled while the plan
    is made, is checked again once its importers are open (fuzz seed 10096, a wrong green)."""
    s = make_setup(tmp_path, cycles=True)
    renamed = CORE.replace("def helper", "def helper2")
    patch = s.patch(change_file(s.root, "pkg/core.py", renamed))
    reply = await run_check(s.ctx, patch, LONG_S)
    # candidate twice (before and after the importer opened), then both bases
    assert sorted(s.fake.pulled()) == ["pkg/core.py"] * 3 + ["pkg/user.py"] * 2
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("pkg/user.py", "fake-missing-name")]
    assert_clean(s)


async def test_importers_are_not_pulled_for_a_body_only_change(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    body = CORE.replace("x + 1", "x + 2")
    patch = s.patch(change_file(s.root, "pkg/core.py", body))
    assert plan_check(patch, s.graph, PYTHON).checked == ("pkg/core.py",)

    reply = await run_check(s.ctx, patch, LONG_S)
    assert s.fake.pulled() == ["pkg/core.py", "pkg/core.py"]
    assert s.fake.kinds(s.path("pkg/user.py")) == []
    assert reply.ok
    assert_clean(s)


# --- (4, 5, 6) failure, cancellation and a deadline all revert ---------------------------------


def busy_patch(s: Setup) -> PreparedPatch:
    """A modified module (interface changed), a new one and a deleted one.

    Pulls 1-2 are the patched files' candidate (core, extra), pull 3 the importer's (user), pull
    4 the base of core (its candidate still holds LEGACY's BAD; the others' are clean).
    """
    return s.patch(
        change_file(s.root, "pkg/core.py", CORE.replace("(x: int)", "(x: int, y: int = 0)")),
        new_file("pkg/extra.py", "EXTRA = 1\n"),
        delete_file(s.root, "pkg/other.py"),
    )


PULLS = pytest.mark.parametrize("pull", [1, 3, 4], ids=["patched", "importer", "base"])


async def test_the_busy_patch_pulls_as_numbered(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    reply = await run_check(s.ctx, busy_patch(s), LONG_S)
    assert s.fake.pulled() == ["pkg/core.py", "pkg/extra.py", "pkg/user.py", "pkg/core.py"]
    assert reply.ok, reply.diagnostics
    assert s.ctx.base_cache.keys() == {"pkg/core.py"}
    assert_clean(s)


@PULLS
async def test_a_failed_pull_propagates_and_reverts(tmp_path: Path, pull: int) -> None:
    s = make_setup(tmp_path)
    s.fake.fail_on_pull = pull
    with pytest.raises(BackendFailed, match=f"pull {pull}"):
        await run_check(s.ctx, busy_patch(s), LONG_S)
    assert_clean(s)
    assert s.ctx.base_cache == {}


@PULLS
async def test_a_cancelled_check_reverts(tmp_path: Path, pull: int) -> None:
    s = make_setup(tmp_path)
    s.fake.hang_on_pull = pull
    task = asyncio.create_task(run_check(s.ctx, busy_patch(s), LONG_S))
    await s.fake.hanging.wait()
    overlaid = (s.shadow.shadow_root / "pkg/extra.py").exists()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert overlaid == (pull < 4)  # the revert had something to undo (the base has none)
    assert_clean(s)


@PULLS
async def test_a_deadline_during_a_pull_is_a_timeout_and_reverts(tmp_path: Path, pull: int) -> None:
    s = make_setup(tmp_path)
    s.fake.hang_on_pull = pull
    with pytest.raises(CheckTimeout):
        await run_check(s.ctx, busy_patch(s), 0.2)
    assert s.fake.hanging.is_set()
    assert_clean(s)


# --- (7) the base cache -------------------------------------------------------------------------


async def test_a_second_check_of_the_same_files_does_not_pull_the_base_again(
    tmp_path: Path,
) -> None:
    s = make_setup(tmp_path)
    candidate = CORE.replace("def helper", "def helper2")
    first = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", candidate)), LONG_S)
    assert len(s.fake.pulled()) == 4
    s.fake.calls.clear()

    second = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", candidate)), LONG_S)
    assert sorted(s.fake.pulled()) == ["pkg/core.py", "pkg/user.py"]  # the candidate only
    assert s.fake.kinds(s.path("pkg/core.py")) == ["open", "change", "pull", "close"]
    assert second.diagnostics == first.diagnostics
    assert_clean(s)


# --- (8) the checker's scope --------------------------------------------------------------------


async def test_a_patched_file_outside_the_scope_is_not_pulled_and_not_verified(
    tmp_path: Path,
) -> None:
    files = {**FILES, "tools/script.py": "print(1)\n"}
    s = make_setup(tmp_path, files, scope={"include": ["pkg"]})
    patch = s.patch(
        change_file(s.root, "tools/script.py", 'print("BAD")\n'),
        change_file(s.root, "pkg/other.py", "VALUE = 2\n"),
    )
    reply = await run_check(s.ctx, patch, LONG_S)

    assert "tools/script.py" not in s.fake.pulled()
    assert reply.checked_files == ["pkg/other.py"]
    assert reply.ok
    assert len(reply.not_verified) == 1
    assert "tools/script.py" in reply.not_verified[0]
    assert_clean(s)


# --- what looked wrong in checker.py ------------------------------------------------------------


async def test_an_importer_in_scope_sees_a_modified_module_outside_the_scope(
    tmp_path: Path,
) -> None:
    files = {
        **FILES,
        "tools/__init__.py": "",
        "tools/lib.py": "def thing() -> int:\n    return 1\n",
        "pkg/uses_tools.py": "from tools.lib import thing\n\nVALUE = thing()\n",
    }
    s = make_setup(tmp_path, files, scope={"include": ["pkg"]})
    patch = s.patch(change_file(s.root, "tools/lib.py", "def other() -> int:\n    return 1\n"))
    reply = await run_check(s.ctx, patch, LONG_S)
    assert "pkg/uses_tools.py" in reply.checked_files  # the importer is judged...
    assert_clean(s)
    assert not reply.ok  # ...but against tools/lib.py as it was on disk


async def test_a_new_package_leaves_no_directory_in_the_shadow(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    reply = await run_check(s.ctx, s.patch(new_file("newpkg/mod.py", "X = 1\n")), LONG_S)
    assert reply.ok
    assert_clean(s)
    assert not (s.shadow.shadow_root / "newpkg").exists()


# --- the first check's order: candidate while planning, base only where needed ----------------


async def test_a_clean_candidate_needs_no_base(tmp_path: Path) -> None:
    s = make_setup(tmp_path, {**FILES, "pkg/core.py": CORE.replace('"BAD"', '"OK"')})
    patch = s.patch(change_file(s.root, "pkg/other.py", "VALUE = 2\n"))
    reply = await run_check(s.ctx, patch, LONG_S)
    assert reply.ok
    assert s.fake.pulled() == ["pkg/other.py"]  # one pass: nothing to compare it with
    assert s.ctx.base_cache == {}
    assert_clean(s)


def gated_graph(s: Setup, calls: list[str]) -> tuple[asyncio.Event, asyncio.Event]:
    """``s.ctx`` gets its graph only once the second event is set (a graph being built); the
    first is set when the check asks for it."""
    asked, built = asyncio.Event(), asyncio.Event()

    async def ready() -> DependencyGraph:
        calls.append("graph asked")
        asked.set()
        await built.wait()
        calls.append("graph given")
        return s.graph

    s.ctx.graph, s.ctx.graph_ready = None, ready
    return asked, built


async def test_the_patched_files_are_pulled_while_the_graph_is_built(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    calls: list[str] = []
    _, built = gated_graph(s, calls)
    first_pull = asyncio.Event()

    def script(rel: str, text: str, view: Callable[[str], str | None]) -> list[RawDiagnostic]:
        calls.append(f"pull {rel}")
        first_pull.set()
        return toy_check(rel, text, view)

    s.fake.script = script
    renamed = CORE.replace("def helper", "def helper2")
    task = asyncio.create_task(
        run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", renamed)), LONG_S)
    )
    await first_pull.wait()
    built.set()
    reply = await task
    # The patched file before the graph was given; the importer the plan adds after it.
    assert calls.index("pull pkg/core.py") < calls.index("graph given")
    assert calls[calls.index("graph given") + 1 :] == [
        "pull pkg/user.py",
        "pull pkg/core.py",  # then the bases, where the candidate has diagnostics
        "pull pkg/user.py",
    ]
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("pkg/user.py", "fake-missing-name")]
    assert_clean(s)


async def test_a_patch_that_may_lay_data_is_pulled_once_planned(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    calls: list[str] = []
    asked, built = gated_graph(s, calls)
    s.fake.script = watching(lambda: calls.append("pull"), [])
    patch = s.patch(
        change_file(s.root, "pkg/other.py", "VALUE = 2\n"), new_file("pkg/data.json", "{}\n")
    )
    task = asyncio.create_task(run_check(s.ctx, patch, LONG_S))
    await asked.wait()
    assert "pull" not in calls  # a data file a source imports must be laid first
    built.set()
    assert (await task).ok
    assert calls == ["graph asked", "graph given", "pull"]
    assert_clean(s)


async def test_a_body_edit_is_judged_without_waiting_for_the_graph(tmp_path: Path) -> None:
    s = make_setup(tmp_path)
    calls: list[str] = []
    gated_graph(s, calls)  # never built during this check
    body = CORE.replace("x + 1", "x + 2")
    reply = await run_check(s.ctx, s.patch(change_file(s.root, "pkg/core.py", body)), LONG_S)
    assert reply.ok
    assert calls == []  # the graph was never asked for
    assert s.ctx.plan is not None
    assert s.ctx.plan.pruned_later  # what it pruned (user.py) is the graph's to say, later
    assert_clean(s)
