"""The overlay check on its own (``run_check`` on a real shadow, a fake backend): the base cache (a
second check does not pull the base again), the checker's scope (patched files outside it are
neither pulled nor verified, importers inside it still see them) and a new package's directory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite import change_file, new_file
from prewrite_daemon.checker import run_check
from tests.unit.run_check_helpers import CORE, FILES, LONG_S, assert_clean, make_setup

if TYPE_CHECKING:
    from pathlib import Path


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
