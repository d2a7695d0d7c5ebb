"""Issue 20, items 4, 16 and 18, through the real daemon: the trust boundary holds whatever path
names the interpreter, a trusted folder replaced is no longer trusted, and a root whose trust
changes keeps one checker.

The repositories are ``test_trust``'s booby-trapped ones: their ``python`` and ``ruff`` and a
``.pth`` file each leave a marker when run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from prewrite.trust import set_trusted
from tests.cli.test_cli_e2e import wait_gone
from tests.e2e.test_trust import BAD, trapped_repo
from tests.support.setups import venv_python

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from prewrite import Client
    from prewrite.protocol import CheckReply, WorkspaceStatus

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


@pytest.fixture
def outside() -> Iterator[Path]:
    """A directory outside the session's trusted trees."""
    base = Path(tempfile.mkdtemp(prefix="pw-boundary-", dir="/tmp")).resolve()
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _repo(base: Path) -> tuple[Path, Path]:
    markers = base / "markers"
    markers.mkdir(parents=True)
    root = trapped_repo(base, markers)
    (root / ".git").mkdir()
    return root, markers


def _ran(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


def _check(client: Client, root: Path, python: str) -> CheckReply:
    return client.check(root, [change_file(root, "app.py", BAD)], python=python)


def _statuses(client: Client, root: Path) -> list[WorkspaceStatus]:
    return [w for w in client.status().workspaces if w.root == str(root) and w.language == "python"]


# --- item 4: the repository's interpreter by another path ------------------------------------


def _link_outside(root: Path, base: Path) -> str:
    (base / "elsewhere").mkdir()
    (base / "elsewhere" / "python").symlink_to(venv_python(root))
    return str(base / "elsewhere" / "python")


def _linked_root(root: Path, base: Path) -> str:
    (base / "alias").symlink_to(root, target_is_directory=True)
    return str(base / "alias" / ".venv" / "bin" / "python")


def _proc_self_cwd(root: Path, base: Path) -> str:
    del base
    return "/proc/self/cwd" + venv_python(root)  # the daemon's directory is "/"


def _dot_dot(root: Path, base: Path) -> str:
    del base
    return str(root / ".venv" / "bin" / ".." / ".." / ".venv" / "bin" / "python")


NAMINGS: dict[str, Callable[[Path, Path], str]] = {
    "link_outside_the_root": _link_outside,
    "the_root_through_a_linked_directory": _linked_root,
    "proc_self_cwd": _proc_self_cwd,
    "dot_dot": _dot_dot,
}


@pytest.mark.parametrize("naming", sorted(NAMINGS))
def test_an_untrusted_roots_interpreter_never_runs_by_another_path(
    client: Client, outside: Path, naming: str
) -> None:
    root, markers = _repo(outside / "a")
    python = NAMINGS[naming](root, outside)
    reply = _check(client, root, python)
    assert _ran(markers) == []
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("app.py", "reportAssignmentType")]
    assert any("interpreter: read from disk, not run" in n for n in reply.not_verified)


def test_another_untrusted_repositorys_venv_never_runs(client: Client, outside: Path) -> None:
    """Checked untrusted or trusted, a workspace named with another repository's interpreter
    (one the daemon never saw) reads that venv and runs nothing of it."""
    root, markers = _repo(outside / "a")
    other, other_markers = _repo(outside / "b")
    reply = _check(client, root, venv_python(other))
    assert (_ran(markers), _ran(other_markers)) == ([], [])
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("app.py", "reportAssignmentType")]


def test_a_trusted_root_does_not_run_an_untrusted_repositorys_venv(
    client: Client, outside: Path, tmp_path: Path
) -> None:
    other, other_markers = _repo(outside / "b")
    root, markers = _repo(tmp_path / "trusted")  # under the session's trusted trees
    reply = _check(client, root, venv_python(other))
    assert _ran(other_markers) == []
    assert _ran(markers) == []  # its own python is not the one named
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("app.py", "reportAssignmentType")]


def test_a_trusted_roots_tests_never_run_an_untrusted_repositorys_venv(
    client: Client, outside: Path, tmp_path: Path
) -> None:
    """``apply`` in a trusted root runs its tests with the interpreter named: when that is
    another repository's, the tests rung is skipped and says why (nothing of it runs)."""
    other, other_markers = _repo(outside / "b")
    root, markers = _repo(tmp_path / "trusted")
    good = "from extpkg import e\n\nx: str = e() + '!'\n"
    reply = client.apply(root, [change_file(root, "app.py", good)], python=venv_python(other))
    assert reply.ok, reply
    [tests] = [d for d in reply.disk if d.rung == "tests"]
    assert tests.outcome == "skipped"
    assert "another repository's code" in tests.output
    assert (_ran(markers), _ran(other_markers)) == ([], [])


# --- item 16: trust is given to a directory, not to its name --------------------------------


def _replace(root: Path) -> None:
    """The folder deleted and made again under its name (the old one is moved away first, so
    the new one cannot get its inode number back)."""
    old = root.with_name(root.name + ".old")
    os.rename(root, old)
    shutil.copytree(old, root, symlinks=True)
    shutil.rmtree(old)


def test_a_trusted_folder_replaced_is_untrusted_until_trusted_again(
    client: Client, outside: Path, trusted_test_trees: Path
) -> None:
    root, markers = _repo(outside / "a")
    set_trusted(root, True, trusted_test_trees)
    try:
        _check(client, root, venv_python(root))
        assert "python" in _ran(markers)
        _replace(root)
        for marker in markers.iterdir():
            marker.unlink()
        reply = _check(client, root, venv_python(root))
        assert _ran(markers) == []
        note = next(n for n in reply.not_verified if n.startswith("untrusted workspace"))
        assert f"the trusted folder {root} was replaced since it was trusted" in note
        assert [w.trusted for w in _statuses(client, root)] == [False]
        set_trusted(root, True, trusted_test_trees)
        reply = _check(client, root, venv_python(root))
        assert "python" in _ran(markers)
        assert not any(n.startswith("untrusted") for n in reply.not_verified)
    finally:
        set_trusted(root, False, trusted_test_trees)


# --- item 18: one checker per root, whatever its trust -----------------------------------------


def test_trusting_a_root_stops_its_untrusted_checker(
    client: Client, outside: Path, trusted_test_trees: Path
) -> None:
    root, _markers = _repo(outside / "a")
    _check(client, root, venv_python(root))
    [before] = _statuses(client, root)
    assert (before.trusted, before.backend_state) == (False, "running")
    assert before.server_pid is not None
    set_trusted(root, True, trusted_test_trees)
    try:
        _check(client, root, venv_python(root))
        [after] = _statuses(client, root)
        assert (after.trusted, after.backend_state) == (True, "running")
        assert after.server_pid != before.server_pid
        assert wait_gone(before.server_pid, 30.0)  # the untrusted pyright is stopped
    finally:
        set_trusted(root, False, trusted_test_trees)
    _check(client, root, venv_python(root))  # and back: the trusted one goes in turn
    assert [w.trusted for w in _statuses(client, root)] == [False]
