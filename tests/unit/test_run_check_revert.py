"""The overlay check on its own (``run_check`` on a real shadow, a fake backend): a failed pull, a
cancellation and a deadline during a pull all leave no overlay behind. No sleeps: a hang is awaited
through the fake's event, and the deadline's clock is frozen where only the pull may run out.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file, delete_file, new_file
from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon import limits
from prewrite_daemon.checker import run_check
from tests.unit.run_check_helpers import CORE, LONG_S, Setup, assert_clean, make_setup

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch


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
async def test_a_deadline_during_a_pull_is_a_timeout_and_reverts(
    tmp_path: Path, pull: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The check's clock stands still, so its 0.2 s cannot run out in the work before the pull
    # (overlays, planning: slow on a loaded CI machine); the pull is handed 0.2 s and the fake
    # hangs past it, as a checker that never answers does.
    monkeypatch.setattr(limits, "time", SimpleNamespace(monotonic=lambda: 0.0))
    s = make_setup(tmp_path)
    s.fake.hang_on_pull = pull
    with pytest.raises(CheckTimeout):
        await run_check(s.ctx, busy_patch(s), 0.2)
    assert s.fake.hanging.is_set()
    assert_clean(s)
