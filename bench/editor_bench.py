"""The Editors section of ``make bench``: what an editor gets through ``prewrite lsp``.

On the httpx workload (staged as for the Python section), one private daemon serves an agent
(``Client`` checks) and an editor (a pygls ``LanguageClient`` on ``prewrite lsp``); beside it the
bench starts a direct ``pyright-langserver --stdio`` with the daemon's settings (``openFilesOnly``,
the workspace's interpreter) and the same document open. Measured side by side:

- idle latency: hover, definition and completion at fixed positions in ``httpx/_client.py`` (the
  first ``self._send_handling_auth(`` call), proxy and direct interleaved in alternating order;
  the overhead is proxy p50 - direct p50;
- memory: RSS of the daemon's one pyright serving both agent and editor, vs a direct editor
  pyright plus the daemon's pyright as it was with only the agent;
- fairness: proxy hovers while an agent (a ``Client`` in a thread) checks an interface-changing
  patch (``bench.patches`` "signature") back to back, vs the idle hovers; direct hovers are
  interleaved as a control for plain CPU contention.

Nothing is tuned here: the figures are reported as measured.

This module runs the section (the daemon, both editors, memory); the editor is
``bench.editor_client``, the latency figures ``bench.editor_latency``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil

from bench.editor_client import Editor, find_probe
from bench.editor_latency import AgentLoop, idle_latency, under_load
from bench.measure import CHECK_TIMEOUT_S, start_daemon, stop_daemon
from bench.patches import generate
from bench.processes import rss_mb
from bench.trusting import trusting
from bench.workloads import CATALOGUE, prepare, stage
from prewrite.runtime import RuntimePaths
from prewrite_daemon.backends.pyright_command import langserver_argv

if TYPE_CHECKING:
    from bench.patches import BenchPatch
    from bench.workloads import Staged
    from prewrite import Client

EDITOR_WORKLOAD = "httpx"
REQUESTS = 30  # per method and side, idle
FAIR_REQUESTS = 30  # proxy hovers under agent load


def _direct_pyright_pid() -> int | None:
    """The direct pyright this process started (its child running langserver.index.js)."""
    script = langserver_argv()[1]
    for child in psutil.Process().children(recursive=True):
        try:
            if script in child.cmdline():
                return child.pid
        except psutil.NoSuchProcess:
            continue
    return None


def _server_pids(client: Client) -> dict[Path, int | None]:
    """The daemon's workspaces: root -> its checker's pid."""
    return {Path(ws.root): ws.server_pid for ws in client.status().workspaces}


async def _measure(
    staged: Staged, patches: list[BenchPatch], work: Path, spare: bool = True
) -> dict[str, Any]:
    """Idle latency, memory and fairness with the daemon's editor spare; ``spare`` False: only
    the fairness figure, from a daemon without spares (editors wait for agent checks)."""
    paths = RuntimePaths(work / ("run" if spare else "run-nospare"))
    client, _start_ms = start_daemon(paths, () if spare else ("--editor-spare-idle", "0"))
    pid, server_pid = client.daemon_pid, None
    signature = next(p for p in patches if p.kind == "signature")
    probe = find_probe(staged.root)
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(paths.runtime_dir))
    proxy = Editor("proxy", staged.root, staged.python)
    direct = Editor("direct", staged.root, staged.python)
    result: dict[str, Any] = {"label": staged.label, "file": probe.path, "line": probe.line + 1,
                              "signature_patch": signature.name}  # fmt: skip
    try:
        for run in range(3):  # the agent warms the daemon's pyright (a real agent's working set)
            client.check(staged.root, signature.salted(run), python=staged.python,
                         timeout_s=CHECK_TIMEOUT_S)  # fmt: skip
        server_pid = _server_pids(client).get(staged.root.resolve())
        agent_only = rss_mb(server_pid)
        prewrite = shutil.which("prewrite", path=str(Path(sys.executable).parent))
        if prewrite is None:
            raise RuntimeError("no prewrite executable beside this interpreter")
        await proxy.start([prewrite, "lsp"], env, {"python": staged.python})
        await direct.start(langserver_argv(), dict(os.environ), None)
        for ed in (proxy, direct):
            ed.open(probe.path)
            result[f"{ed.name}_ready_ms"] = round(await ed.wait_ready(probe), 1)
        if not spare:
            agent = AgentLoop(client, staged, signature)
            return {"fairness": await under_load(proxy, direct, probe, agent, FAIR_REQUESTS, paths)}
        result["idle"] = await idle_latency(proxy, direct, probe, REQUESTS)
        result["workspaces"] = len(_server_pids(client))  # 1: editor and agent share it
        direct_rss = rss_mb(_direct_pyright_pid())
        shared = rss_mb(server_pid)
        result["rss_mb"] = {
            "daemon_pyright_agent_only": agent_only,
            "daemon_pyright_shared": shared,
            "direct_editor_pyright": direct_rss,
            "separate_total": _sum(direct_rss, agent_only),
            "daemon": rss_mb(pid, children=False),
        }
        print(f"    RSS: shared pyright {shared} MB vs direct {direct_rss} MB + agent-only "
              f"{agent_only} MB", flush=True)  # fmt: skip
        agent = AgentLoop(client, staged, signature)
        result["fairness"] = await under_load(proxy, direct, probe, agent, FAIR_REQUESTS, paths)
        result["fairness"]["hover_idle"] = result["idle"]["hover"]["proxy"]
        return result
    finally:
        await proxy.stop()
        await direct.stop()
        stop_daemon(client, paths, pid, server_pid)


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a + b, 1)


def run_editors(tmp: Path, seed: int) -> dict[str, Any]:
    """The Editors section on httpx; a failure is recorded in the result, not raised."""
    started = time.perf_counter()
    result: dict[str, Any] = {"name": EDITOR_WORKLOAD, "label": EDITOR_WORKLOAD}
    print(f"[editors] {EDITOR_WORKLOAD}: prewrite lsp vs a direct pyright ...", flush=True)
    try:
        workload = CATALOGUE[EDITOR_WORKLOAD]
        staged = stage(workload, prepare(workload), tmp / "editors" / "ws")
        patches = generate(staged.root, seed)
        # A person's editor works in their own repository, trusted (spares need it): a trust
        # list private to the bench's daemons says so.
        with trusting([staged.root], tmp / "editors" / "trusted"):
            result.update(asyncio.run(_measure(staged, patches, tmp / "editors")))
            print("  the same load on a daemon without editor spares ...", flush=True)
            without = asyncio.run(_measure(staged, patches, tmp / "editors", spare=False))
        result["fairness_no_spare"] = without["fairness"]
    except Exception as exc:
        traceback.print_exc()
        result.setdefault("errors", []).append(f"{type(exc).__name__}: {exc}")
    result["phase_s"] = round(time.perf_counter() - started, 1)
    return result
