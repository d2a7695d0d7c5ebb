"""mypy's own daemon (dmypy) as a warm checker: the whole program checked in one answer.

mypy reads files, so a patch is laid on the workspace's shadow tree on disk for the length of one
``dmypy check`` and taken back at once (``check_tree``); the workspace's lock keeps every other
reader of the shadow out meanwhile. dmypy finds what changed by stat and then by content hash:
every file written here gets a whole second of its own as mtime (``_touch``: dmypy rounds mtimes
down to the second), so a same-size edit is never missed. The check is asked on dmypy's socket
(``backends.dmypy_wire``), not by running its client, where the server speaks a known framing.

dmypy's fine-grained mode does not report "unused type: ignore" reliably (measured on httpx: 12
of 32 such errors gone after three increments, and missing even for an edited file); the
whole-program check (``check.whole``) leaves that code to cold mypy.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.base import BackendState, LaidTree
from prewrite_daemon.backends.child import Child
from prewrite_daemon.backends.dmypy_wire import DmypyWireError, framing_for, request
from prewrite_daemon.backends.mypy_command import check_argv, daemon_argv, stop_argv
from prewrite_daemon.backends.mypy_output import MypyOutputError, parse_report
from prewrite_daemon.backends.process import run_captured

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path

    from prewrite_daemon.backends.base import FileEvent, RawDiagnostic
    from prewrite_daemon.backends.mypy_command import MypyTool

log = logging.getLogger(__name__)
Report = dict[str, list["RawDiagnostic"]]
STATUS_POLL_S = 0.01
PROBE_S = 10.0  # the first answer on dmypy's socket (``status``: no check runs)


class DmypyBackend:
    """A supervised ``dmypy daemon`` over ``shadow_root``; ``targets()`` names what it checks."""

    whole_program = True  # ``check.whole`` judges with it; it takes no LSP-style documents
    answers_as_cli = False  # fine-grained mode: what it drops goes cold (``check.whole``)

    def __init__(
        self,
        shadow_root: Path,
        tool: MypyTool,
        python_executable: str,
        state_dir: Path,
        targets: Callable[[], list[str]],
        extra: Sequence[str] = (),
        *,
        only_targets: bool = False,
    ) -> None:
        """``only_targets``: report only the files ``targets()`` names (a configuration's
        ``follow_imports = silent``, which dmypy refuses: it follows ``normal`` and this drops
        what ``silent`` would not have reported, the errors of modules only followed)."""
        self.shadow_root = shadow_root
        self.tool = tool
        self._python_executable = python_executable
        self._status = state_dir / "dmypy.json"
        self._targets = targets
        self._extra = tuple(extra)  # CI's settings on mypy's command line
        self._only_targets = only_targets
        self._state = BackendState.EXITED
        self._child = Child("dmypy", self._lost)
        self._laid: set[str] = set()  # files dmypy may have read otherwise than the shadow has them
        self._moved: set[str] = set()  # rels the shadow changed since dmypy last looked
        self._stamp = 0.0
        self._lock = asyncio.Lock()
        # dmypy's socket, asked directly (``backends.dmypy_wire``); None: through its client
        self._connection: str | None = None

    @property
    def state(self) -> BackendState:
        return self._state

    @property
    def pid(self) -> int | None:
        return self._child.pid

    @property
    def exited(self) -> bool:
        return self._state.is_down

    def _lost(self, reason: str) -> bool:
        failed = self._state is not BackendState.EXITED
        if failed:
            log.warning("dmypy lost: %s", reason)
            self._state = BackendState.ERRORED
        return failed

    async def start(self, timeout_s: float = 60.0) -> None:
        """Start the server and check the whole tree once (the base every patch is laid on)."""
        self._state = BackendState.STARTING
        self._status.parent.mkdir(parents=True, exist_ok=True)
        self._status.unlink(missing_ok=True)
        argv = daemon_argv(self.tool, self._status, self._python_executable, self._extra)
        await self._child.spawn(argv, self.shadow_root, dict(os.environ), _drain)
        deadline = time.monotonic() + timeout_s
        while not self._status.is_file():
            self._child.notice_exit()
            if self._child.gone.is_set() or time.monotonic() > deadline:
                await self._child.stop(None, 1.0)
                self._state = BackendState.ERRORED
                raise BackendFailed(f"dmypy did not start ({self._child.lost_reason})")
            await asyncio.sleep(STATUS_POLL_S)  # dmypy says it listens by writing this file
        try:
            self._connection = await self._probe(deadline)
        except BackendFailed:
            self._state = BackendState.ERRORED  # it exited before its first answer
            raise
        self._state = BackendState.RUNNING

    async def _probe(self, deadline: float) -> str | None:
        """dmypy's socket, if it answers ``status`` on the wire its version should speak; else
        None (every run goes through mypy's own client process, as before the wire)."""
        framing = framing_for(self.tool.version)
        if framing is None:
            return None
        connection = None
        while connection is None:  # the file may be read while dmypy is still writing it
            try:
                connection = str(json.loads(self._status.read_text())["connection_name"])
            except (OSError, ValueError, KeyError, TypeError):
                if time.monotonic() > deadline:
                    return None
                await asyncio.sleep(STATUS_POLL_S)
        try:
            answer = await self._child.wait(
                request(connection, framing, "status"), PROBE_S, "dmypy's status"
            )
        except (DmypyWireError, CheckTimeout) as exc:
            log.warning("dmypy's socket did not answer (%s): its client process is asked", exc)
            return None
        if "error" in answer:
            log.warning("dmypy's status: %s; its client process is asked", answer["error"])
            return None
        return connection

    async def stop(self, grace_s: float = 2.0) -> None:
        if self._child.pid is None:
            self._state = BackendState.EXITED
            return
        self._state = BackendState.EXITED

        async def graceful() -> None:
            await run_captured(stop_argv(self.tool, self._status), self.shadow_root, None,
                               grace_s, "dmypy stop")  # fmt: skip

        await self._child.stop(graceful if self._child.alive else None, grace_s)

    # The LSP-style document calls: dmypy takes none (``check_tree`` lays whole trees).
    def open(self, path: str, text: str) -> None:
        raise NotImplementedError("dmypy checks trees, not documents")

    def change(self, path: str, text: str) -> None:
        raise NotImplementedError("dmypy checks trees, not documents")

    def close(self, path: str) -> None:
        del path

    def is_open(self, path: str) -> bool:
        del path
        return False

    async def diagnostics(self, path: str, timeout_s: float) -> list[RawDiagnostic]:
        raise NotImplementedError("dmypy answers whole trees: check_tree")

    def files_changed(self, events: list[FileEvent]) -> None:
        """The shadow moved under the server: those files get a fresh mtime at the next run. A
        source removed makes this server unusable: dmypy's incremental mode mishandles removals
        (``check.whole``), so the workspace starts a new one."""
        root = str(self.shadow_root)
        for event in events:
            if event.path.startswith(root + os.sep):
                self._moved.add(os.path.relpath(event.path, root))
            if event.kind == "deleted" and event.path.endswith((".py", ".pyi")):
                self._state = BackendState.ERRORED
                self._child.lost_reason = f"{event.path} was removed (dmypy starts afresh)"

    async def check_tree(
        self, tree: LaidTree, overrides: Mapping[str, str | None], timeout_s: float
    ) -> Report:
        """Every diagnostic of the tree with ``overrides`` (root-relative path -> text, None:
        deleted) laid over ``tree`` (the shadow). The tree is put back (``LaidTree.restore``)
        before this returns, whatever happens; the files laid are re-laid as the tree has them
        at the next run, so that dmypy reads them back (a run cut short by a deadline is
        finished by dmypy meanwhile, and the next run goes on from there)."""
        if self.exited:
            raise BackendFailed(f"dmypy is not running ({self._child.lost_reason})")
        async with self._lock:
            desired: dict[str, str | None] = dict(overrides)
            for rel in self._laid - set(desired):
                desired[rel] = tree.read_text(rel)
            self._laid |= set(desired)
            try:
                for rel, text in desired.items():
                    self._lay(tree, rel, text)
                for rel in self._moved - set(desired):
                    self._touch(tree.shadow_path(rel))
                self._moved.clear()
                report = await self._run(timeout_s)
            finally:
                for rel in desired:
                    tree.restore(rel)
                    self._touch(tree.shadow_path(rel))
            self._laid = {rel for rel, text in desired.items() if text != tree.read_text(rel)}
            return report

    def _lay(self, tree: LaidTree, rel: str, text: str | None) -> None:
        path = tree.shadow_path(rel)
        if os.path.islink(path):  # patch paths are real in-root files; never write through one
            raise BackendFailed(f"{rel} is a link in the shadow: refusing to write through it")
        if text is None:
            tree.remove(rel)
        else:
            tree.write(rel, text)
            self._touch(path)

    def _touch(self, path: str) -> None:
        """An mtime in a whole second no earlier write had: dmypy hashes a file only when its
        size or its mtime *rounded down to the second* moved (``mypy/fswatcher.py``), so two
        same-size texts written within one second would read as one (measured: a patch turning
        ``x: str`` into ``x: int`` answered green). Each stamp is a second past the last and past
        now; the shadow's mtimes run ahead of the clock, which nothing else reads."""
        self._stamp = max(float(int(time.time()) + 1), self._stamp + 1.0)
        try:
            os.utime(path, (self._stamp, self._stamp))
        except FileNotFoundError:
            pass

    async def _run(self, timeout_s: float) -> Report:
        targets = self._targets()  # read once: the request and the report's filter agree
        if self._connection is None:
            argv = check_argv(self.tool, self._status, targets)
            code, out, err = await self._child.wait(
                run_captured(argv, self.shadow_root, None, timeout_s, "dmypy check"),
                timeout_s + 1.0,
                "dmypy's answer",
            )
        else:
            code, out, err = await self._ask(self._connection, targets, timeout_s)
        if code not in (0, 1) or "Daemon crashed" in out + err:
            self._state = BackendState.ERRORED
            raise BackendFailed(f"dmypy failed (exit {code}): {(err or out)[-2000:]}")
        try:
            report = parse_report(out, self.shadow_root)
        except MypyOutputError as exc:
            self._state = BackendState.ERRORED
            raise BackendFailed(f"dmypy's answer could not be read: {exc}") from exc
        return only_under(report, targets) if self._only_targets else report

    async def _ask(
        self, connection: str, targets: list[str], timeout_s: float
    ) -> tuple[int, str, str]:
        """``dmypy check <targets>`` on the socket: what its client would exit with and print
        (``mypy/dmypy/client.py: check_output``; an ``error`` is its exit 2)."""
        framing = framing_for(self.tool.version)
        assert framing is not None
        ask = request(connection, framing, "check", files=targets, export_types=False)
        try:
            answer = await self._child.wait(ask, timeout_s, "dmypy's answer")
        except DmypyWireError as exc:
            self._state = BackendState.ERRORED
            raise BackendFailed(f"dmypy's socket failed: {exc}") from exc
        if "error" in answer:
            return 2, "", str(answer["error"])
        code, out, err = answer.get("status"), answer.get("out"), answer.get("err")
        if not isinstance(code, int) or not isinstance(out, str) or not isinstance(err, str):
            return 2, "", f"dmypy's answer has no status, out and err: {str(answer)[:500]}"
        return code, out, err


def only_under(report: Report, targets: list[str]) -> Report:
    """The files of ``report`` that ``targets`` name (a file, or one under a directory), as
    ``follow_imports = silent`` reports; a target that is not a plain relative path (a flag, an
    absolute path) keeps everything (more reported, never less)."""
    plain = [os.path.normpath(t) for t in targets]
    if any(t == "." or t.startswith(("-", "/", "..")) for t in plain):
        return report
    return {
        rel: found
        for rel, found in report.items()
        if any(rel == t or rel.startswith(t + "/") for t in plain)
    }


async def _drain(stdout: asyncio.StreamReader) -> None:
    while line := await stdout.readline():
        log.info("[dmypy] %s", line.decode(errors="replace").rstrip())
