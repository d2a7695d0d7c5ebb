"""``prewrite check --diff`` / ``apply --diff``: real ``git diff`` output checked and applied by
the real daemon, as a user runs it (the console script) and in-process (``cli.main``).

The daemon is the session's. A diff is applied in the client to the files as they are, so a
file that changes between the read and the daemon's check is ``stale_base``, as for any patch.
"""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING

import pytest

from prewrite import cli
from prewrite.diffs import changes_from_diff
from prewrite.errors import StaleBase
from tests.cli.transcript import Cli
from tests.support.git_diffs import init_repo, staged_diff

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.client import Client
    from prewrite.runtime import RuntimePaths

pytestmark = pytest.mark.e2e

A_PY = "def f() -> int:\n    return 1\n"
B_PY = "from a import f\n\nx: int = f()\n"
RED_A = 'def f() -> str:\n    return "1"\n'  # breaks b.py, which the diff does not touch


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "shop", {"a.py": A_PY, "b.py": B_PY, "old.py": "z = 0\n"})


@pytest.fixture
def user(daemon: RuntimePaths) -> Cli:
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(daemon.runtime_dir))
    env.pop("PREWRITE_DAEMON_CMD", None)
    return Cli(daemon, env, timeout_s=180.0)


def test_a_red_diff_fails_where_it_breaks_and_writes_nothing(user: Cli, repo: Path) -> None:
    diff = repo.parent / "red.diff"
    diff.write_text(staged_diff(repo, {"a.py": RED_A}))
    t = user("check", "--root", str(repo), "--diff", str(diff))
    assert t.code == 1, t.err
    assert 'b.py:3:10: error: Type "str" is not assignable to declared type "int"' in t.out
    assert (repo / "a.py").read_text() == A_PY


def test_a_green_diff_from_stdin_is_applied_renames_included(user: Cli, repo: Path) -> None:
    diff = staged_diff(
        repo, {"a.py": A_PY.replace("1", "2"), "old.py": None, "new.py": "z = 0\n"}, "-M"
    )
    assert "rename from old.py" in diff
    t = user("apply", "--root", str(repo), "--diff", "-", stdin=diff)
    assert t.code == 0, t.err + t.out
    assert (repo / "a.py").read_text() == A_PY.replace("1", "2")
    assert not (repo / "old.py").exists()
    assert (repo / "new.py").read_text() == "z = 0\n"


def test_a_diff_that_does_not_match_is_an_error_naming_file_and_hunk(user: Cli, repo: Path) -> None:
    diff = staged_diff(repo, {"a.py": RED_A})
    (repo / "a.py").write_text(A_PY.replace("return 1", "return 11"))
    t = user("check", "--root", str(repo), "--diff", "-", stdin=diff)
    assert t.code == 2
    assert "prewrite: error [find_mismatch]: a.py: hunk 1 of 1 (@@ -1,2 +1,2 @@)" in t.err


def test_a_binary_diff_and_both_inputs_are_refused(user: Cli, repo: Path) -> None:
    binary = staged_diff(repo, {"logo.bin": b"\x00\x01"}, "--binary")
    t = user("check", "--root", str(repo), "--diff", "-", stdin=binary)
    assert (t.code, t.out) == (2, "")
    assert "[bad_request]" in t.err
    assert "binary" in t.err
    both = user("check", "--root", str(repo), "--diff", "-", "--patch", "-")
    assert both.code == 2
    assert "not allowed with argument" in both.err


def test_in_process_the_cli_reads_the_diff_and_notes_mode_changes(
    daemon: RuntimePaths,
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    diff = staged_diff(repo, {"a.py": RED_A}, chmod="b.py")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(diff.encode())))
    code = cli.main(["check", "--root", str(repo), "--diff", "-", "--no-autostart"])
    said = capsys.readouterr()
    assert code == 1, said.err
    assert "prewrite: note: b.py: mode change to 100755 ignored (contents only)" in said.err
    assert "b.py:3:10: error" in said.out


def test_a_file_changed_after_the_diff_was_read_is_a_stale_base(client: Client, repo: Path) -> None:
    patch = changes_from_diff(repo, staged_diff(repo, {"a.py": RED_A}))
    (repo / "a.py").write_text(A_PY + "\n")
    with pytest.raises(StaleBase):
        client.check(str(repo), patch.changes)
