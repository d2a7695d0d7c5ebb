"""Trust at the edges: where the shadow and the real tree could resolve differently (issue 9).

Each scenario is a real setup — repository and venv — checked by the shared daemon, and judged
against the cold ``pyright`` run on a fresh build of the whole setup with the patch written.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from tests.support.oracle import surplus
from tests.support.setups import (
    TYPECHECK_ONLY,
    make_venv,
    outside_editable,
    shared_extra_paths,
    uv_workspace,
    venv_python,
    whole_setup_oracle,
    write,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite import Client
    from prewrite.protocol import CheckReply, Diagnostic, FileChange

pytestmark = pytest.mark.e2e


def agree(ours: list[Diagnostic], theirs: list[Diagnostic]) -> None:
    assert surplus(ours, theirs) == [], "prewrite reports what pyright does not"
    assert surplus(theirs, ours) == [], "pyright reports what prewrite does not"


def judged(
    client: Client,
    build: Callable[[Path], Path],
    patch: Callable[[Path], list[FileChange]],
    tmp: Path,
) -> CheckReply:
    root = build(tmp / "setup")
    changes = patch(root)
    reply = client.check(root, changes, python=venv_python(root))
    agree(reply.diagnostics, whole_setup_oracle(build, changes, tmp / "oracle"))
    return reply


def test_in_root_editable_package_is_seen_patched(client: Client, tmp_path: Path) -> None:
    def patch(root: Path) -> list[FileChange]:
        return [
            change_file(root, "packages/lib/src/lib/__init__.py", "def f() -> int:\n    return 1\n")
        ]

    reply = judged(client, uv_workspace, patch, tmp_path)
    assert not reply.ok
    assert [(d.path, d.rule) for d in reply.diagnostics] == [
        ("app/main.py", "reportAssignmentType")
    ]


def test_relative_extra_paths_outside_the_root(client: Client, tmp_path: Path) -> None:
    def patch(root: Path) -> list[FileChange]:
        return [change_file(root, "app.py", "from helpers import h\n\nx: int = h()\n")]

    reply = judged(client, shared_extra_paths, patch, tmp_path)
    assert not reply.ok
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("app.py", "reportAssignmentType")]


def test_outside_editable_source_edited_after_a_check(client: Client, tmp_path: Path) -> None:
    root = outside_editable(tmp_path / "setup")
    changes = [change_file(root, "app.py", "from ext import f\n\ny: str = f()\n")]
    first = client.check(root, changes, python=venv_python(root))
    assert first.ok, first.diagnostics
    source = tmp_path / "setup" / "extlib" / "ext" / "__init__.py"
    source.write_text("def f() -> int:\n    return 1\n")  # same size class, outside the root
    second = client.check(root, changes, python=venv_python(root))
    assert not second.ok
    assert second.environment != first.environment
    assert [(d.path, d.rule) for d in second.diagnostics] == [("app.py", "reportAssignmentType")]

    def build(base: Path) -> Path:
        built = outside_editable(base)
        (base / "extlib" / "ext" / "__init__.py").write_text(source.read_text())
        return built

    agree(second.diagnostics, whole_setup_oracle(build, changes, tmp_path / "oracle"))


def test_link_to_dev_zero_is_never_read(client: Client, tmp_path: Path) -> None:
    def build(base: Path) -> Path:
        root = base / "ws"
        write(root, {
            "pyproject.toml": TYPECHECK_ONLY,
            "pkg/__init__.py": "",
            "pkg/a.py": "x: int = 1\n",
            "real/b.py": "def g() -> int:\n    return 1\n",
        })  # fmt: skip
        os.symlink("/dev/zero", root / "pkg" / "zero.py")
        os.symlink("real", root / "linked")  # an in-root symlinked directory
        make_venv(root)
        return root

    def patch(root: Path) -> list[FileChange]:
        return [change_file(root, "pkg/a.py", "from linked.b import g\n\nx: str = g()\n")]

    reply = judged(client, build, patch, tmp_path)
    assert not reply.ok
    assert [(d.path, d.rule) for d in reply.diagnostics] == [("pkg/a.py", "reportAssignmentType")]


def test_a_file_the_shadow_leaves_out_is_judged_like_the_cli(
    client: Client, tmp_path: Path
) -> None:
    """A dot directory is neither mirrored nor checked by the CLI: no stale_base, no red."""

    def build(base: Path) -> Path:
        root = base / "ws"
        write(root, {"pyproject.toml": TYPECHECK_ONLY, ".tools/gen.py": "x: int = 1\n"})
        make_venv(root)
        return root

    def patch(root: Path) -> list[FileChange]:
        return [change_file(root, ".tools/gen.py", "x: int = 'not checked by the project'\n")]

    reply = judged(client, build, patch, tmp_path)
    assert reply.ok
    assert any(".tools/gen.py" in n for n in reply.not_verified)


SCOPED = TYPECHECK_ONLY + (
    '\n[tool.pyright]\ninclude = ["src", "tests/typing"]\nexclude = ["src/gen"]\n'
    'ignore = ["src/vendored"]\n'
)


def scoped_repo(base: Path) -> Path:
    root = base / "ws"
    write(root, {
        "pyproject.toml": SCOPED,
        "src/pkg/__init__.py": "",
        "src/pkg/core.py": "def f() -> str:\n    return 'x'\n",
        "src/gen/out.py": "x = 1\n",
        "src/vendored/v.py": "y = 1\n",
        "tests/test_core.py": "from pkg.core import f\n\nz: str = f()\n",
        "tests/typing/check_core.py": "from pkg.core import f\n\nw: str = f()\n",
        "tools/helpers.py": "def h() -> str:\n    return 'h'\n",  # outside include
        "src/pkg/use.py": "from tools.helpers import h\n\nv: str = h()\n",
    })  # fmt: skip
    make_venv(root)
    return root


@pytest.mark.parametrize(
    ("rel", "text", "red"),
    [
        ("tests/test_core.py", "a: int = 'not checked by the project'\n", False),
        ("tests/new_test.py", "a: int = 'a new file outside include'\n", False),
        ("src/gen/out.py", "x: int = 'excluded'\n", False),
        ("src/vendored/v.py", "y: int = 'ignored'\n", False),
        ("tests/typing/check_core.py", "w: int = 'included'\n", True),
        ("src/pkg/core.py", "def f() -> int:\n    return 1\n", True),  # breaks tests/typing only
        # outside include, but what it now says is what an included importer sees
        ("tools/helpers.py", "def h() -> int:\n    return 1\n", True),
    ],
)
def test_verdict_counts_only_what_the_checker_covers(
    client: Client, tmp_path: Path, rel: str, text: str, red: bool
) -> None:
    def patch(root: Path) -> list[FileChange]:
        if (root / rel).exists():
            return [change_file(root, rel, text)]
        from prewrite import new_file

        return [new_file(rel, text)]

    reply = judged(client, scoped_repo, patch, tmp_path)
    assert reply.ok is not red
    assert all(d.path.startswith(("src/pkg", "tests/typing")) for d in reply.diagnostics)


def relax_repo(base: Path, allow: bool = False) -> Path:
    root = base / "ws"
    prewrite = TYPECHECK_ONLY + ("allow_relaxation = true\n" if allow else "")
    write(root, {"pyproject.toml": prewrite, "app.py": "x: int = 1\n"})
    make_venv(root)
    return root


def relaxing_patch(root: Path) -> list[FileChange]:
    from prewrite import new_file

    return [
        new_file("pyrightconfig.json", '{\n  // hide everything\n  "ignore": ["**"],\n}\n'),
        change_file(root, "app.py", "x: int = 'a type error'\n"),
    ]


def test_a_patch_cannot_relax_the_checker_to_hide_its_error(client: Client, tmp_path: Path) -> None:
    root = relax_repo(tmp_path)
    reply = client.check(root, relaxing_patch(root), python=venv_python(root))
    assert not reply.ok
    [d] = reply.diagnostics
    assert (d.path, d.rule) == ("app.py", "reportAssignmentType")
    assert "settings before this patch" in d.message
    # the cold CLI on the patched tree is blind to it: that is exactly the relaxation caught
    assert whole_setup_oracle(relax_repo, relaxing_patch(root), tmp_path / "oracle") == []


def test_relaxation_allowed_on_disk_is_judged_by_the_new_settings(
    client: Client, tmp_path: Path
) -> None:
    root = relax_repo(tmp_path, allow=True)
    reply = client.check(root, relaxing_patch(root), python=venv_python(root))
    assert reply.ok, reply.diagnostics
    assert any("allow_relaxation" in v for v in reply.verified)
