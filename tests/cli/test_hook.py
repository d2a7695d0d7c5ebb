"""``prewrite hook`` fed recorded Claude Code ``PreToolUse`` payloads, against the real daemon.

The payloads under ``tests/data/hook/`` are what Claude Code sends for each edit shape (Write,
Edit, Edit with replace_all, MultiEdit), with ``@ROOT@`` standing for the temporary repository.
Exit 2 refuses the edit and stderr is the reason the model reads; exit 0 lets it through, with
``additionalContext`` on stdout when there is something to tell. Daemons started here run in
their own runtime dirs and are stopped at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from prewrite.client import Client
from prewrite.hook import run_hook
from prewrite.runtime import RuntimePaths, read_status
from tests.cli.test_cli_e2e import wait_gone
from tests.cli.transcript import PREWRITE

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parent.parent / "data" / "hook"

MODELS = """\
from dataclasses import dataclass


@dataclass
class User:
    name: str
    age: int


def make_user(name: str, age: int) -> User:
    return User(name, age)


def label(user: User) -> str:
    return user.name


def title(user: User) -> str:
    return user.name
"""

SERVICE = """\
from pkg.models import User, make_user


def greet(user: User) -> str:
    return "hi " + user.name


def build() -> str:
    return greet(make_user("a", 1))
"""

FILES = {
    # [tool.ruff] turns the format rung on (its note is tested); lint is on by default
    "pyproject.toml": "[project]\nname = 'shop'\nversion = '0'\n\n[tool.ruff]\nline-length = 100\n",
    "pkg/__init__.py": "",
    "pkg/models.py": MODELS,
    "pkg/service.py": SERVICE,
}


@pytest.fixture(autouse=True)
def nothing_registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's roots are the repositories' tops only: the session's trust list (the whole
    temporary tree, for the daemon's sake) is not a root the hook may choose."""
    (tmp_path / "trusted").write_text("")
    monkeypatch.setenv("PREWRITE_TRUST_FILE", str(tmp_path / "trusted"))
    monkeypatch.delenv("PREWRITE_HOOK_ROOTS", raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)  # a repository: its top is the hook's workspace root
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def recorded(name: str, root: Path) -> bytes:
    return (DATA / name).read_text().replace("@ROOT@", str(root)).encode()


def payload(root: Path, tool: str, **tool_input: Any) -> bytes:
    return json.dumps(
        {"hook_event_name": "PreToolUse", "cwd": str(root), "tool_name": tool,
         "tool_input": tool_input, "session_id": "s", "transcript_path": "/dev/null"}
    ).encode()  # fmt: skip


