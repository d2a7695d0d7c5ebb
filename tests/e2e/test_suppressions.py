"""Suppressions a patch adds, through the real daemon: real ruff, pyright, TypeScript, eslint.

A patch that silences its own error stays green (``suppressions = "report"``, the default) and
the reply names each suppression with what it hides; ``"refuse"`` makes it red; the hook's
context, the CLI and ``stats`` carry them.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite import Client, change_file, new_file
from prewrite.cli_output import print_check
from prewrite.errors import BadRequest
from prewrite.hook import run_hook
from prewrite.protocol import CheckRequest
from prewrite_daemon.ladder import runner
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.session import Registry
from tests.support.ts_repo import make_ts_repo

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from prewrite.protocol import CheckReply, FileChange
    from prewrite.runtime import RuntimePaths

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

PYPROJECT = """[project]
name = "sup"
version = "0"

[tool.ruff.lint]
select = ["E", "F"]
"""
FILES = {
    "pyproject.toml": PYPROJECT,
    "pkg/__init__.py": "",
    "pkg/core.py": "def total(xs: list[int]) -> int:\n    return sum(xs)\n",
    # an error the base already silences: not the patch's
    "pkg/old.py": 'def legacy() -> int:\n    return "x"  # type: ignore\n',
}
OWN_ERROR = 'def total(xs: list[int]) -> int:\n    return "none"  # type: ignore\n'
TOOLCHAINS = Path(__file__).resolve().parents[1] / "toolchains" / "node_modules"


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write(tmp_path / "sup", FILES)


def check(client: Client, root: Path, *changes: FileChange) -> CheckReply:
    return client.check(root, list(changes), python=sys.executable, timeout_s=120)


def test_a_type_ignore_on_its_own_error_is_green_and_reported(
    client: Client, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reply = check(client, repo, change_file(repo, "pkg/core.py", OWN_ERROR))
    assert reply.ok, reply.diagnostics
    [s] = reply.suppressions
    assert (s.path, s.line, s.kind, s.text, s.tool, s.judged) == (
        "pkg/core.py", 2, "type-ignore", "# type: ignore", "pyright", True
    )  # fmt: skip
    assert [(d.path, d.line, d.rule) for d in s.hidden] == [("pkg/core.py", 2, "reportReturnType")]
    step = next(r for r in reply.rungs if r.rung == "suppressions")
    assert (step.outcome, "run again without them: typecheck" in step.detail) == ("pass", True)
    print_check(reply, 1.0)
    out = capsys.readouterr().out
    assert "prewrite: suppression: pkg/core.py:2:20: the patch adds `# type: ignore`" in out
    assert "which hides 1 diagnostic(s) it introduces:\n  pkg/core.py:2:12: error: Type" in out


def test_a_noqa_hiding_a_ruff_finding(client: Client, repo: Path) -> None:
    text = "import os  # noqa: F401\n\n\n" + FILES["pkg/core.py"]
    reply = check(client, repo, change_file(repo, "pkg/core.py", text))
    assert reply.ok, reply.diagnostics
    [s] = reply.suppressions
    assert (s.kind, s.tool, [d.rule for d in s.hidden]) == ("noqa", "ruff", ["F401"])


def test_a_suppression_the_base_had_is_not_the_patchs_and_nothing_runs_again(
    client: Client, repo: Path
) -> None:
    text = "# a comment\n\n" + FILES["pkg/old.py"]
    reply = check(client, repo, change_file(repo, "pkg/old.py", text))
    assert reply.ok, reply.diagnostics
    assert reply.suppressions == []
    assert "suppressions" not in [r.rung for r in reply.rungs]


def test_a_suppression_that_hides_nothing_is_still_listed(client: Client, repo: Path) -> None:
    reply = check(client, repo, new_file("pkg/fine.py", "X: int = 1  # type: ignore\n"))
    assert reply.ok
    [s] = reply.suppressions
    assert (s.judged, s.hidden) == (True, [])


def test_a_red_verdict_lists_them_without_what_they_hide(client: Client, repo: Path) -> None:
    text = OWN_ERROR + "\n\ndef more() -> int:\n    return undefined_name\n"
    reply = check(client, repo, change_file(repo, "pkg/core.py", text))
    assert reply.failed_rung == "lint"
    [s] = reply.suppressions
    assert (s.judged, s.note) == (
        False, "what it hides was not computed: the check stopped at the lint rung"
    )  # fmt: skip


def test_the_hook_context_carries_them(daemon: RuntimePaths, repo: Path) -> None:
    (repo / ".git").mkdir()  # the hook judges a file from its repository's top
    payload = {
        "hook_event_name": "PreToolUse", "cwd": str(repo), "tool_name": "Write",
        "tool_input": {"file_path": str(repo / "pkg/core.py"), "content": OWN_ERROR},
        "session_id": "s", "transcript_path": "/dev/null",
    }  # fmt: skip
    code, out, err = run_hook(json.dumps(payload).encode(), paths=daemon)
    assert (code, err) == (0, ""), err
    said = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert said.startswith("prewrite: this edit of pkg/core.py is allowed, but it suppresses:\n")
    assert "the patch adds `# type: ignore`" in said
    assert "pkg/core.py:2:12: error: Type" in said


def test_stats_count_them(client: Client, repo: Path) -> None:
    check(client, repo, change_file(repo, "pkg/core.py", OWN_ERROR))
    stats = client.stats(str(repo.resolve()))
    assert [(s.kind, s.added, s.hiding) for s in stats.suppressions] == [("type-ignore", 1, 1)]
    assert any(r.rung == "suppressions" and r.runs == 1 for r in stats.rungs)


def test_a_ts_expect_error_in_a_typescript_workspace(client: Client, tmp_path: Path) -> None:
    root = make_ts_repo(tmp_path / "ts", 5)
    text = "// @ts-expect-error\nexport const bad: number = 'x';\n"
    reply = client.check(root, [new_file("src/bad.ts", text)], timeout_s=120)
    assert reply.ok, reply.diagnostics
    [s] = reply.suppressions
    assert (s.kind, s.tool, s.scope) == ("ts-expect-error", "typescript", "next-line")
    assert [(d.line, d.rule) for d in s.hidden] == [(2, "TS2322")]


@pytest.mark.skipif(
    shutil.which("node") is None or not (TOOLCHAINS / ".bin" / "eslint").exists(),
    reason="node and tests/toolchains (make install) are needed",
)
def test_an_eslint_disable_hiding_an_eslint_error(client: Client, tmp_path: Path) -> None:
    root = tmp_path / "js"
    root.mkdir()
    (root / "node_modules").symlink_to(TOOLCHAINS)
    write(root, {"eslint.config.mjs": 'export default [{rules: {"no-undef": "error"}}];\n'})
    text = "// eslint-disable-next-line no-undef\nexport const a = missing\n"
    reply = check(client, root, new_file("src/a.js", text))
    assert reply.ok, reply.diagnostics
    [s] = reply.suppressions
    assert (s.kind, s.tool, [d.rule for d in s.hidden]) == (
        "eslint-disable",
        "eslint",
        ["no-undef"],
    )


# --- refuse -----------------------------------------------------------------------------------


def _knows_the_key(tmp_path: Path) -> bool:
    """Whether ``ladder/config.py`` reads ``[tool.prewrite] suppressions`` yet."""
    (tmp_path / "pyproject.toml").write_text('[tool.prewrite]\nsuppressions = "refuse"\n')
    try:
        load_config(tmp_path)
    except BadRequest:
        return False
    return True


@pytest.fixture
async def refusing(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Registry]:
    """The daemon's registry, in-process, on a workspace that says ``suppressions = "refuse"``:
    in its pyproject.toml once ``ladder/config.py`` reads the key, until then as the mode the
    ladder reads."""
    probe = tmp_path / "probe"
    probe.mkdir()
    if _knows_the_key(probe):
        with (repo / "pyproject.toml").open("a") as f:
            f.write('\n[tool.prewrite]\nsuppressions = "refuse"\n')
    else:

        def refuse(_config: object) -> str:
            return "refuse"

        monkeypatch.setattr(runner, "suppression_mode", refuse)
    registry = Registry(tmp_path / "state", watch=False)
    try:
        yield registry
    finally:
        await registry.stop()


async def test_refuse_makes_it_red_naming_it_and_what_it_hides(
    refusing: Registry, repo: Path
) -> None:
    request = CheckRequest(str(repo), [change_file(repo, "pkg/core.py", OWN_ERROR)], sys.executable)
    reply = await refusing.check(request)
    assert (reply.ok, reply.failed_rung) == (False, "suppressions")
    assert [(d.line, d.rule) for d in reply.diagnostics] == [
        (2, "suppressions"),
        (2, "reportReturnType"),
    ]
    assert [s.kind for s in reply.suppressions] == ["type-ignore"]
    assert [(r.rung, r.outcome) for r in reply.rungs][-2:] == [
        ("suppressions", "fail"),
        ("review", "off"),
    ]


@pytest.mark.parametrize("block", ["edited-file", "never"])
def test_the_hook_refuses_them_when_the_workspace_does(
    daemon: RuntimePaths, repo: Path, tmp_path: Path, block: str
) -> None:
    probe = tmp_path / "probe"
    probe.mkdir()
    if not _knows_the_key(probe):
        pytest.skip("ladder/config.py does not read [tool.prewrite] suppressions yet")
    (repo / ".git").mkdir()
    with (repo / "pyproject.toml").open("a") as f:
        f.write('\n[tool.prewrite]\nsuppressions = "refuse"\n\n[tool.prewrite.hook]\n')
        f.write(f'block = "{block}"\n')
    payload = {
        "hook_event_name": "PreToolUse", "cwd": str(repo), "tool_name": "Write",
        "tool_input": {"file_path": str(repo / "pkg/core.py"), "content": OWN_ERROR},
        "session_id": "s", "transcript_path": "/dev/null",
    }  # fmt: skip
    code, _out, err = run_hook(json.dumps(payload).encode(), paths=daemon)
    assert code == 2
    assert err.startswith("prewrite refused this Write of pkg/core.py: ")
    assert "`# type: ignore`" in err
    assert "pkg/core.py:2:12: error: Type" in err
