"""The three ways to check a patch with pyright, measured on the same staged workload.

- cold: the ``pyright --outputjson`` CLI on the patched tree written to a temporary copy (what an
  agent does without prewrite), with the CLI's peak RSS;
- daemon: a private daemon (its own ``PREWRITE_RUNTIME_DIR``): start, first check (starts
  pyright), warm ``Client.check`` per patch, RSS of the daemon and of its pyright, and the
  restart after a configuration change; always stopped;
- floor: the same ladder in-process through ``Registry``, no socket or daemon between.

Daemon and floor are warm at the same time and their runs interleaved, so that the load of a
shared machine falls on both alike and their difference is the daemon's own overhead.

Warm runs send each patch with a run-specific comment (``BenchPatch.salted``), so no run can
be answered from the result of an identical earlier request.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.processes import rss_mb, run_sampled, stop_pid, summarize, wait_exit
from prewrite import Client
from prewrite.daemon_start import spawn_daemon, wait_for_daemon
from prewrite.errors import PrewriteError
from prewrite.protocol import CheckRequest
from prewrite.runtime import RuntimePaths, read_status
from prewrite_daemon.backends.pyright_command import cli_argv
from prewrite_daemon.session import Registry

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from bench.patches import BenchPatch
    from bench.workloads import Staged
    from prewrite.protocol import CheckReply, FileChange

CHECK_TIMEOUT_S = 300.0
CLI_TIMEOUT_S = 600.0
STOP_WAIT_S = 30.0
MIN_RUNS = 3
IGNORED = shutil.ignore_patterns(".mypy_cache", "__pycache__", ".dmypy.json")


def write_changes(tree: Path, changes: list[FileChange]) -> None:
    """Write a patch's full-content changes and deletions into ``tree``."""
    for c in changes:
        target = tree / c.path
        if c.delete:
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(c.content or "")


@dataclass(frozen=True)
class Cold:
    ms: float
    errors: int | None  # pyright's errorCount on the patched tree
    peak_rss_mb: float | None


def cold_pyright(staged: Staged, changes: list[FileChange]) -> Cold:
    with tempfile.TemporaryDirectory(prefix="pwb-cold-", dir="/tmp") as tmp:
        tree = Path(tmp) / "tree"
        shutil.copytree(staged.root, tree, ignore=IGNORED)
        write_changes(tree, changes)
        out = Path(tmp) / "pyright.json"
        argv = [*cli_argv(), "--outputjson", "--pythonpath", staged.python]
        run = run_sampled(argv, tree, out, CLI_TIMEOUT_S)
        try:
            errors: int | None = json.loads(out.read_text())["summary"]["errorCount"]
        except (ValueError, KeyError):
            errors = None
        return Cold(round(run.ms, 1), errors, run.peak_rss_mb)


@dataclass
class Budget:
    """Run numbers 1..``runs``, cut short after ``MIN_RUNS`` once ``seconds`` have passed: an
    interface change on a large workload takes seconds per check, a body edit milliseconds."""

    runs: int
    seconds: float = 15.0

    def __iter__(self) -> Iterator[int]:
        deadline = time.perf_counter() + self.seconds
        for run in range(1, self.runs + 1):
            yield run
            if run >= MIN_RUNS and time.perf_counter() > deadline:
                return


@dataclass
class PatchTimes:
    warm: list[float] = field(default_factory=lambda: [])
    ok: bool | None = None
    failed_rung: str | None = None
    new_diagnostics: int = 0
    checked_files: int = 0

    def note(self, reply: CheckReply, ms: float) -> None:
        self.warm.append(ms)
        self.ok, self.failed_rung = reply.ok, reply.failed_rung
        self.new_diagnostics = len(reply.diagnostics)
        self.checked_files = len(reply.checked_files)

    def result(self) -> dict[str, Any]:
        verdict = "ok" if self.ok else f"failed:{self.failed_rung}"
        return {**summarize(self.warm), "verdict": verdict,
                "new_diagnostics": self.new_diagnostics,
                "checked_files": self.checked_files}  # fmt: skip


def _timed_check(client: Client, staged: Staged, changes: list[FileChange]) -> tuple[Any, float]:
    t = time.perf_counter()
    reply = client.check(staged.root, changes, python=staged.python, timeout_s=CHECK_TIMEOUT_S)
    return reply, (time.perf_counter() - t) * 1000


class Floor:
    """The in-process checker: ``Registry.check``, as the daemon's handler calls it."""

    def __init__(self, staged: Staged, state_dir: Path) -> None:
        self.staged = staged
        self.registry = Registry(state_dir)
        self._stopped = False

    async def stop(self) -> None:
        if not self._stopped:
            self._stopped = True
            await self.registry.stop()

    async def check(self, changes: list[FileChange]) -> tuple[CheckReply, float]:
        t = time.perf_counter()
        s = self.staged
        request = CheckRequest(str(s.root), changes, s.python, CHECK_TIMEOUT_S)
        reply = await self.registry.check(request)
        return reply, (time.perf_counter() - t) * 1000