def context(stdout: str) -> str:
    """The ``additionalContext`` the model reads (the only hook-specific output used)."""
    output = json.loads(stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "PreToolUse"
    assert "permissionDecision" not in output  # the user's own permission rules still decide
    return output["additionalContext"]


def test_a_write_that_breaks_a_type_in_its_file_is_refused(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, out, err = run_hook(recorded("write_breaks_type.json", repo), paths=daemon)
    assert code == 2, (out, err)
    assert err.startswith(
        "prewrite refused this Write of pkg/service.py: it introduces 1 error(s) in the file it "
        "edits (caught by the typecheck rung)."
    )
    assert "pkg/service.py:5:12: error: Type" in err
    assert "[reportReturnType]" in err
    assert (repo / "pkg/service.py").read_text() == SERVICE


def test_an_edit_whose_old_text_occurs_twice_is_refused_with_both_sites(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, _out, err = run_hook(recorded("edit_ambiguous.json", repo), paths=daemon)
    assert code == 2
    assert err.startswith("prewrite refused this Edit of pkg/models.py [find_ambiguous]")
    assert "include more surrounding lines to make it unique, or set replace_all" in err
    assert "matches 2 places" in err
    assert "line 15:     return user.name" in err
    assert "line 19:     return user.name" in err


def test_replace_all_is_expanded_and_allowed(daemon: RuntimePaths, repo: Path) -> None:
    code, out, err = run_hook(recorded("edit_replace_all.json", repo), paths=daemon)
    assert (code, out, err) == (0, "", "")


def test_a_rename_that_breaks_only_another_file_is_allowed_with_the_break_reported(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, out, err = run_hook(recorded("edit_rename.json", repo), paths=daemon)
    assert (code, err) == (0, "")
    said = context(out)
    assert said.startswith(
        "prewrite: this edit of pkg/models.py is allowed, but it introduces 1 error(s) in 1 "
        "other file(s)"
    )
    assert 'pkg/service.py:1:30: error: "make_user" is unknown import symbol' in said


def test_any_file_mode_refuses_the_same_rename(daemon: RuntimePaths, repo: Path) -> None:
    with (repo / "pyproject.toml").open("a") as f:
        f.write('\n[tool.prewrite.hook]\nblock = "any-file"\n')
    code, _out, err = run_hook(recorded("edit_rename.json", repo), paths=daemon)
    assert code == 2
    assert "pkg/service.py:1:30: error:" in err


def test_a_bad_hook_setting_refuses_and_names_it(daemon: RuntimePaths, repo: Path) -> None:
    with (repo / "pyproject.toml").open("a") as f:
        f.write('\n[tool.prewrite.hook]\nblock = "sometimes"\n')
    code, _out, err = run_hook(recorded("edit_rename.json", repo), paths=daemon)
    assert code == 2
    assert "block must be one of edited-file, any-file, never" in err


def test_a_syntactically_broken_edit_is_refused(daemon: RuntimePaths, repo: Path) -> None:
    code, _out, err = run_hook(recorded("edit_syntax_error.json", repo), paths=daemon)
    assert code == 2
    assert "caught by the parse rung" in err
    assert "pkg/models.py:11:" in err


def test_a_multiedit_applies_its_edits_in_order(daemon: RuntimePaths, repo: Path) -> None:
    code, out, err = run_hook(recorded("multiedit.json", repo), paths=daemon)
    assert (code, out, err) == (0, "", "")


def test_a_multiedit_with_replace_all_is_applied_here_and_checked(
    daemon: RuntimePaths, repo: Path
) -> None:
    edits = [
        {"old_string": "user.name", "new_string": "user.age", "replace_all": True},
        {"old_string": "def title(", "new_string": "def heading("},
    ]
    data = payload(repo, "MultiEdit", file_path=str(repo / "pkg/models.py"), edits=edits)
    code, _out, err = run_hook(data, paths=daemon)
    assert code == 2  # label() and title() now return an int where a str is declared
    assert err.count("[reportReturnType]") == 2


def test_an_edit_that_anchors_nowhere_names_the_closest_lines(
    daemon: RuntimePaths, repo: Path
) -> None:
    data = payload(
        repo, "Edit", file_path=str(repo / "pkg/models.py"),
        old_string="def make_usr(name: str, age: int) -> User:", new_string="x",
    )  # fmt: skip
    code, _out, err = run_hook(data, paths=daemon)
    assert code == 2
    assert "[find_mismatch]" in err
    assert "line 10 (" in err
    assert "def make_user(name: str, age: int) -> User:" in err


def test_a_new_file_is_checked_and_an_unformatted_one_is_noted(
    daemon: RuntimePaths, repo: Path
) -> None:
    data = payload(repo, "Write", file_path=str(repo / "pkg/extra.py"), content="x  =  1\n")
    code, out, err = run_hook(data, paths=daemon)
    assert (code, err) == (0, "")
    said = context(out)
    assert said == "prewrite: ruff format would reformat pkg/extra.py; consider formatting it."


def test_unverifiable_files_pass_with_a_note_and_forbidden_ones_are_refused(
    daemon: RuntimePaths, repo: Path, tmp_path: Path
) -> None:
    notes = payload(repo, "Write", file_path=str(repo / "notes.txt"), content="shop\n")
    code, out, err = run_hook(notes, paths=daemon)
    assert (code, err) == (0, "")
    assert context(out).startswith("prewrite: notes.txt not verified (unverifiable_extension")

    secrets = payload(repo, "Write", file_path=str(repo / ".env"), content="TOKEN=x\n")
    code, out, err = run_hook(secrets, paths=daemon)
    assert (code, out) == (2, "")
    assert "[forbidden_path]" in err

    outside = tmp_path / "elsewhere" / "notes.py"
    loose = payload(repo, "Write", file_path=str(outside), content="x = 1\n")
    code, out, err = run_hook(loose, paths=daemon)
    assert (code, out) == (2, "")  # in no repository, under no registered root: fail closed
    assert "in no repository (no .git above it) and under no root the user registered" in err


def test_other_tools_pass_and_garbage_is_refused(daemon: RuntimePaths, repo: Path) -> None:
    bash = payload(repo, "Bash", command="ls")
    assert run_hook(bash, paths=daemon) == (0, "", "")

    code, out, err = run_hook(b"this is not json", paths=daemon)
    assert (code, out) == (2, "")
    assert "not a PreToolUse payload" in err

    truncated = payload(repo, "Edit", file_path=str(repo / "pkg/models.py"))
    code, _out, err = run_hook(truncated, paths=daemon)
    assert code == 2
    assert "unexpected Edit input" in err
    assert "old_string" in err


@pytest.fixture
def private_runtime() -> Iterator[RuntimePaths]:
    """A runtime dir of this test's own; a daemon started in it is stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="pw-", dir="/tmp") as d:
        paths = RuntimePaths(Path(d) / "run")
        try:
            yield paths
        finally:
            status = read_status(paths)
            if status is not None:
                with Client(paths=paths, autostart=False) as c:
                    c.stop()
                assert wait_gone(status.pid, 30.0)


def test_a_daemon_that_is_down_is_started(private_runtime: RuntimePaths, repo: Path) -> None:
    assert read_status(private_runtime) is None
    code, out, err = run_hook(recorded("multiedit.json", repo), paths=private_runtime)
    assert (code, out, err) == (0, "", "")
    assert read_status(private_runtime) is not None


def test_without_autostart_a_missing_daemon_refuses(
    private_runtime: RuntimePaths, repo: Path
) -> None:
    code, _out, err = run_hook(
        recorded("multiedit.json", repo), autostart=False, paths=private_runtime
    )
    assert code == 2
    assert "[daemon_unavailable]" in err
    assert "fails closed" in err


def test_a_daemon_that_cannot_start_refuses_the_edit(
    private_runtime: RuntimePaths, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREWRITE_DAEMON_CMD", "false")  # the launcher exits 1
    code, _out, err = run_hook(recorded("multiedit.json", repo), paths=private_runtime)
    assert code == 2
    assert "[daemon_unavailable]" in err
    assert "the daemon did not start (launcher exit code 1)" in err


def test_an_unusable_runtime_dir_refuses_the_edit(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    unusable = RuntimePaths(tmp_path / "file" / "run")  # under a regular file: cannot exist
    code, out, err = run_hook(recorded("multiedit.json", repo), paths=unusable)
    assert (code, out) == (2, "")
    assert "prewrite hook failed (NotADirectoryError" in err


def _hook_command() -> list[str]:
    wired = subprocess.run(
        [PREWRITE, "hook", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    if wired.returncode == 0:
        return [PREWRITE, "hook"]
    return [sys.executable, "-c", "import sys; from prewrite.hook import main; sys.exit(main())"]


def test_the_hook_as_a_process(daemon: RuntimePaths, repo: Path) -> None:
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(daemon.runtime_dir))
    env.pop("PREWRITE_DAEMON_CMD", None)
    done = subprocess.run(
        _hook_command(),
        input=recorded("write_breaks_type.json", repo),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert b"pkg/service.py:5:12: error: Type" in done.stderr
