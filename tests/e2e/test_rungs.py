"""``rungs``: a request runs a subset of the ladder; policy and anchor always run.

Real daemon, ruff and pyright, on the ladder test's repository (ruff configured, so format and
lint are on) and the apply test's (tests as a disk rung).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from prewrite import Client, change_file
from prewrite.errors import BadRequest, FindMismatch, UnverifiableExtension
from prewrite.protocol import CheckReply, FileChange
from tests.e2e.test_apply import make_repo
from tests.e2e.test_ladder import edit, write_repo

pytestmark = pytest.mark.e2e

# A new lint finding (F821) and a type error in one file: the full ladder stops at lint.
BOTH = "def total(xs: list[int]) -> int:\n    return sum(xs) + undefined_name\n\n\nx: str = 1\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_repo(tmp_path_factory.mktemp("rungs"))


def check(client: Client, root: Path, change: FileChange, rungs: list[str] | None) -> CheckReply:
    return client.check(root, [change], python=sys.executable, rungs=rungs)


def reports(reply: CheckReply) -> dict[str, tuple[str, str]]:
    return {r.rung: (r.outcome, r.detail) for r in reply.rungs}


def test_the_full_ladder_stops_at_lint(client: Client, repo: Path) -> None:
    reply = check(client, repo, change_file(repo, "pkg/core.py", BOTH), None)
    assert reply.failed_rung == "lint"
    assert [d.rule for d in reply.diagnostics] == ["F821"]


def test_typecheck_alone_skips_the_ruff_rungs_and_says_so(client: Client, repo: Path) -> None:
    reply = check(client, repo, change_file(repo, "pkg/core.py", BOTH), ["typecheck"])
    assert reply.failed_rung == "typecheck"
    assert {d.rule for d in reply.diagnostics} >= {"reportAssignmentType"}
    assert "F821" not in {d.rule for d in reply.diagnostics}
    got = reports(reply)
    assert (got["policy"][0], got["anchor"][0], got["typecheck"][0]) == ("pass", "pass", "fail")
    for rung in ("parse", "format", "lint"):
        assert got[rung] == ("skipped", "not requested"), rung
        assert f"{rung}: not requested" in reply.not_verified


def test_lint_alone_never_reaches_the_type_checker(client: Client, repo: Path) -> None:
    text = "x: str = 1\n"  # a type error only: lint passes, and no type check runs
    reply = check(client, repo, change_file(repo, "pkg/core.py", text), ["parse", "lint"])
    assert reply.ok, reply.diagnostics
    assert reports(reply)["typecheck"] == ("skipped", "not requested")
    assert reply.checked_files == []
    assert "typecheck: not requested" in reply.not_verified


def test_policy_and_anchor_run_even_when_not_named(client: Client, repo: Path) -> None:
    with pytest.raises(UnverifiableExtension):
        check(client, repo, FileChange("notes.txt", None, content="x"), ["typecheck"])
    with pytest.raises(FindMismatch):
        check(client, repo, edit(repo, "pkg/core.py", ("not in the file", "x")), ["lint"])
    # Naming them is allowed and changes nothing.
    reply = check(
        client, repo, edit(repo, "pkg/core.py", ("sum(xs)", "sum(xs) + 1")), ["policy", "anchor"]
    )
    assert reply.ok
    assert {r for r, (o, _) in reports(reply).items() if o == "pass"} == {"policy", "anchor"}


def test_an_unknown_rung_is_a_bad_request_naming_the_choices(client: Client, repo: Path) -> None:
    with pytest.raises(BadRequest) as caught:
        check(client, repo, edit(repo, "pkg/core.py", ("sum(xs)", "sum(xs)")), ["typo"])
    assert "typo" in str(caught.value)
    assert any("typecheck" in d.message for d in caught.value.details)


def test_apply_without_tests_writes_and_reports_them_not_requested(
    client: Client, tmp_path: Path
) -> None:
    root = make_repo(tmp_path / "apply")
    change = edit(root, "pkg/calc.py", ("a + b", "b + a"))
    reply = client.apply(root, [change], python=sys.executable, rungs=["typecheck"])
    assert reply.ok
    assert (root / "pkg/calc.py").read_text().endswith("return b + a\n")
    assert [(d.rung, d.outcome, d.output) for d in reply.disk] == [
        ("tests", "skipped", "not requested (rungs)")
    ]


def test_the_cli_takes_rungs_and_prints_its_version(repo: Path, tmp_path: Path) -> None:
    prewrite = str(Path(sys.executable).with_name("prewrite"))
    version = subprocess.run([prewrite, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("prewrite 0.")
    patch = tmp_path / "patch.json"
    change = change_file(repo, "pkg/core.py", BOTH)
    patch.write_text(json.dumps({"changes": [{"path": change.path,
                                              "base_sha256": change.base_sha256,
                                              "content": BOTH}]}))  # fmt: skip
    argv = [prewrite, "check", "--root", str(repo), "--patch", str(patch), "--no-autostart"]
    done = subprocess.run(
        [*argv, "--python", sys.executable, "--rungs", "typecheck"], capture_output=True, text=True
    )
    assert done.returncode == 1, done.stderr
    assert "reportAssignmentType" in done.stdout
    assert "lint skipped" in done.stdout
    assert "FAILED at typecheck" in done.stdout
    bad = subprocess.run([*argv, "--rungs", ","], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "name at least one rung" in bad.stderr
