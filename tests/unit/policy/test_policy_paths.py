"""The path policy rung, ``check_path``: the default denylist, paths leaving the root, ``.git`` and
the daemon's state, unverifiable extensions, and what ``[tool.prewrite]`` ``allow``, ``deny`` and
``allow_extensions`` change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import ForbiddenPath, PathOutsideWorkspace, UnverifiableExtension
from prewrite_daemon.check.patch import normalize_path
from prewrite_daemon.ladder.config import LadderConfig, load_config
from prewrite_daemon.ladder.policy import check_path
from tests.unit.policy.policy_helpers import write_pyproject as _write_pyproject

if TYPE_CHECKING:
    from pathlib import Path


def _police(
    root: Path, raw: str, config: LadderConfig | None = None, protected: tuple[Path, ...] = ()
) -> None:
    """What the ladder's policy rung does for one path: normalize, then check."""
    check_path(normalize_path(root, raw), root, config or load_config(root), protected)


# --- check_path: the default denylist -------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        ".github/workflows/x.yml",
        ".github/workflows/deploy.py",
        ".github/CODEOWNERS",
        ".gitlab-ci.yml",
        ".env",
        ".env.local",
        "sub/.env.production",
        "key.pem",
        "certs/x.key",
        "certs/server.crt",
        "store.p12",
        "id_rsa",
        "home/.ssh/id_rsa.pub",
        "id_ed25519",
        ".netrc",
        ".pypirc",
        "requirements.txt",
        "requirements-dev.txt",
        "sub/requirements.txt",
        "constraints.txt",
        "setup.py",
        "setup.cfg",
        "Pipfile",
        "Pipfile.lock",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "package.json",
        "web/package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        # issue 20, item 6: files that run or grant on their own
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".claude/commands/x.md",
        "web/.claude/settings.json",
        ".mcp.json",
        "sub/.mcp.json",
        ".cursor/mcp.json",
        ".cursor/rules/x.md",
        ".gemini/settings.json",
        ".vscode/tasks.json",
        ".vscode/launch.json",
        ".vscode/settings.json",
        ".vscode/mcp.json",
        "app/.vscode/tasks.json",
        "project.code-workspace",
        ".idea/runConfigurations/x.xml",
        ".devcontainer/devcontainer.json",
        ".devcontainer.json",
        ".circleci/config.yml",
        "sub/.gitlab-ci.yml",
        ".gitlab/ci/build.yml",
        "azure-pipelines.yml",
        ".azure-pipelines/x.yml",
        "Jenkinsfile",
        ".buildkite/pipeline.yml",
        ".travis.yml",
        "bitbucket-pipelines.yml",
        ".pre-commit-config.yaml",
        ".pre-commit-hooks.yaml",
        ".husky/pre-commit",
        "lefthook.yml",
        ".envrc",
        "sub/.envrc",
        ".gitattributes",
        ".gitmodules",
        "npm-shrinkwrap.json",
        "mypy.ini",
        ".flake8",
        "tox.ini",
    ],
)
def test_default_denylist(root: Path, raw: str) -> None:
    with pytest.raises(ForbiddenPath) as caught:
        _police(root, raw)
    assert caught.value.code == "forbidden_path"
    assert caught.value.details[0].path == raw


@pytest.mark.parametrize(
    "raw",
    [".GitHub/workflows/x.yml", "KEY.PEM", "Requirements.txt", ".ENV", "Setup.Py", "UV.LOCK"],
)
def test_denylist_ignores_case(root: Path, raw: str) -> None:
    with pytest.raises(ForbiddenPath):
        _police(root, raw)


@pytest.mark.parametrize(
    "raw",
    ["../x.py", "a/../../x.py", "a/../x.py", "./../x.py", "/etc/passwd.py", "/tmp/x.py"],
)
def test_paths_leaving_the_root(root: Path, raw: str) -> None:
    with pytest.raises(PathOutsideWorkspace):
        _police(root, raw)


@pytest.mark.parametrize(
    "raw", [".git/config", ".git/hooks/pre-commit.py", ".GIT/HEAD", "sub/.Git/x.py"]
)
def test_git_dir_is_forbidden_in_any_case(root: Path, raw: str) -> None:
    with pytest.raises(ForbiddenPath):
        _police(root, raw)


@pytest.mark.parametrize(
    "raw",
    [
        "notes.rst",
        "config.ini",
        "sub/.github/ci.sh",
        "run.sh",
        "Makefile",
        "Dockerfile",
        "a.txt",
        "sub/.circleci/x.sh",
    ],
)
def test_unverifiable_extensions(root: Path, raw: str) -> None:
    with pytest.raises(UnverifiableExtension) as caught:
        _police(root, raw)
    assert caught.value.code == "unverifiable_extension"


@pytest.mark.parametrize(
    "raw",
    ["m.py", "pkg/stub.pyi", "pyproject.toml", "data/x.json", "PKG/UPPER.PY", "sub/.github/x.py"],
)
def test_verifiable_paths_pass(root: Path, raw: str) -> None:
    _police(root, raw)


def test_daemon_state_dir_is_forbidden(root: Path) -> None:
    state = root / "state"
    state.mkdir()
    (root / "link").symlink_to(state)
    for raw in ("state/verdicts.py", "state/deep/x.json", "link/x.py"):
        with pytest.raises(ForbiddenPath) as caught:
            _police(root, raw, protected=(state,))
        assert "own state" in caught.value.message
    with pytest.raises(ForbiddenPath):
        _police(root, "state", protected=(state,))
    _police(root, "statefile.py", protected=(state,))  # a sibling with the same prefix is fine


# --- check_path with [tool.prewrite] --------------------------------------------------------


def test_allow_exempts_exactly_that_name_from_the_denylist(root: Path) -> None:
    _write_pyproject(
        root,
        '[tool.prewrite]\nallow = ["requirements-dev.txt"]\nallow_extensions = [".py", ".txt"]\n',
    )
    config = load_config(root)
    _police(root, "requirements-dev.txt", config)
    _police(root, "Requirements-Dev.txt", config)
    for raw in ("requirements.txt", "requirements-test.txt", "setup.py"):
        with pytest.raises(ForbiddenPath):
            _police(root, raw, config)


def test_allow_without_the_extension_is_still_unverifiable(root: Path) -> None:
    _write_pyproject(root, '[tool.prewrite]\nallow = ["requirements-dev.txt"]\n')
    with pytest.raises(UnverifiableExtension):
        _police(root, "requirements-dev.txt")


def test_deny_adds_to_the_defaults(root: Path) -> None:
    _write_pyproject(root, '[tool.prewrite]\ndeny = ["migrations/*", "Secrets.py"]\n')
    config = load_config(root)
    for raw in ("migrations/0001_initial.py", "migrations/sub/x.py", "pkg/secrets.py", "setup.py"):
        with pytest.raises(ForbiddenPath):
            _police(root, raw, config)
    _police(root, "app/migrations/0001_initial.py", config)  # '/' patterns match from the root
    _police(root, "models.py", config)


def test_allow_extensions_replaces_the_list(root: Path) -> None:
    _write_pyproject(root, '[tool.prewrite]\nallow_extensions = [".PY", ".md"]\n')
    config = load_config(root)
    assert config.allow_extensions == frozenset({".py", ".md"})
    _police(root, "README.md", config)
    _police(root, "m.py", config)
    for raw in ("pyproject.toml", "x.json", "m.pyi"):
        with pytest.raises(UnverifiableExtension):
            _police(root, raw, config)
