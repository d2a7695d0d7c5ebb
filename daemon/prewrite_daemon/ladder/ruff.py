"""The format and lint rungs: ``ruff format`` and ``ruff check`` on the candidate, by stdin.

Each runs with ``--stdin-filename`` set to the file's real path in the workspace and the
workspace as working directory, so ruff resolves the same configuration (and exclusions, via
``--force-exclude``) as CI's ``ruff`` on the tree. The ruff is the workspace interpreter's own
when it has one (the version CI pins), else the daemon's. Files run concurrently; base-text lint
results are cached by content, so a patch pays for its candidate files only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from prewrite.errors import BackendFailed
from prewrite.protocol import Diagnostic
from prewrite_daemon.process import run_captured

CONCURRENCY = 4


def ruff_executable(python: str) -> str:
    """The workspace's ruff (next to its interpreter) if installed, else the daemon's."""
    for candidate in (Path(python).parent / "ruff", Path(sys.executable).parent / "ruff"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("ruff")
    if found is None:
        raise BackendFailed("ruff is not installed (pip install 'prewrite[daemon]')")
    return found


async def _run(argv: list[str], text: str, cwd: Path, timeout_s: float) -> tuple[int, str, str]:
    return await run_captured(argv, cwd, text, timeout_s, argv[1])


class Ruff:
    """Format and lint texts as if they were at their path in ``root``."""

    def __init__(self, root: Path, python: str) -> None:
        self.root = root
        self.exe = ruff_executable(python)
        self._base_lint: dict[tuple[str, str], list[Diagnostic]] = {}
        self._limit = asyncio.Semaphore(CONCURRENCY)

    def format_command(self, rel: str) -> list[str]:
        return [self.exe, "format", "--force-exclude", "--stdin-filename", rel, "-"]

    def lint_command(self, rel: str) -> list[str]:
        return [self.exe, "check", "--force-exclude", "--no-fix", "--output-format", "json",
                "--stdin-filename", rel, "-"]  # fmt: skip

    async def format(self, rel: str, text: str, timeout_s: float) -> tuple[str | None, str]:
        """(formatted text, "") or (None, ruff's error) when ruff cannot format it."""
        async with self._limit:
            code, out, err = await _run(self.format_command(rel), text, self.root, timeout_s)
        if code != 0:
            return None, err.strip() or f"ruff format exited {code}"
        return out, ""

    async def lint(self, rel: str, text: str, timeout_s: float) -> list[Diagnostic]:
        async with self._limit:
            code, out, err = await _run(self.lint_command(rel), text, self.root, timeout_s)
        if code not in (0, 1):
            raise BackendFailed(f"ruff check failed on {rel}: {err.strip()[-500:]}")
        try:
            items: list[dict[str, Any]] = json.loads(out or "[]")
        except ValueError as exc:
            raise BackendFailed(f"ruff check gave no JSON for {rel}") from exc
        return [_diagnostic(rel, item) for item in items]

    async def lint_base(self, rel: str, text: str, timeout_s: float) -> list[Diagnostic]:
        key = (rel, hashlib.sha256(text.encode()).hexdigest())
        if key not in self._base_lint:
            self._base_lint[key] = await self.lint(rel, text, timeout_s)
        return self._base_lint[key]


def _diagnostic(rel: str, item: dict[str, Any]) -> Diagnostic:
    start = item.get("location") or {"row": 1, "column": 1}
    end = item.get("end_location") or start
    return Diagnostic(
        path=rel,
        line=int(start["row"]),
        column=int(start["column"]),
        end_line=int(end["row"]),
        end_column=int(end["column"]),
        severity="error",
        rule=str(item.get("code") or "syntax"),
        message=str(item.get("message", "")),
        source="ruff",
    )
