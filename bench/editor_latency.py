"""The Editors section's latency figures: hover, definition and completion on an idle daemon,
and hovers while an agent (``AgentLoop``, a ``Client`` in a thread) checks back to back."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import TYPE_CHECKING, Any

from bench.measure import CHECK_TIMEOUT_S
from bench.processes import rss_mb, summarize
from prewrite import Client
from prewrite.errors import PrewriteError

if TYPE_CHECKING:
    from bench.editor_client import Editor, Probe
    from bench.patches import BenchPatch
    from bench.workloads import Staged
    from prewrite.runtime import RuntimePaths

FAIR_PACE_S = 0.25  # between hovers under load: they span several agent checks, as a person's would
WARMUP = 3  # unmeasured requests per method and side
METHODS = ("hover", "definition", "completion")


async def idle_latency(proxy: Editor, direct: Editor, probe: Probe, n: int) -> dict[str, Any]:
    """Each method ``n`` times per side, the sides alternating which goes first."""
    for method in METHODS:
        for _ in range(WARMUP):
            await proxy.request(method, probe)
            await direct.request(method, probe)
    out: dict[str, Any] = {}
    for method in METHODS:
        times: dict[str, list[float]] = {"proxy": [], "direct": []}
        for i in range(n):
            for side in (proxy, direct) if i % 2 else (direct, proxy):
                times[side.name].append((await side.request(method, probe))[0])
        p, d = summarize(times["proxy"]), summarize(times["direct"])
        out[method] = {"proxy": p, "direct": d, "overhead_p50": round(p["p50"] - d["p50"], 1)}
        print(f"    idle {method}: proxy p50 {p['p50']:.1f} ms p95 {p['p95']:.1f} ms, "
              f"direct p50 {d['p50']:.1f} ms p95 {d['p95']:.1f} ms", flush=True)  # fmt: skip
    return out


class AgentLoop:
    """An agent checking ``patch`` back to back in a thread until stopped."""

    def __init__(self, client: Client, staged: Staged, patch: BenchPatch) -> None:
        self.client, self.staged, self.patch = client, staged, patch
        self.checks: list[float] = []
        self.verdicts: set[str] = set()
        self.stopped = threading.Event()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bench-agent", daemon=True)

    def _run(self) -> None:
        run = 1000
        while not self.stopped.is_set():
            self.started.set()
            t = time.perf_counter()
            s = self.staged
            try:
                reply = self.client.check(
                    s.root, self.patch.salted(run), python=s.python, timeout_s=CHECK_TIMEOUT_S
                )
            except (PrewriteError, OSError) as exc:  # reported with the figures, not raised
                self.verdicts.add(f"error:{type(exc).__name__}")
                return
            self.checks.append((time.perf_counter() - t) * 1000)
            self.verdicts.add("ok" if reply.ok else f"failed:{reply.failed_rung}")
            run += 1


async def under_load(
    proxy: Editor, direct: Editor, probe: Probe, agent: AgentLoop, n: int, paths: RuntimePaths
) -> dict[str, Any]:
    """Hovers while the agent checks: proxy (the fairness figure) and direct (a control)."""
    agent.thread.start()
    await asyncio.to_thread(agent.started.wait, 60)
    times: dict[str, list[float]] = {"proxy": [], "direct": []}
    spare_rss: float | None = None
    served = 0
    try:
        for i in range(n):
            for side in (proxy, direct) if i % 2 else (direct, proxy):
                times[side.name].append((await side.request("hover", probe))[0])
            rss, served = _spare_status(paths)
            spare_rss = max(spare_rss or 0.0, rss) or None
            await asyncio.sleep(FAIR_PACE_S)
    finally:
        agent.stopped.set()
        await asyncio.to_thread(agent.thread.join, CHECK_TIMEOUT_S)
    p = summarize(times["proxy"])
    print(f"    hover under agent load: proxy p50 {p['p50']:.0f} ms p95 {p['p95']:.0f} ms "
          f"worst {p['max']:.0f} ms; {len(agent.checks)} agent checks", flush=True)  # fmt: skip
    return {
        "spare_rss_mb": spare_rss,
        "spare_served": served,
        "hover_proxy": p,
        "hover_direct": summarize(times["direct"]),
        "agent_checks": summarize(agent.checks) if agent.checks else None,
        "agent_verdicts": sorted(agent.verdicts),
    }


def _spare_status(paths: RuntimePaths) -> tuple[float, int]:
    """RSS of the editors' spare checkers now (0 when none runs), requests they served.
    Its own client: the agent's is busy in its thread."""
    with Client(paths=paths, autostart=False) as client:
        workspaces = client.status().workspaces
    rss = sum(rss_mb(ws.spare_pid) or 0.0 for ws in workspaces if ws.spare_pid)
    return rss, sum(ws.spare_served for ws in workspaces)
