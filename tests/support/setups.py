"""Whole setups (repository *and* environment) where the shadow and the real tree could differ.

Each builder writes one setup under a base directory and returns the workspace root. The oracle
for these is not a patched copy of the repository (it shares the shadow's blind spots) but the
same builder run again in a throwaway place, the patch written there, and the cold ``pyright``
run on it with its own venv: editable installs then point at the patched copy.
"""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

from prewrite.changes import sha256_hex
from tests.support.oracle import cold_pyright, introduced_between

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from prewrite.protocol import Diagnostic, FileChange

TYPECHECK_ONLY = "[tool.prewrite]\nlint = false\nformat = false\n"


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def make_venv(root: Path) -> Path:
    """A bare venv at ``root/.venv`` (no pip: fast); returns its site-packages."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return next((root / ".venv" / "lib").glob("python3*/site-packages"))


def venv_python(root: Path) -> str:
    return str(root / ".venv" / "bin" / "python")


def install_editable(site_packages: Path, name: str, source_dir: Path) -> None:
    """What an editable install leaves behind: a ``.pth`` naming the source directory."""
    (site_packages / f"__editable__.{name}.pth").write_text(f"{source_dir}\n")
    dist = site_packages / f"{name}-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")


def uv_workspace(base: Path) -> Path:
    """``packages/lib`` installed editable into the root's venv (the uv-workspace layout)."""
    root = base / "ws"
    write(root, {
        "pyproject.toml": TYPECHECK_ONLY,
        "packages/lib/pyproject.toml": "[project]\nname = 'lib'\nversion = '0.1'\n",
        "packages/lib/src/lib/__init__.py": 'def f() -> str:\n    return "x"\n',
        "app/main.py": "from lib import f\n\nx: str = f()\n",
    })  # fmt: skip
    install_editable(make_venv(root), "lib", root / "packages/lib/src")
    return root


def shared_extra_paths(base: Path) -> Path:
    """``[tool.pyright] extraPaths = ["../shared"]``: a sibling directory outside the root."""
    write(base, {"shared/helpers.py": 'def h() -> str:\n    return "h"\n'})
    root = base / "ws"
    write(root, {
        "pyproject.toml": TYPECHECK_ONLY + '\n[tool.pyright]\nextraPaths = ["../shared"]\n',
        "app.py": "from helpers import h\n\nx: str = h()\n",
    })  # fmt: skip
    make_venv(root)
    return root


def outside_editable(base: Path) -> Path:
    """An editable install whose source is a directory outside the root."""
    write(base, {"extlib/ext/__init__.py": 'def f() -> str:\n    return "x"\n'})
    root = base / "ws"
    write(root, {"pyproject.toml": TYPECHECK_ONLY, "app.py": "from ext import f\n\nf()\n"})
    install_editable(make_venv(root), "ext", base / "extlib")
    return root


def whole_setup_oracle(
    build: Callable[[Path], Path], changes: Sequence[FileChange], scratch: Path
) -> list[Diagnostic]:
    """What the cold CLI says the patch introduces, in fresh builds of the whole setup."""
    base_root = build(scratch / "base")
    patched_root = build(scratch / "patched")
    apply_in_place(patched_root, changes)
    before = cold_pyright(base_root, venv_python(base_root))
    after = cold_pyright(patched_root, venv_python(patched_root))
    return introduced_between(base_root, before, patched_root, after)


def apply_in_place(root: Path, changes: Sequence[FileChange]) -> None:
    """Write ``changes`` into a throwaway build, checking each base hash first."""
    for change in changes:
        target = root / change.path
        if change.base_sha256 is not None:
            assert sha256_hex(target.read_bytes()) == change.base_sha256, change.path
        if change.delete:
            target.unlink()
        elif change.content is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(change.content.encode("utf-8"))
