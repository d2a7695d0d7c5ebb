"""The format and lint rungs against the real ruff binary, and their config resolution.

The ladder feeds ruff the candidate text on stdin with ``--stdin-filename``; these tests check
that this resolves the same configuration as CI's ``ruff check <path>`` on the tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder import ruff as ruff_module
from prewrite_daemon.ladder.patched_view import patched_view
from prewrite_daemon.ladder.ruff import (
    CONFIG_REJECTED,
    Ruff,
    linter_config_changes,
    ruff_executable,
)

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Mapping

    from prewrite.protocol import Diagnostic

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_S = 30.0
PYPROJECT = """\
[tool.ruff]
line-length = 100
extend-exclude = ["generated"]

[tool.ruff.lint]
select = ["E", "F", "I"]
"""
UNUSED_AND_UNDEFINED = "import os\n\nprint(undefined_name)\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "generated").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    return root


@pytest.fixture(params=["cli", "server"])
async def ruff(workspace: Path, request: pytest.FixtureRequest) -> AsyncGenerator[Ruff]:
    """The adapter both ways: CLI only, and with its warm ``ruff server`` (which must answer
    the same; the CLI answers while the server cannot vouch for the files just written)."""
    ruff = Ruff(workspace, sys.executable, warm=request.param == "server")
    if ruff.warm is not None:
        for _ in range(2):  # a start in the tick the fixture wrote its files is not trusted
            await ruff.lint("pkg/prime.py", "", TIMEOUT_S)
        assert ruff.warm.statistics().served > 0
    yield ruff
    await ruff.stop()
    assert ruff.warm is None or ruff.warm.statistics().failures == 0


@pytest.fixture
def cli_ruff(workspace: Path) -> Ruff:
    return Ruff(workspace, sys.executable, warm=False)


def _positions(found: list[Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    return [(d.rule, d.line, d.column, d.end_line, d.end_column) for d in found]


# --- the Ruff adapter -----------------------------------------------------------------------


async def test_format_returns_the_formatted_text(ruff: Ruff) -> None:
    long_call = "result = compute(" + ", ".join(f"arg_value_{n}" for n in range(6)) + ")\n"
    assert 88 < len(long_call) - 1 <= 100  # wrapped at ruff's default width, not at this one
    text, err = await ruff.format("pkg/m.py", "x=( 1,2 )\n" + long_call, TIMEOUT_S)
    assert err == ""
    assert text == "x = (1, 2)\n" + long_call


async def test_format_of_unparseable_text_reports_ruffs_error(ruff: Ruff) -> None:
    text, err = await ruff.format("pkg/m.py", "def f(:\n", TIMEOUT_S)
    assert text is None
    assert err


async def test_lint_findings_have_one_based_positions(ruff: Ruff) -> None:
    found = await ruff.lint("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    assert _positions(found) == [("F401", 1, 8, 1, 10), ("F821", 3, 7, 3, 21)]
    assert {(d.path, d.source, d.severity) for d in found} == {("pkg/m.py", "ruff", "error")}
    assert "os" in found[0].message
    assert "undefined_name" in found[1].message


async def test_lint_of_clean_text(ruff: Ruff) -> None:
    assert await ruff.lint("pkg/m.py", "import os\n\nprint(os.sep)\n", TIMEOUT_S) == []


async def test_lint_uses_the_workspace_config(ruff: Ruff) -> None:
    line = "x = '" + "a" * 90 + "'\n"  # 96 columns: fine at 100, E501 at ruff's default 88
    assert await ruff.lint("pkg/m.py", line, TIMEOUT_S) == []
    found = await ruff.lint("pkg/m.py", "x = '" + "a" * 100 + "'\n", TIMEOUT_S)
    assert [d.rule for d in found] == ["E501"]


async def test_excluded_paths_are_not_linted_or_formatted(ruff: Ruff) -> None:
    assert await ruff.lint("generated/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S) == []
    assert await ruff.format("generated/m.py", "x=( 1,2 )\n", TIMEOUT_S) == ("x=( 1,2 )\n", "")


async def test_lint_base_is_cached_by_content(
    cli_ruff: Ruff, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruff = cli_ruff
    real_run = ruff_module._run  # pyright: ignore[reportPrivateUsage]
    calls: list[list[str]] = []

    async def counting_run(
        argv: list[str], text: str, cwd: Path, timeout_s: float
    ) -> tuple[int, str, str]:
        calls.append(argv)
        return await real_run(argv, text, cwd, timeout_s)

    monkeypatch.setattr(ruff_module, "_run", counting_run)
    first = await ruff.lint_base("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    again = await ruff.lint_base("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    assert len(calls) == 1
    assert again == first
    assert [d.rule for d in first] == ["F401", "F821"]
    await ruff.lint_base("pkg/m.py", UNUSED_AND_UNDEFINED + "\n", TIMEOUT_S)  # new content
    await ruff.lint_base("pkg/other.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)  # new path
    assert len(calls) == 3
    await ruff.lint("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)  # candidates are never cached
    await ruff.lint("pkg/m.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
    assert len(calls) == 5


def test_commands_name_the_real_path_and_read_stdin(cli_ruff: Ruff) -> None:
    ruff = cli_ruff
    for argv in (ruff.lint_command("pkg/m.py"), ruff.format_command("pkg/m.py")):
        assert argv[0] == ruff.exe
        assert "--force-exclude" in argv
        assert argv[argv.index("--stdin-filename") + 1] == str(ruff.root / "pkg/m.py")
        assert argv[-1] == "-"


async def test_a_config_above_the_root_resolves_like_ci(workspace: Path) -> None:
    """A project inside a monorepo configured at its top: with a relative ``--stdin-filename``
    ruff would never look above the working directory; CI's ``ruff check`` does."""
    top = workspace.parent
    (top / "ruff.toml").write_text('line-length = 20\n[lint]\nselect = ["E501"]\n')
    root = top / "packages" / "lib"
    _write_files(root, {"pyproject.toml": '[project]\nname = "lib"\n', "m.py": LONG})
    exe = ruff_executable(sys.executable)
    ci = _ruff_json([exe, "check", "--no-cache", "--output-format", "json", "m.py"], root)
    assert [c[0] for c in ci] == ["E501"]
    for warm in (False, True):
        ruff = Ruff(root, sys.executable, warm=warm)
        found = await ruff.lint("m.py", LONG, TIMEOUT_S)
        await ruff.stop()
        assert _positions(found) == [c[:5] for c in ci]


