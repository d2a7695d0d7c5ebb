"""The CLI as a new user meets it (issue 23), in-process (``prewrite.cli.main``) against the
session's daemon and the real pyright: an edit without a base, the exit status of ``apply`` by
what happened to the disk, one JSON object without wire tags or file contents, compiler-style
diagnostics, a skipped rung that says why, and ``prewrite status`` with its trust column."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from prewrite.cli import main
from tests.cli.test_cli_e2e import steady_status

if TYPE_CHECKING:
    from collections.abc import Iterator

    from prewrite.runtime import RuntimePaths

pytestmark = pytest.mark.e2e

A_PY = "def f() -> int:\n    return 1\n"
B_PY = "from a import f\n\nx: int = f()\n"
TEST_A = "from a import f\n\n\ndef test_f() -> None:\n    assert f() == 1\n"
RED_EDIT = {"find": "def f() -> int:\n    return 1", "replace": 'def f() -> str:\n    return "x"'}
GREEN_EDIT = {"find": "return 1", "replace": "return 2"}


def make_repo(root: Path, *, tests: bool = False) -> Path:
    root.mkdir(parents=True)
    (root / "a.py").write_text(A_PY)
    (root / "b.py").write_text(B_PY)
    if tests:
        (root / "test_a.py").write_text(TEST_A)
    return root.resolve()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository the session trusts (under its temporary trees)."""
    return make_repo(tmp_path / "repo", tests=True)


@pytest.fixture
def untrusted_repo() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="pw-cli-", dir="/tmp"))
    try:
        yield make_repo(base / "repo", tests=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def edit_patch(repo: Path, edit: dict[str, str]) -> Path:
    """An anchored edit of a.py with no base_sha256, as a model or a user writes it."""
    patch = repo.parent / "patch.json"
    patch.write_text(json.dumps({"changes": [{"path": "a.py", "edits": [edit]}]}))
    return patch


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def patch_cmd(command: str, repo: Path, patch: Path, *more: str) -> list[str]:
    return [command, "--root", str(repo), "--patch", str(patch), "--python", sys.executable, *more]


def test_an_edit_without_a_base_is_checked_against_the_disk_and_printed_as_a_compiler_does(
    daemon: RuntimePaths, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *patch_cmd("check", repo, edit_patch(repo, RED_EDIT)))
    assert code == 1, err
    head, continuation, *rest = out.splitlines()
    assert head.startswith("b.py:3:10: error: Type ")
    assert head.endswith(" [reportAssignmentType]")
    assert continuation.startswith("    ")
    assert "[" not in continuation
    assert not any(line.startswith("b.py") for line in rest)
    assert rest[-1].startswith("prewrite: FAILED at typecheck: 1 new error(s)")
    assert "off (off" not in out


def test_apply_exit_status_says_what_happened_to_the_disk(
    daemon: RuntimePaths, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *patch_cmd("apply", repo, edit_patch(repo, RED_EDIT)))
    assert code == 1, err
    assert out.endswith("prewrite: apply refused: nothing was written\n")
    assert (repo / "a.py").read_text() == A_PY

    code, out, err = run(capsys, *patch_cmd("apply", repo, edit_patch(repo, GREEN_EDIT)))
    assert code == 3, out  # written; test_a.py asserts f() == 1
    assert "prewrite: wrote a.py" in out
    assert "prewrite: tests: fail in " in out
    assert "  failed: test_a.py::test_f" in out
    assert out.endswith("prewrite: apply FAILED after the write: the files hold the patch\n")
    assert (repo / "a.py").read_text() == A_PY.replace("return 1", "return 2")


def test_apply_json_is_the_replys_fields_without_tags_or_contents(
    daemon: RuntimePaths, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "test_a.py").unlink()
    code, out, err = run(capsys, *patch_cmd("check", repo, edit_patch(repo, GREEN_EDIT), "--json"))
    assert code == 0, err
    checked = one_object(out)
    assert checked["ok"] is True
    assert "op" not in checked
    assert [f.get("content") for f in checked["files"]] == [None]

    patch = edit_patch(repo, GREEN_EDIT)
    code, out, err = run(capsys, *patch_cmd("apply", repo, patch, "--json", "--contents"))
    assert code == 0, err
    applied = one_object(out)
    assert "op" not in applied
    assert "op" not in applied["check"]
    assert [f["content"] for f in applied["check"]["files"]] == [A_PY.replace("1", "2")]
    assert [f["path"] for f in applied["written"]] == ["a.py"]


def test_an_untrusted_workspaces_tests_are_skipped_and_the_output_says_why(
    daemon: RuntimePaths, untrusted_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    patch = edit_patch(untrusted_repo, GREEN_EDIT)
    code, out, err = run(capsys, *patch_cmd("apply", untrusted_repo, patch))
    assert code == 0, err
    assert "prewrite: tests: skipped: the workspace is not trusted (prewrite trust ROOT)\n" in out
    assert "skipped in 0 ms" not in out


def test_no_formatter_is_said_once_not_as_a_pass(
    daemon: RuntimePaths, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *patch_cmd("check", repo, edit_patch(repo, GREEN_EDIT)))
    assert code == 0, err
    assert ", format off, " in out
    assert "prewrite: not verified: format: no formatter configured (the workspace has no" in out
    assert "review off (" not in out


def test_status_is_daemon_status_with_a_trust_column(
    daemon: RuntimePaths, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *patch_cmd("check", repo, edit_patch(repo, GREEN_EDIT)))[0] == 0
    code, out, err = run(capsys, "status")
    assert code == 0, err
    code_again, out_again, _ = run(capsys, "daemon", "status")
    assert (code_again, steady_status(out_again)) == (code, steady_status(out))
    header = next(line for line in out.splitlines() if line.startswith("TRUST"))
    assert header.split() == ["TRUST", "LANGUAGE", "CHECKER", "STATE", "CHECKS", "ROOT"]
    [row] = [line for line in out.splitlines() if line.endswith(f"  {repo}")]
    assert row.split()[:2] == ["trusted", "python"]

    code, out, err = run(capsys, "status", "--json")
    assert code == 0, err
    status = one_object(out)
    assert "op" not in status
    [ws] = [w for w in status["workspaces"] if w["root"] == str(repo)]
    assert ws["trusted"] is True


def one_object(out: str) -> dict[str, Any]:
    assert out.count("\n") == 1, out
    obj: dict[str, Any] = json.loads(out)
    return obj
