"""A checker judged by its own CLI on the shadow: the patch laid on disk for one cold run.

ty and pyrefly check httpx from scratch in about a second (measured: ``ty check`` 0.65-0.8 s,
``pyrefly check`` 1.0-1.1 s on two cores), so prewrite does not keep their language servers
warm: each check lays the patch on the workspace's shadow tree, runs the checker's own CLI once
on the whole program, and puts the shadow back at once (``check_tree``; the workspace's lock keeps
every other reader of the shadow out meanwhile). Every answer is the CLI's own, so nothing is
distrusted and nothing needs a cold second opinion (``answers_as_cli``); the base is the same
CLI's answer on the tree as it is, kept by the workspace until the tree moves.

There is no child between checks: ``start`` and ``stop`` only move the state.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.base import BackendState
from prewrite_daemon.backends.cli_report import ReportError
from prewrite_daemon.backends.process import run_captured

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path

    from prewrite_daemon.backends.base import FileEvent, LaidTree, RawDiagnostic

Report = dict[str, list["RawDiagnostic"]]


async def run_cli(
    name: str, argv: Sequence[str], tree: Path, parse: Callable[[str, Path], Report],
    timeout_s: float, ok_codes: tuple[int, ...] = (0, 1),
) -> Report:  # fmt: skip
    """One cold run of ``argv`` in ``tree``, its report read whole: any other exit code, or a
    report that cannot be read, is ``BackendFailed`` (never an answer)."""
    code, out, err = await run_captured(list(argv), tree, None, timeout_s, name)
    if code not in ok_codes:
        raise BackendFailed(f"{name} exited {code}: {(err or out)[-2000:]}")
    try:
        return parse(out, tree)
    except ReportError as exc:
        raise BackendFailed(
            f"{name}'s report could not be read: {exc}; it said: {err[-1000:]}"
        ) from exc


class CliWholeProgram:
    """``argv`` run in ``shadow_root`` with a patch laid; ``parse`` reads its report."""

    whole_program = True  # ``check.whole`` judges with it; it takes no LSP-style documents
    answers_as_cli = True  # every answer is the cold CLI's own: nothing goes cold beside it

    def __init__(
        self,
        name: str,
        shadow_root: Path,
        argv: Sequence[str],
        parse: Callable[[str, Path], Report],
        ok_codes: tuple[int, ...] = (0, 1),
    ) -> None:
        self.name = name
        self.shadow_root = shadow_root
        self._argv = list(argv)
        self._parse = parse
        self._ok_codes = ok_codes
        self._state = BackendState.EXITED
        self._lock = asyncio.Lock()

    @property
    def state(self) -> BackendState:
        return self._state

    @property
    def pid(self) -> int | None:
        return None  # a process lives only for one run

    @property
    def exited(self) -> bool:
        return self._state.is_down

    async def start(self, timeout_s: float = 60.0) -> None:
        del timeout_s
        self._state = BackendState.RUNNING

    async def stop(self, grace_s: float = 2.0) -> None:
        del grace_s
        self._state = BackendState.EXITED

    # The LSP-style document calls: a CLI run takes none (``check_tree`` lays whole trees).
    def open(self, path: str, text: str) -> None:
        raise NotImplementedError(f"{self.name} checks trees, not documents")

    def change(self, path: str, text: str) -> None:
        raise NotImplementedError(f"{self.name} checks trees, not documents")

    def close(self, path: str) -> None:
        del path

    def is_open(self, path: str) -> bool:
        del path
        return False

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        raise NotImplementedError(f"{self.name} answers whole trees: check_tree")

    def files_changed(self, events: list[FileEvent]) -> None:
        del events  # every run reads the tree afresh

    async def check_tree(
        self, tree: LaidTree, overrides: Mapping[str, str | None], timeout_s: float
    ) -> Report:
        """Every diagnostic of the tree with ``overrides`` (root-relative path -> text, None:
        deleted) laid over ``tree`` (the shadow); the tree is put back before this returns,
        whatever happens."""
        if self.exited:
            raise BackendFailed(f"{self.name} is not running")
        async with self._lock:
            try:
                for rel, text in overrides.items():
                    _lay(tree, rel, text)
                return await self._run(timeout_s)
            finally:
                for rel in overrides:
                    tree.restore(rel)

    async def _run(self, timeout_s: float) -> Report:
        return await run_cli(
            self.name, self._argv, self.shadow_root, self._parse, timeout_s, self._ok_codes
        )


def _lay(tree: LaidTree, rel: str, text: str | None) -> None:
    if os.path.islink(tree.shadow_path(rel)):  # patch paths are real in-root files
        raise BackendFailed(f"{rel} is a link in the shadow: refusing to write through it")
    if text is None:
        tree.remove(rel)
    else:
        tree.write(rel, text)
