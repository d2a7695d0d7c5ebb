"""The overlay check on its own (``run_check`` on a real shadow, a fake backend): what the checker
is shown — modified files opened with their disk text changed and closed, only what the patch
introduced reported, new and deleted modules materialised or removed, announced and restored — and
which importers are pulled (the interface changed, import cycles reported, a body-only change).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite import change_file, delete_file, new_file
from prewrite_daemon.checker import plan_check, run_check
from prewrite_daemon.languages.python.language import PYTHON
from tests.unit.run_check_helpers import CORE, LONG_S, assert_clean, make_setup, watching

if TYPE_CHECKING:
    from pathlib import Path


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
