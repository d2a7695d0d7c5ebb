"""Patches judged by the warm daemon in-process, with its narrowing on or off.

The registry is the daemon's own (same code as behind the socket, no socket): one warm pyright
per tree serves every patch checked against it. Turning ``Workspace.narrowing`` off plans every
transitive importer of the patched files (``checker.plan_check``), the reference the narrowed
plan must agree with: the same warm checker, the same diff, only the plan differs. Answers are
reduced to what a differential comparison needs: the verdict, the files compared and the new
diagnostics with the tree's path in messages replaced (``oracle.normalize_paths``). The
daemon's idle re-check of narrowed greens is stopped (see ``WarmChecker.check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite import change_file, delete_file, new_file
from prewrite.protocol import CheckRequest
from prewrite_daemon.session import Registry
from tests.support.oracle import normalize_paths

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite.protocol import Diagnostic, FileChange

Change = tuple[str, str | None, str | None]  # (path, old text or None if new, new or None)
CHECK_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class WarmAnswer:
    ok: bool
    checked: tuple[str, ...]
    diagnostics: list[Diagnostic]
    failed_rung: str | None
    verified: tuple[str, ...] = ()  # the receipt (says when narrowing ran past its budget)


def as_changes(root: Path, edits: Sequence[Change]) -> list[FileChange]:
    """The wire form of ``edits`` against the tree at ``root`` (base hashes read from disk)."""
    out: list[FileChange] = []
    for rel, old, new in edits:
        if old is None:
            assert new is not None, rel
            out.append(new_file(rel, new))
        elif new is None:
            out.append(delete_file(root, rel))
        else:
            out.append(change_file(root, rel, new))
    return out


class WarmChecker:
    """One registry (one warm pyright per tree) for many checks; ``close`` stops it."""

    def __init__(self, state_dir: Path) -> None:
        self.registry = Registry(state_dir, watch=False, trusted=lambda _root: True)

    async def check(
        self,
        root: Path,
        python: str,
        edits: Sequence[Change],
        narrowing: bool = True,
        rungs: list[str] | None = None,
        budget_s: float | None = None,
    ) -> WarmAnswer:
        """``edits`` judged against the tree at ``root``; ``rungs`` None: the whole ladder;
        ``budget_s``: the planning budget (past it the plan is every importer), if not the
        daemon's."""
        workspace = self.registry.workspace(str(root), python)
        if budget_s is not None:
            workspace.planning_budget_s = budget_s
        entry = self.registry.entry_of(workspace)
        if entry is not None:
            # The idle re-check compares pruned files behind our back and, on a miss, turns
            # narrowing off for the tree: each plan here is judged on its own instead.
            await entry.rechecker.stop()
        workspace.narrowing = narrowing
        request = CheckRequest(
            str(root), as_changes(root, edits), python, timeout_s=CHECK_TIMEOUT_S, rungs=rungs
        )
        reply = await self.registry.check(request)
        return WarmAnswer(
            reply.ok,
            tuple(reply.checked_files),
            normalize_paths(reply.diagnostics, root),
            reply.failed_rung,
            tuple(reply.verified),
        )

    async def close(self) -> None:
        await self.registry.stop()
