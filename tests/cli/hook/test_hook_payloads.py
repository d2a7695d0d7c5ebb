"""``prewrite hook`` fed payloads built here, against the real daemon: a MultiEdit with replace_all,
an edit that anchors nowhere, a new file, unverifiable and forbidden files, other tools and garbage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.hook import run_hook
from tests.cli.hook.hook_helpers import context, payload

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.runtime import RuntimePaths


pytestmark = pytest.mark.e2e


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
