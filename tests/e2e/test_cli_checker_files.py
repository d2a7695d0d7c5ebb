"""The files ty and pyrefly check beyond ``.py`` and ``.pyi`` are in the shadow they run on.

Both check notebooks and ``.pyw`` files by default (measured: ty 0.0.104, pyrefly 1.5.0). A
patch to a module that breaks only a notebook, or only a ``.pyw`` script, importing it must be
red, as the checker's own run on the workspace is; before the shadow mirrored them it was green.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import change_file
from tests.support.setups import write

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite import Client

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SETTINGS = {"ty": "[tool.ty]\n", "pyrefly": "[tool.pyrefly]\n"}


def _notebook(*lines: str) -> str:
    cell: dict[str, object] = {"cell_type": "code", "metadata": {}, "outputs": [],
                               "execution_count": None,
                               "source": [f"{line}\n" for line in lines]}  # fmt: skip
    meta = {"language_info": {"name": "python"}}
    return json.dumps({"cells": [cell], "metadata": meta, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("checker", ["ty", "pyrefly"])
def test_a_patch_breaking_only_a_notebook_or_a_pyw_is_red(
    client: Client, tmp_path: Path, checker: str
) -> None:
    root = tmp_path / "ws"
    write(root, {
        "pyproject.toml": f"[tool.prewrite]\nformat = false\nlint = false\n{SETTINGS[checker]}",
        "lib.py": "def name() -> str:\n    return 'n'\n",
        "explore.ipynb": _notebook("import lib", "title: str = lib.name()"),
        "gui.pyw": "import lib\n\nlabel: str = lib.name()\n",
    })  # fmt: skip
    broken = "def name() -> int:\n    return 1\n"
    reply = client.check(root, [change_file(root, "lib.py", broken)], python=sys.executable)
    assert not reply.ok, reply
    assert sorted({d.path for d in reply.diagnostics}) == ["explore.ipynb", "gui.pyw"]
    assert any(f"judged by {checker}" in v for v in reply.verified), reply.verified
