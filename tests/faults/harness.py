"""Helpers shared by the fault tests: the fake servers' command lines and process checks."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import psutil

if TYPE_CHECKING:
    from prewrite_daemon.backends.lsp_process import LspProcess
    from prewrite_daemon.backends.lsp_types import ServerQuirks

FAKES = Path(__file__).parent / "fakes"


class MakeServer(Protocol):
    """An ``LspProcess`` on ``argv``; pyright's quirks unless told otherwise."""

    def __call__(self, *argv: str, quirks: ServerQuirks | None = None) -> LspProcess: ...


def no_settings(section: str | None) -> Any:
    return None


def fake_argv(script: str, *args: str) -> list[str]:
    return [sys.executable, str(FAKES / script), *args]


def is_gone(pid: int) -> bool:
    """The process no longer exists (a zombie nobody reaped still counts as alive)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_DEAD
    except psutil.NoSuchProcess:
        return True
