"""The patch generator on a small synthetic package: deterministic, valid, and with every kind."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import pytest

from prewrite.changes import sha256_hex
from tests.support.patchgen import KINDS, generate_patches
from tests.support.sourceindex import Edit, apply_edits, insert_at

if TYPE_CHECKING:
    from pathlib import Path

SOURCES = {
    "pkg/__init__.py": (
        '"""A package."""\n\nfrom .core import greet, scale\n\n__all__ = ["greet", "scale"]\n'
    ),
    "pkg/core.py": (
        "from __future__ import annotations\n\n"
        "from .util import clamp, shout\n\n\n"
        "def scale(value: int, factor: int = 2) -> int:\n"
        '    """Scale a value."""\n'
        "    return clamp(value * factor)\n\n\n"
        "def greet(name: str) -> str:\n"
        "    return shout(name)\n\n\n"
        "class Box:\n"
        "    def size(self) -> int:\n"
        "        return scale(3)\n"
    ),
    "pkg/util.py": (
        "def clamp(value: int, high: int = 10) -> int:\n"
        "    return min(value, high)\n\n\n"
        "def shout(text: str) -> str:\n"
        "    return text.upper()\n\n\n"
        "def unused_helper() -> None:\n"
        "    pass\n"
    ),
    "pkg/report.py": (
        "from .core import Box, greet\n"
        "from .util import clamp\n\n\n"
        "def render() -> str:\n"
        "    return greet('x') + str(clamp(Box().size()))\n\n\n"
        "def broken() -> int:\n"
        "    return 'pre-existing error'\n"
    ),
    "tests/test_pkg.py": (
        "import pkg\nfrom pkg.report import render\n\n\n"
        "def test_render() -> None:\n"
        "    assert render()\n"
        "    assert pkg.scale(2) == 4\n"
    ),
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for rel, text in SOURCES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_generation_is_deterministic(tree: Path) -> None:
    first = generate_patches(tree, seed=7, error_files=["pkg/report.py"])
    second = generate_patches(tree, seed=7, error_files=["pkg/report.py"])
    assert first == second
    assert [p.name for p in generate_patches(tree, seed=8)] != [p.name for p in first]


def test_every_kind_produces_patches(tree: Path) -> None:
    patches = generate_patches(tree, error_files=["pkg/report.py"])
    assert {p.kind for p in patches} == {kind for kind, _, _ in KINDS}
    assert len({p.name for p in patches}) == len(patches)
    assert any(len(p.changes) >= 3 for p in patches)


def test_every_change_is_valid_against_the_tree(tree: Path) -> None:
    for patch in generate_patches(tree, error_files=["pkg/report.py"]):
        for change in patch.changes:
            target = tree / change.path
            if change.base_sha256 is None:
                assert not target.exists(), patch.name
            else:
                assert change.base_sha256 == sha256_hex(target.read_bytes()), patch.name
            if change.content is not None:
                assert change.content != (target.read_text() if target.exists() else None)
                ast.parse(change.content, change.path)
                compile(change.content, change.path, "exec", dont_inherit=True)


def test_shift_only_patches_only_add_lines(tree: Path) -> None:
    patches = [
        p for p in generate_patches(tree, error_files=["pkg/report.py"]) if p.kind == "shift_only"
    ]
    assert patches
    for patch in patches:
        (change,) = patch.changes
        old = (tree / change.path).read_text().splitlines()
        new = (change.content or "").splitlines()
        assert len(new) > len(old)
        assert all(line in new for line in old)


def test_apply_edits_uses_byte_columns() -> None:
    source = "x = 'é'; y = 1\n"
    column = len("x = 'é'; ".encode())  # ast's col_offset counts UTF-8 bytes
    assert apply_edits(source, [insert_at(1, column, "z = 2; ")]) == "x = 'é'; z = 2; y = 1\n"
    assert apply_edits("a\nb\n", [Edit(1, 0, 2, 1, "c")]) == "c\n"