def start_daemon(paths: RuntimePaths, extra: Sequence[str] = ()) -> tuple[Client, float]:
    started = time.perf_counter()
    # The idle timeout is a safety net: the daemon exits on its own if this process dies.
    spawn_daemon(paths, ["--idle-timeout", "900", *extra])
    wait_for_daemon(paths, 60).close()
    client = Client(paths=paths, autostart=False)
    return client, (time.perf_counter() - started) * 1000


async def measure_warm(
    staged: Staged, patches: list[BenchPatch], runs: int, work: Path
) -> dict[str, Any]:
    """Daemon and floor side by side: both warm at once, their runs interleaved (in alternating
    order), so both see the same machine; then the daemon's RSS and its restart. Both are
    stopped whatever happens."""
    paths = RuntimePaths(work / "run")
    client, start_ms = start_daemon(paths)
    pid, server_pid = client.daemon_pid, None
    floor = Floor(staged, work / "floor")
    try:
        first, first_ms = _timed_check(client, staged, patches[0].salted(0))
        _, floor_first_ms = await floor.check(patches[0].salted(0))
        daemon = {p.kind: PatchTimes() for p in patches}
        inproc = {p.kind: PatchTimes() for p in patches}
        for p in patches:
            budget = Budget(runs)
            for run in budget:
                if run % 2:
                    daemon[p.kind].note(*_timed_check(client, staged, p.salted(run)))
                    inproc[p.kind].note(*await floor.check(p.salted(run)))
                else:
                    inproc[p.kind].note(*await floor.check(p.salted(run)))
                    daemon[p.kind].note(*_timed_check(client, staged, p.salted(run)))
            d, f = daemon[p.kind].result(), inproc[p.kind].result()
            print(f"    {p.kind}: warm p50 {d['p50']:.0f} ms, floor p50 {f['p50']:.0f} ms "
                  f"({d['n']} runs each), {d['verdict']}", flush=True)  # fmt: skip
        server_pid = _server_pid(client, staged)
        rss = {"daemon": rss_mb(pid, children=False), "pyright": rss_mb(server_pid)}
        await floor.stop()
        restart_ms = _restart_after_config(client, staged, patches[0])
        server_pid = _server_pid(client, staged)
        return {
            "daemon": {
                "start_ms": round(start_ms, 1),
                "first_check_ms": round(first_ms, 1),
                "first_check_ok": first.ok,
                "patches": {kind: t.result() for kind, t in daemon.items()},
                "rss_mb": rss,
                "restart_after_config_ms": restart_ms,
            },
            "floor": {
                "first_check_ms": round(floor_first_ms, 1),
                "patches": {kind: t.result() for kind, t in inproc.items()},
            },
        }
    finally:
        await floor.stop()
        stop_daemon(client, paths, pid, server_pid)


def stop_daemon(client: Client, paths: RuntimePaths, pid: int, server_pid: int | None) -> None:
    """Ask the bench's daemon to stop (a no-op error once it has); if it does not exit, stop it
    (and its checker) by pid. Every bench section ends its private daemon this way."""
    try:
        client.stop()
    except (PrewriteError, OSError):
        pass  # already stopped, or gone: checked by pid below
    finally:
        client.close()
    _ensure_stopped(paths, pid, server_pid)


def _server_pid(client: Client, staged: Staged) -> int | None:
    for ws in client.status().workspaces:
        if Path(ws.root) == staged.root.resolve():
            return ws.server_pid
    return None


def _restart_after_config(client: Client, staged: Staged, patch: BenchPatch) -> float:
    """Edit the workspace's pyproject.toml on disk; time the next check (restart included)."""
    pyproject = staged.root / "pyproject.toml"
    before = pyproject.read_text()
    pyproject.write_text(before + "\n# bench: a configuration change\n")
    try:
        restarts = [ws.restarts for ws in client.status().workspaces]
        _, ms = _timed_check(client, staged, patch.salted(-1))
        after = [ws.restarts for ws in client.status().workspaces]
        if sum(after) <= sum(restarts):
            print("    warning: no checker restart was recorded after the config change")
        return round(ms, 1)
    finally:
        pyproject.write_text(before)


def _ensure_stopped(paths: RuntimePaths, pid: int, server_pid: int | None) -> None:
    """The daemon exits after ``stop``; if it does not, stop it (and its pyright) by pid."""
    if wait_exit(pid, STOP_WAIT_S) and read_status(paths) is None:
        return
    print(f"    warning: the daemon (pid {pid}) did not stop; terminating it")
    stop_pid(pid, grace_s=10.0)
    if server_pid is not None:
        stop_pid(server_pid)
