"""A patch cannot rewrite the rules that judge it (issue 9, scenario 6), end to end.

Real daemon, real ruff, real files. ``[tool.prewrite]`` is the ladder: a patch that changes it is
refused unless the workspace on disk opts in; a patch that changes ruff's configuration is judged
under the configuration before it and after it, so relaxing the linter does not hide the patch's
own finding. The type check is off in these repositories (it is not what they are about).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file, new_file
from prewrite.errors import ForbiddenPath

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import CheckReply, FileChange

pytestmark = pytest.mark.e2e

PYPROJECT = """[project]
name = "judged"
version = "0"
dependencies = []

[tool.ruff]
line-length = 100

[tool.ruff.lint]
select = ["E", "F"]

[tool.prewrite]
typecheck = false
tests = false
"""
CORE = "def total(xs: list[int]) -> int:\n    return sum(xs)\n"
# The exact widening of issue 9: CI config, dependencies, and a shell that `finish` would run.
WIDENED = PYPROJECT + (
    'allow = [".github/*"]\n'
    "allow_dependency_changes = true\n"
    'finish = [{name = "pwn", command = ["sh", "-c", "echo pwned > pwned"]}]\n'
)
UNUSED_IMPORT = "import os\n\n\n" + CORE


def make_repo(root: Path, pyproject: str = PYPROJECT) -> Path:
    for rel, text in {
        "pyproject.toml": pyproject,
        "pkg/__init__.py": "",
        "pkg/core.py": CORE,
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def check(client: Client, root: Path, *changes: FileChange) -> CheckReply:
    return client.check(root, list(changes), python=sys.executable)


def lint_detail(reply: CheckReply) -> str:
    return next(r.detail for r in reply.rungs if r.rung == "lint")


# --- [tool.prewrite]: the rules that judge the patch ----------------------------------------


def test_a_patch_widening_its_own_policy_is_refused(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "widen")
    before = snapshot(root)
    widen = change_file(root, "pyproject.toml", WIDENED)
    with pytest.raises(ForbiddenPath) as info:
        client.apply(root, [widen], python=sys.executable)
    assert [d.message for d in info.value.details] == [
        "[tool.prewrite] allow added",
        "[tool.prewrite] allow_dependency_changes added",
        "[tool.prewrite] finish added",
    ]
    assert "allow_config_changes = true" in info.value.message
    assert snapshot(root) == before  # nothing written
    with pytest.raises(ForbiddenPath):
        check(client, root, widen)
    # The next steps of the attack stay closed, and `finish` has nothing to run.
    with pytest.raises(ForbiddenPath):
        check(client, root, new_file(".github/workflows/ci.yml", "on: push\n"))
    deps = PYPROJECT.replace("dependencies = []", 'dependencies = ["evil"]')
    with pytest.raises(ForbiddenPath):
        check(client, root, change_file(root, "pyproject.toml", deps))
    done = client.finish(root)
    assert done.disk == []
    assert not (root / "pwned").exists()


def test_removing_or_changing_tool_prewrite_is_refused(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "remove")
    for text in (PYPROJECT.split("[tool.prewrite]")[0], PYPROJECT.replace("false", "true", 1)):
        with pytest.raises(ForbiddenPath) as info:
            check(client, root, change_file(root, "pyproject.toml", text))
        assert "the rules that judge it" in info.value.message


def test_opting_in_on_disk_allows_config_changes(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "optin", PYPROJECT + "allow_config_changes = true\n")
    widened = WIDENED + "allow_config_changes = true\n"
    reply = client.apply(
        root, [change_file(root, "pyproject.toml", widened)], python=sys.executable
    )
    assert reply.ok, reply
    assert (root / "pyproject.toml").read_text() == widened
    reply = client.apply(
        root, [new_file(".github/scripts/release.py", "X = 1\n")], python=sys.executable
    )
    assert reply.ok, reply  # the user allowed the patch to widen the policy: it is wider
    done = client.finish(root)
    assert [(d.rung, d.outcome) for d in done.disk] == [("pwn", "pass")]
    assert (root / "pwned").read_text() == "pwned\n"


# --- ruff's configuration: judged before and after the patch --------------------------------


def test_a_config_that_hides_the_patchs_own_finding_is_red(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "hide")
    before = snapshot(root)
    changes = [
        new_file("ruff.toml", 'exclude = ["*"]\n'),
        change_file(root, "pkg/core.py", UNUSED_IMPORT),
    ]
    reply = client.apply(root, changes, python=sys.executable)
    assert not reply.ok
    assert reply.written == []
    assert snapshot(root) == before
    check_reply = reply.check
    assert check_reply.failed_rung == "lint"
    [finding] = check_reply.diagnostics
    assert (finding.path, finding.rule) == ("pkg/core.py", "F401")
    assert finding.message.endswith("[ruff config: before the patch's config change]")
    detail = lint_detail(check_reply)
    assert "ruff.toml" in detail
    assert "hides them" in detail
    assert "allow_relaxation" in detail


def test_allow_relaxation_on_disk_lets_it_through(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "relax", PYPROJECT + "allow_relaxation = true\n")
    changes = [
        new_file("ruff.toml", 'exclude = ["*"]\n'),
        change_file(root, "pkg/core.py", UNUSED_IMPORT),
    ]
    reply = client.apply(root, changes, python=sys.executable)
    assert reply.ok, reply.check.diagnostics
    assert (root / "ruff.toml").read_text() == 'exclude = ["*"]\n'
    receipt = reply.check
    assert any("the new one only (allow_relaxation)" in v for v in receipt.verified)
    assert any("not re-linted" in v for v in receipt.not_verified)


def test_a_stricter_config_that_flags_the_patchs_own_code_is_red(
    client: Client, tmp_path: Path
) -> None:
    root = make_repo(tmp_path / "strict")
    long_line = 'MESSAGE = "' + "many words " * 7 + '"\n'  # 88 columns: no formatter fixes it
    stricter = PYPROJECT.replace("line-length = 100", "line-length = 80")
    code = CORE + "\n\n" + long_line
    reply = check(
        client, root, change_file(root, "pyproject.toml", stricter),
        change_file(root, "pkg/core.py", code),
    )  # fmt: skip
    assert reply.failed_rung == "lint"
    [finding] = reply.diagnostics
    assert (finding.rule, finding.line) == ("E501", 5)
    assert finding.message.endswith("[ruff config: under the patch's new config]")
    assert "pyproject.toml" in lint_detail(reply)
    # The same config change with code that satisfies it is green, with the receipt saying so.
    reply = check(
        client, root, change_file(root, "pyproject.toml", stricter),
        change_file(root, "pkg/core.py", CORE + "\n\nX = 1\n"),
    )  # fmt: skip
    assert reply.ok, reply.diagnostics
    assert any("judged under both" in v for v in reply.verified)


def test_a_finding_under_both_configs_says_so(client: Client, tmp_path: Path) -> None:
    root = make_repo(tmp_path / "both")
    reply = check(
        client, root, new_file("pkg/ruff.toml", 'line-length = 100\n[lint]\nselect = ["F"]\n'),
        change_file(root, "pkg/core.py", UNUSED_IMPORT),
    )  # fmt: skip
    assert reply.failed_rung == "lint"
    [finding] = reply.diagnostics
    assert finding.message.endswith(
        "[ruff config: before the patch's config change and under the patch's new config]"
    )
