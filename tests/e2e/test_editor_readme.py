"""The README's Neovim setup, run as written in the Neovim installed (CI: Debian's 0.7).

The ``lua`` block under the README's "Neovim" line is extracted verbatim and loaded as the init
file of a headless Neovim opening a Python file with an error, with the venv's ``prewrite`` on
``PATH`` as a user's install puts it there; Neovim must show the error prewrite reports. A
snippet that needs a newer Neovim (``vim.fs``, ``vim.lsp.start``: 0.8) fails here, in CI.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from prewrite.runtime import RuntimePaths

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

README = Path(__file__).resolve().parents[2] / "README.md"
WAIT = Path(__file__).parent / "editors" / "nvim_wait.lua"
BLOCK = re.compile(r"^Neovim\b.*?```lua\n(?P<lua>.*?)```", re.DOTALL | re.MULTILINE)


def readme_snippet() -> str:
    found = BLOCK.search(README.read_text())
    assert found is not None, "README.md has no lua block under a line starting with Neovim"
    return found.group("lua")


def test_the_readmes_neovim_snippet_shows_prewrites_diagnostics(
    daemon: RuntimePaths, tmp_path: Path
) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("CI"):
            pytest.fail("nvim is missing in CI (.ci/run installs Debian's neovim)")
        pytest.skip("nvim is not installed (Debian: apt-get install neovim)")
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.prewrite]\nformat = false\n")
    (root / "pkg" / "use.py").write_text('x: int = "not an int"\n')
    init = tmp_path / "init.lua"
    init.write_text(readme_snippet())
    out = tmp_path / "nvim.json"
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env["PREWRITE_RUNTIME_DIR"] = str(daemon.runtime_dir)
    let = f"let g:prewrite_out = {json.dumps(str(out))}"
    argv = [nvim, "--headless", "-u", str(init), "-i", "NONE", "pkg/use.py",
            "-c", let, "-c", f"luafile {WAIT}"]  # fmt: skip
    done = subprocess.run(argv, cwd=root, env=env, timeout=180, check=False, capture_output=True)
    assert out.is_file(), done.stderr.decode(errors="replace")[-2000:]
    seen = json.loads(out.read_text())
    assert seen["error"] is None, (seen, done.stderr.decode(errors="replace")[-2000:])
    assert seen["clients"] == ["prewrite"]
    assert [(d["lnum"], d["code"]) for d in seen["diagnostics"]] == [(0, "reportAssignmentType")]
