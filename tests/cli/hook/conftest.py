"""The ``prewrite hook`` tests' repository (a ``.git`` at its top: the hook's workspace root), and
no trust list or hook roots of the session's choosing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.cli.hook.hook_helpers import FILES

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(autouse=True)
def nothing_registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's roots are the repositories' tops only: the session's trust list (the whole
    temporary tree, for the daemon's sake) is not a root the hook may choose."""
    (tmp_path / "trusted").write_text("")
    monkeypatch.setenv("PREWRITE_TRUST_FILE", str(tmp_path / "trusted"))
    monkeypatch.delenv("PREWRITE_HOOK_ROOTS", raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)  # a repository: its top is the hook's workspace root
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root
