"""The default denylist: paths no patch may touch unless the workspace says so by hand.

Patterns are matched lowercased (``policy._matches``): one with a ``/`` against the path from the
root (``*`` crosses directories), one without against the file's name at any depth. Each group
says why it is here:

- **secrets**: keys, certificates, ``.env``, credentials files.
- **what gets installed or built**: dependency manifests and lock files (``pyproject.toml``'s
  tables are judged by content, ``policy.check_content``).
- **what runs or grants on its own** — when a folder is opened, a directory entered, a commit
  made, a change pushed, an agent started — not when someone chooses to run the project's code:
  CI (GitHub, GitLab, CircleCI, Azure, Jenkins, Buildkite, Travis, Bitbucket, Drone, AppVeyor),
  git hooks (``pre-commit``, husky, lefthook, a ``core.hooksPath`` of ``.githooks``), git's own
  attributes and submodules (a ``filter``/``diff`` driver, a submodule URL), ``direnv``'s
  ``.envrc``, dev containers, editors (``.vscode/`` tasks run on folder open, launch and settings
  name programs, ``mcp.json`` starts servers; ``*.code-workspace`` holds all of those; JetBrains'
  ``.idea/`` run configurations), and coding agents (``.claude/`` settings can remove this very
  hook and allow every command; ``.mcp.json``, ``.cursor/``, ``.gemini/``, ``.codex/``,
  ``.windsurf/``). These match at any depth — a nested one is dormant only until someone opens,
  enters or builds that folder — but CI directories, which CI reads at the top only.
- **judges prewrite does not run**: mypy, flake8, pylint and tox settings would change what CI
  finds with no before-and-after judgement here (their extensions are unverifiable, and the hook
  lets unverifiable files through with a note, so only the denylist refuses them there).

Not here, by decision: ``Makefile``, ``justfile``, ``noxfile.py``, ``conftest.py``, ``pytest.ini``
— they run only when someone runs the project's build or tests, which run the project's code
anyway; refusing them would refuse ordinary work without closing anything (a ``conftest.py`` can
do all a ``Makefile`` can).
"""

from __future__ import annotations

_SECRETS = (
    ".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", "*.crt", "*.cer", "*.der", "*.jks",
    "*.keystore", "id_rsa*", "id_ecdsa*", "id_ed25519*", ".netrc", ".pypirc",
)  # fmt: skip
_INSTALLED = (
    "requirements*.txt", "constraints*.txt", "setup.py", "setup.cfg", "pipfile", "pipfile.lock",
    "poetry.lock", "uv.lock", "pdm.lock", "package.json", "package-lock.json", "yarn.lock",
    "pnpm-lock.yaml", "npm-shrinkwrap.json", "bun.lock", "bun.lockb",
)  # fmt: skip
# CI directories: read at the repository's top only (a nested one is never run).
_CI_DIRS = (".github", ".gitlab", ".circleci", ".buildkite", ".azure-pipelines")
# Directories whose every file runs or grants something when that folder is opened or used
# (any depth: any folder can be opened as a project).
_RUNNING_DIRS = (
    ".husky", ".githooks", ".devcontainer", ".vscode", ".idea", ".claude", ".cursor", ".gemini",
    ".codex", ".windsurf",
)  # fmt: skip
# Single files that run or grant something (by name, any depth).
_RUNNING_FILES = (
    ".gitlab-ci.yml", "azure-pipelines.yml", "azure-pipelines.yaml", "jenkinsfile",
    ".travis.yml", "bitbucket-pipelines.yml", ".drone.yml", "appveyor.yml", ".appveyor.yml",
    ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "lefthook.yml", ".lefthook.yml",
    "lefthook-local.yml", ".gitattributes", ".gitmodules", ".envrc", ".devcontainer.json",
    "*.code-workspace", ".mcp.json",
)  # fmt: skip
_UNRUN_JUDGES = ("mypy.ini", ".mypy.ini", ".flake8", ".pylintrc", "pylintrc", "tox.ini")


def _anywhere(directory: str) -> tuple[str, str]:
    return f"{directory}/*", f"*/{directory}/*"


DEFAULT_DENY: tuple[str, ...] = (
    *_SECRETS,
    *_INSTALLED,
    *(f"{d}/*" for d in _CI_DIRS),
    *(p for d in _RUNNING_DIRS for p in _anywhere(d)),
    *_RUNNING_FILES,
    *_UNRUN_JUDGES,
)