def test_workspace_ruff_is_preferred(tmp_path: Path) -> None:
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("")
    fake = bin_dir / "ruff"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert ruff_executable(str(bin_dir / "python")) == str(fake)


# --- config resolution: the ladder's stdin command vs CI's path command ---------------------


def _ruff_json(argv: list[str], cwd: Path, stdin: str | None = None) -> list[tuple[Any, ...]]:
    proc = subprocess.run(
        argv, cwd=cwd, input=stdin, capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode in (0, 1), proc.stderr
    items: list[dict[str, Any]] = json.loads(proc.stdout or "[]")
    return sorted(
        (
            item["code"],
            item["location"]["row"],
            item["location"]["column"],
            item["end_location"]["row"],
            item["end_location"]["column"],
            item["message"],
        )
        for item in items
    )


async def test_nested_config_resolves_like_ci(workspace: Path, ruff: Ruff) -> None:
    (workspace / "sub").mkdir()
    (workspace / "sub" / "ruff.toml").write_text('line-length = 20\n[lint]\nselect = ["E501"]\n')
    text = "import os\nx = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\n"
    (workspace / "sub" / "a.py").write_text(text)
    ci = _ruff_json([ruff.exe, "check", "--output-format", "json", "sub/a.py"], workspace)
    found = await ruff.lint("sub/a.py", text, TIMEOUT_S)
    assert [c[0] for c in ci] == ["E501"]  # the nested file's rules, not the root's F401
    assert _positions(found) == [c[:5] for c in ci]


# One real file under each of CI's roots (`make lint`: ruff check client daemon tests bench).
REPO_FILES = [
    "client/prewrite/protocol/replies.py",
    "daemon/prewrite_daemon/ladder/runner.py",
    "tests/unit/test_patch.py",
    "bench/rungs.py",
]
# Output and selection flags the ladder passes on purpose; they are not lint configuration.
LADDER_FLAG_SETTINGS = ("output_format = ", "file_resolver.force_exclude = ")


def _settings(argv: list[str]) -> list[str]:
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [
        line
        for line in proc.stdout.splitlines()
        if not line.startswith("Resolved settings for:")
        and not line.startswith(LADDER_FLAG_SETTINGS)
    ]


@pytest.mark.parametrize("rel", REPO_FILES)
def test_ladder_lint_settings_equal_ci_settings_in_this_repo(rel: str) -> None:
    """``--show-settings`` both ways. ruff refuses it together with ``--stdin-filename``, so
    the ladder's side keeps every other flag of its command and names the path positionally;
    the stdin resolution itself is compared by findings in the next test."""
    ladder = Ruff(REPO, sys.executable, warm=False)
    argv = ladder.lint_command(rel)
    at = argv.index("--stdin-filename")
    ladder_side = _settings([*argv[:at], "--show-settings", rel])
    ci_side = _settings([ladder.exe, "check", "--show-settings", rel])
    assert f'Settings path: "{REPO / "pyproject.toml"}"' in ci_side
    assert "linter.line_length = 100" in ci_side
    assert ladder_side == ci_side


@pytest.mark.parametrize("rel", REPO_FILES)
def test_ladder_stdin_lint_finds_what_ci_finds_in_this_repo(rel: str) -> None:
    """Same file, same bytes: through stdin the ladder's way, and by path CI's way.

    ``--extend-select ALL`` on both sides makes the findings depend on everything resolved from
    the config (target version, line length, isort sections, per-file ignores, TC base
    classes) while the comparison stays fair; CI's clean files would otherwise compare [] == [].
    """
    ladder = Ruff(REPO, sys.executable, warm=False)
    argv = ladder.lint_command(rel)
    ladder_argv = [argv[0], argv[1], "--extend-select", "ALL", *argv[2:]]
    ci_argv = [ladder.exe, "check", "--extend-select", "ALL", "--no-fix", "--output-format",
               "json", rel]  # fmt: skip
    text = (REPO / rel).read_text()
    via_stdin = _ruff_json(ladder_argv, REPO, stdin=text)
    via_path = _ruff_json(ci_argv, REPO)
    assert via_path  # not a vacuous comparison
    assert via_stdin == via_path


@pytest.mark.parametrize("warm", [False, True], ids=["cli", "server"])
async def test_ci_excluded_paths_are_not_linted_by_the_ladder_in_this_repo(warm: bool) -> None:
    ladder = Ruff(REPO, sys.executable, warm=warm)
    try:
        excluded = await ladder.lint("bench/demo/repo/shop/x.py", UNUSED_AND_UNDEFINED, TIMEOUT_S)
        assert excluded == []
        assert await ladder.lint("bench/x.py", UNUSED_AND_UNDEFINED, TIMEOUT_S) != []
    finally:
        await ladder.stop()


# --- a patch that changes ruff's configuration: detection and the patched view -------------


def _edits(root: Path, changes: Mapping[str, str | None]) -> PreparedPatch:
    """The patch setting each path to a text (None: deleting it), based on the files on disk."""
    edits = [
        FileEdit(rel, (root / rel).read_text() if (root / rel).is_file() else None, text)
        for rel, text in changes.items()
    ]
    return PreparedPatch(root, tuple(edits))


def _write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.mark.parametrize(
    ("path", "old", "new", "changes"),
    [
        ("ruff.toml", None, "", True),  # an empty ruff.toml still stops ruff's discovery
        ("ruff.toml", "line-length = 90\n", None, True),
        ("sub/.ruff.toml", "line-length = 90\n", "line-length = 91\n", True),
        ("ruff.toml", "line-length = 90\n", "line-length = 90  # same\n\n", False),
        ("ruff.toml", "line-length = 90\n", "line-length = [\n", True),  # parse rung's job too
        ("pyproject.toml", PYPROJECT, PYPROJECT.replace("100", "90"), True),
        ("sub/pyproject.toml", None, "[tool.ruff]\n", True),
        ("pyproject.toml", PYPROJECT, PYPROJECT + "[tool.pyright]\nstrict = ['x']\n", False),
        ("pyproject.toml", PYPROJECT, PYPROJECT + '[project]\nrequires-python = ">=3.12"\n', True),
        ("pyproject.toml", None, '[project]\nname = "x"\n', False),
        ("pyproject.toml", PYPROJECT, None, True),
        ("ruff.toml.bak", None, "line-length = 1\n", False),
        ("pkg/ruff.py", None, "X = 1\n", False),
    ],
)
def test_linter_config_changes(
    tmp_path: Path, path: str, old: str | None, new: str | None, changes: bool
) -> None:
    patch = PreparedPatch(tmp_path, (FileEdit("pkg/m.py", "", "X = 1\n"), FileEdit(path, old, new)))
    assert linter_config_changes(patch) == ([path] if changes else [])


def test_a_file_a_configuration_extends_is_ruff_configuration_too(workspace: Path) -> None:
    """``extend`` chains, from configurations before or after the patch, in the patched files'
    directories or above them; other TOML files are data."""
    _write_files(workspace, {
        "pkg/ruff.toml": 'extend = "../configs/base.toml"\n',
        "configs/base.toml": 'extend = "deeper.toml"\n[lint]\nselect = ["E"]\n',
        "configs/deeper.toml": "line-length = 90\n",
        "configs/unused.toml": "line-length = 90\n",
        "data/table.toml": "x = 1\n",
    })  # fmt: skip
    edits = {
        "configs/base.toml": 'extend = "deeper.toml"\n[lint]\nselect = ["F"]\n',
        "configs/deeper.toml": "line-length = 120\n",
        "configs/unused.toml": "line-length = 120\n",
        "data/table.toml": "x = 2\n",
    }
    with_code = {"pkg/m.py": "X = 1\n", **edits}
    assert linter_config_changes(_edits(workspace, with_code)) == [
        "configs/base.toml",
        "configs/deeper.toml",
    ]
    # Without a Python file under pkg/, no configuration of the patch's files extends them...
    assert linter_config_changes(_edits(workspace, edits)) == []
    # ...unless the patch itself makes one: the configuration after the patch counts too.
    root_config = {"ruff.toml": 'extend = "configs/unused.toml"\n', **edits}
    assert linter_config_changes(_edits(workspace, root_config)) == [
        "ruff.toml",
        "configs/unused.toml",
    ]


def _ci_findings(tree: Path, exe: str) -> dict[str, list[tuple[Any, ...]]]:
    """``ruff check .`` in a real tree, as CI runs it: findings per root-relative path."""
    proc = subprocess.run(
        [exe, "check", "--no-cache", "--output-format", "json", "."],
        cwd=tree, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    found: dict[str, list[tuple[Any, ...]]] = {}
    for item in json.loads(proc.stdout or "[]"):
        rel = Path(item["filename"]).relative_to(tree).as_posix()
        found.setdefault(rel, []).append(
            (item["code"], item["location"]["row"], item["location"]["column"], item["message"])
        )
    return {rel: sorted(items) for rel, items in found.items()}


def _write_patched_copy(root: Path, patch: PreparedPatch, copy: Path) -> None:
    shutil.copytree(root, copy, symlinks=True)
    for edit in patch.edits:
        if edit.new_text is None:
            (copy / edit.path).unlink()
        else:
            (copy / edit.path).parent.mkdir(parents=True, exist_ok=True)
            (copy / edit.path).write_text(edit.new_text)


LONG = "X = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\n"  # 44 columns
# Sorted when otherpkg is first-party (src = ["lib"]), not when mypkg is (src = ["src"]).
IMPORTS = "import mypkg\nimport requests\n\nimport otherpkg\n\nprint(requests, mypkg, otherpkg)\n"
# (files on disk, the patch, files *above* the root) — each patch changes ruff's configuration.
ViewCase = tuple[dict[str, str], dict[str, str | None], dict[str, str]]
VIEW_CASES: dict[str, ViewCase] = {
    "a new root ruff.toml excluding a directory": (
        {"pyproject.toml": PYPROJECT, "gen/m.py": UNUSED_AND_UNDEFINED, "pkg/m.py": LONG},
        {"ruff.toml": 'exclude = ["gen"]\nline-length = 30\n[lint]\nselect = ["E", "F"]\n',
         "pkg/n.py": UNUSED_AND_UNDEFINED},
        {},
    ),
    "a nested config created by the patch": (
        {"pyproject.toml": PYPROJECT, "pkg/sub/m.py": LONG, "pkg/m.py": LONG},
        {"pkg/sub/ruff.toml": 'line-length = 20\n[lint]\nselect = ["E501"]\n'},
        {},
    ),
    "extend and per-file-ignores inside the root": (
        {"pyproject.toml": PYPROJECT, "pkg/m.py": LONG, "pkg/skip.py": LONG,
         "configs/base.toml": 'line-length = 30\n[lint]\nselect = ["E"]\n'},
        {"ruff.toml": 'extend = "configs/base.toml"\n'
                      '[lint.per-file-ignores]\n"pkg/skip.py" = ["E501"]\n'},
        {},
    ),
    "extend outside the root": (
        {"pkg/m.py": LONG + UNUSED_AND_UNDEFINED},
        {"ruff.toml": 'extend = "../shared/ruff.toml"\n'},
        {"shared/ruff.toml": 'line-length = 25\n[lint]\nselect = ["E501", "F401"]\n'},
    ),
    "the root's config deleted: the one above the root applies": (
        {"pyproject.toml": PYPROJECT, "pkg/m.py": LONG + UNUSED_AND_UNDEFINED},
        {"pyproject.toml": '[project]\nname = "x"\n'},
        {"ruff.toml": 'line-length = 25\n[lint]\nselect = ["E501"]\n'},
    ),
    "isort's first-party packages found through src": (
        {"pyproject.toml": '[tool.ruff]\nsrc = ["src"]\n[tool.ruff.lint]\nselect = ["I"]\n',
         "src/mypkg/__init__.py": "", "lib/otherpkg/__init__.py": "", "app.py": IMPORTS},
        {"pyproject.toml": '[tool.ruff]\nsrc = ["lib"]\n[tool.ruff.lint]\nselect = ["I"]\n'},
        {},
    ),
    "a rule that looks at the file system sees the patch's new files": (
        {"pyproject.toml": PYPROJECT},
        {"ruff.toml": '[lint]\nselect = ["INP"]\n', "pkg2/__init__.py": "", "pkg2/m.py": "X = 1\n",
         "pkg3/m.py": "X = 1\n"},
        {},
    ),
}  # fmt: skip


def _case_trees(tmp_path: Path, case: str) -> tuple[PreparedPatch, Path, dict[str, str | None]]:
    """The case's workspace, its patch, a patched copy beside it, and the files to lint."""
    files, changes, above = VIEW_CASES[case]
    top = tmp_path.resolve()
    _write_files(top, above)
    root, copy = top / "ws", top / "copy"
    _write_files(root, files)
    patch = _edits(root, changes)
    _write_patched_copy(root, patch, copy)
    merged: dict[str, str | None] = {**files, **changes}
    targets = {rel: text for rel, text in merged.items() if rel.endswith(".py")}
    return patch, copy, targets


@pytest.mark.parametrize("case", list(VIEW_CASES))
async def test_lint_in_the_patched_view_equals_ruff_in_the_patched_tree(
    tmp_path: Path, case: str
) -> None:
    """The ladder's "under the patch's new config" equals CI's ``ruff check .`` on a real copy
    of the tree with the patch written, placed beside the workspace (same directories above)."""
    patch, copy, targets = _case_trees(tmp_path, case)
    ruff = Ruff(patch.root, sys.executable, warm=False)  # a view: always the CLI
    ci = _ci_findings(copy, ruff.exe)
    with patched_view(patch) as view:
        for rel, text in targets.items():
            found = await ruff.lint(rel, text or "", TIMEOUT_S, view)
            assert sorted((d.rule, d.line, d.column, d.message) for d in found) == ci.get(rel, [])
    # Not a vacuous comparison: the configuration before the patch says otherwise somewhere.
    on_disk = {rel: await ruff.lint(rel, text or "", TIMEOUT_S) for rel, text in targets.items()}
    assert any(
        sorted((d.rule, d.line, d.column, d.message) for d in found) != ci.get(rel, [])
        for rel, found in on_disk.items()
    )


def _listing(tree: Path) -> dict[str, str]:
    return {
        p.relative_to(tree).as_posix(): os.readlink(p) if p.is_symlink() else p.read_text()
        for p in sorted(tree.rglob("*"))
        if p.is_symlink() or p.is_file()
    }


def test_the_view_reads_like_the_patched_tree_and_writes_only_itself(tmp_path: Path) -> None:
    root = tmp_path.resolve() / "ws"
    _write_files(root, {"pyproject.toml": PYPROJECT, "pkg/a.py": "A = 1\n", "pkg/old.py": "",
                        "docs/x.md": "x\n", "top.py": ""})  # fmt: skip
    (root / "link").symlink_to("pkg")
    before = _listing(tmp_path)
    patch = _edits(root, {"ruff.toml": "line-length = 5\n", "pkg/old.py": None,
                          "pkg/new/b.py": "B = 2\n"})  # fmt: skip
    with patched_view(patch) as view:
        assert str(view).endswith(str(root))
        assert (view / "ruff.toml").read_text() == "line-length = 5\n"
        assert not (view / "ruff.toml").is_symlink()
        assert not (view / "pkg").is_symlink()
        assert (view / "pkg/a.py").resolve() == root / "pkg/a.py"
        assert not (view / "pkg/old.py").exists()
        assert (view / "pkg/new/b.py").read_text() == "B = 2\n"
        assert os.readlink(view / "docs") == str(root / "docs")
        assert os.readlink(view / "link") == "pkg"  # a link is copied: it resolves in the view
        assert sorted(os.listdir(view.parent)) == sorted(os.listdir(root.parent))
    assert not view.exists()
    assert _listing(tmp_path) == before


async def test_a_configuration_ruff_rejects_is_a_finding_in_the_view(workspace: Path) -> None:
    root = workspace
    _write_files(root, {"pkg/m.py": "X = 1\n"})
    ruff = Ruff(root, sys.executable, warm=False)  # a view: always the CLI
    patch = _edits(root, {"ruff.toml": "line-lenght = 5\n"})
    with patched_view(patch) as view:
        [finding] = await ruff.lint("pkg/m.py", "X = 1\n", TIMEOUT_S, view)
        text, err = await ruff.format("pkg/m.py", "X = 1\n", TIMEOUT_S, view)
    assert (finding.rule, finding.source) == (CONFIG_REJECTED, "ruff")
    assert "ruff rejects the configuration after the patch" in finding.message
    assert str(root / "ruff.toml") in finding.message  # the real path, not the view's
    assert "prewrite-view-" not in finding.message
    assert text is None
    assert "line-lenght" in err
    (root / "ruff.toml").write_text("line-lenght = 5\n")
    with pytest.raises(BackendFailed):  # on the workspace itself it is still a backend failure
        await ruff.lint("pkg/m.py", "X = 1\n", TIMEOUT_S)


def _format_patched_copy(patch: PreparedPatch, exe: str, rel: str) -> str:
    """CI's ``ruff format .`` on a copy of the tree with the patch written: ``rel``'s text."""
    copy = patch.root.parent / "copy"
    _write_patched_copy(patch.root, patch, copy)
    subprocess.run([exe, "format", "--no-cache", "."], cwd=copy, check=True, timeout=60)
    return (copy / rel).read_text()


async def test_format_in_the_patched_view_equals_ruff_format_in_the_patched_tree(
    workspace: Path, ruff: Ruff
) -> None:
    text = "def f(a, b):\n    return {'key': a, 'other': b, 'third': [a, b, a, b]}\n"
    _write_files(workspace, {"pkg/m.py": text})
    new = PYPROJECT.replace("100", "40") + '\n[tool.ruff.format]\nquote-style = "single"\n'
    patch = _edits(workspace, {"pyproject.toml": new})
    ci = _format_patched_copy(patch, ruff.exe, "pkg/m.py")
    with patched_view(patch) as view:
        formatted, err = await ruff.format("pkg/m.py", text, TIMEOUT_S, view)
    assert (formatted, err) == (ci, "")
    assert formatted != (await ruff.format("pkg/m.py", text, TIMEOUT_S))[0]
