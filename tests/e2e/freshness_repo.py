"""A workspace with its own venv and a local package to install into it, for freshness tests."""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.oracle import ColdOracle, normalize_paths, write_patched_copy
from tests.support.setups import write as write_files

if TYPE_CHECKING:
    from prewrite.protocol import CheckReply, Diagnostic, FileChange

PYPROJECT = (
    '[project]\nname = "fresh"\nversion = "0"\n\n[tool.pyright]\ntypeCheckingMode = "standard"\n'
    "\n[tool.prewrite]\nlint = false\n"  # these tests are about the type-check rung
)
STRICT = PYPROJECT.replace('"standard"', '"strict"')
FILES = {
    "pyproject.toml": PYPROJECT,
    "app/__init__.py": "",
    "app/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "app/main.py": "from app.core import add\n\nprint(add(1, 2))\n",
}
LIBX = """def make() -> {ret}:
    return {value}
"""


def make_workspace(root: Path) -> str:
    """The repo plus ``.venv`` (with pip and setuptools); returns the venv's python."""
    write_files(root, FILES)
    subprocess.run([sys.executable, "-m", "venv", str(root / ".venv")], check=True)
    return str(root / ".venv" / "bin" / "python")


def build_libx_wheel(where: Path, version: str, ret: str, value: str) -> Path:
    """A minimal, valid wheel of ``libx`` whose ``make()`` returns ``ret`` (built offline)."""
    name = f"libx-{version}"
    files = {
        "libx/__init__.py": LIBX.format(ret=ret, value=value),
        "libx/py.typed": "",
        f"{name}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: libx\nVersion: {version}\n",
        f"{name}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = [f"{path},sha256={_digest(text)},{len(text.encode())}" for path, text in files.items()]
    files[f"{name}.dist-info/RECORD"] = "\n".join([*record, f"{name}.dist-info/RECORD,,"]) + "\n"
    wheel = where / f"{name}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    return wheel


def _digest(text: str) -> str:
    raw = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def install_libx(python: str, where: Path, version: str, ret: str, value: str) -> None:
    """``pip install`` a local ``libx`` wheel into the workspace's venv (offline)."""
    wheel = build_libx_wheel(where, version, ret, value)
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-index", "--force-reinstall", str(wheel)],
        check=True,
        capture_output=True,
    )


def uninstall_libx(python: str) -> None:
    subprocess.run([python, "-m", "pip", "uninstall", "-q", "-y", "libx"], check=True)


Key = tuple[str, str, str, str]


def keys(diagnostics: list[Diagnostic], root: Path) -> Counter[Key]:
    return Counter(
        (d.path, d.rule, d.severity, d.message) for d in normalize_paths(diagnostics, root)
    )


def oracle(root: Path, changes: list[FileChange], python: str, scratch: Path) -> Counter[Key]:
    """New diagnostics per a cold pyright run on a copy of the tree as it is, and patched."""
    where = Path(tempfile.mkdtemp(dir=scratch))
    base = write_patched_copy(root, [], where / "base")
    patched = write_patched_copy(root, changes, where / "patched")
    return keys(ColdOracle(base, python).introduced(patched), patched)


def assert_matches_oracle(
    reply: CheckReply, root: Path, changes: list[FileChange], python: str, scratch: Path
) -> None:
    expected = oracle(root, changes, python, scratch)
    assert keys(reply.diagnostics, root) == expected
