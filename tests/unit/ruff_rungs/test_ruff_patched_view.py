"""The patched view for a patch that changes ruff's configuration: lint and format in the view
equal ruff's on the patched tree written to a copy, the view reads like the patched tree and
writes only itself, a configuration ruff rejects is a finding.
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
from prewrite_daemon.ladder.patched_view import patched_view
from prewrite_daemon.ladder.ruff import CONFIG_REJECTED, Ruff
from tests.unit.ruff_rungs.ruff_helpers import LONG, PYPROJECT, TIMEOUT_S, UNUSED_AND_UNDEFINED
from tests.unit.ruff_rungs.ruff_helpers import edits as _edits
from tests.unit.ruff_rungs.ruff_helpers import write_files as _write_files

if TYPE_CHECKING:
    from prewrite_daemon.check.patch import PreparedPatch


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
