"""``python -m bench.agents``: several agents checking different patches on one repository at once.

On httpx (60 modules, pyright judging), ``N`` agents (1, 4 and 8 by default), each a thread with
its own ``Client`` (its own socket), check body edits of *different* files back to back, as
parallel agents editing one repository do. Every round checks the same eight files in turn:
agent ``i`` of ``N`` takes files ``i, i + N, ...`` (one agent all eight, eight agents one each),
so CPU per check compares like with like (the files cost 27-63 ms of the daemon's CPU each).
Per ``N``: every check's latency as the agent sees it
(p50, p95), throughput (checks per second over the run) and how the daemon's checker held up
(RSS), and where a check's CPU went: the daemon's own process and its checker's, per check. All
in one run, on a private daemon warmed before the first measured check. Every answer
must be a green with the patched file checked: a wrong or failed answer stops the bench.

The daemon serialises checks on one workspace (one warm checker, one view of each file); what
this measures is what that costs agents, the baseline the options (a pool of checkers, batching
compatible checks) are judged against.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench.processes import cpu_s, percentile, rss_mb
from prewrite.client import Client
from prewrite.protocol import FileChange
from tests.support.workloads import TYPECHECK_ONLY, prepare_workload

if TYPE_CHECKING:
    from collections.abc import Sequence

FILES = (
    "httpx/_utils.py", "httpx/_urls.py", "httpx/_status_codes.py", "httpx/_multipart.py",
    "httpx/_auth.py", "httpx/_config.py", "httpx/_content.py", "httpx/_decoders.py",
)  # fmt: skip


def _body_edit(text: str, salt: str) -> str:
    """A private statement appended to the module: nothing its importers see changes."""
    return f"{text.rstrip()}\n\n_pw_bench = {salt!r}\n"


class Agent(threading.Thread):
    """One agent: ``checks`` body edits of its own files in turn, timed as it sees them."""

    def __init__(
        self, root: Path, python: str, rels: Sequence[str], checks: int, go: threading.Barrier
    ):
        super().__init__(name=f"agent {rels[0]}")
        self.root, self.python, self.rels, self.checks, self.go = root, python, rels, checks, go
        self.latencies_ms: list[float] = []
        self.failure: str | None = None

    def run(self) -> None:
        texts = {rel: (self.root / rel).read_text() for rel in self.rels}
        try:
            with Client(call_timeout_s=120) as client:
                self.go.wait(timeout=120)
                for i in range(self.checks):
                    rel = self.rels[i % len(self.rels)]
                    base = hashlib.sha256(texts[rel].encode()).hexdigest()
                    new = _body_edit(texts[rel], str(i))
                    change = FileChange(path=rel, base_sha256=base, content=new)
                    t = time.perf_counter()
                    reply = client.check(self.root, [change], python=self.python, timeout_s=120)
                    self.latencies_ms.append((time.perf_counter() - t) * 1000)
                    if not reply.ok or rel not in reply.checked_files:
                        self.failure = f"{rel}: not a green of the patched file: {reply}"
                        return
        except Exception as exc:  # reported by the bench, which stops
            self.failure = f"{self.rels}: {type(exc).__name__}: {exc}"


def measure(
    root: Path, python: str, agents: int, checks: int, pids: tuple[int, int | None]
) -> dict[str, float]:
    """One round; ``pids``: the daemon's and its checker's, whose CPU per check is reported."""
    go = threading.Barrier(agents)
    crew = [Agent(root, python, FILES[i :: agents] or FILES[i % len(FILES) :], checks, go)
            for i in range(agents)]  # fmt: skip
    daemon, checker = pids
    cpu_daemon, cpu_checker = cpu_s(daemon, children=False), cpu_s(checker)
    started = time.perf_counter()
    for agent in crew:
        agent.start()
    for agent in crew:
        agent.join(timeout=900)
    wall = time.perf_counter() - started
    failures = [a.failure for a in crew if a.failure]
    if failures:
        raise RuntimeError("; ".join(failures))
    latencies = [ms for a in crew for ms in a.latencies_ms]
    n = len(latencies)
    return {
        "agents": agents, "checks": n, "p50_ms": statistics.median(latencies),
        "p95_ms": percentile(latencies, 0.95), "per_s": n / wall,
        "daemon_cpu_ms": (cpu_s(daemon, children=False) - cpu_daemon) * 1000 / n,
        "checker_cpu_ms": (cpu_s(checker) - cpu_checker) * 1000 / n,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.agents", description=__doc__)
    parser.add_argument("--agents", default="1,4,8", help="concurrent agents per round (1,4,8)")
    parser.add_argument("--checks", type=int, default=16, help="checks per agent (16)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="pwb-agents-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(work / "run")
    pristine = prepare_workload()
    root = work / "httpx"
    shutil.copytree(pristine.root, root)
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + TYPECHECK_ONLY)
    try:
        with Client() as client:
            for rel in FILES:  # warm: every file's base is in the daemon's cache
                text = (root / rel).read_text()
                base = hashlib.sha256(text.encode()).hexdigest()
                change = FileChange(path=rel, base_sha256=base, content=_body_edit(text, "warm"))
                client.check(root, [change], python=pristine.python, timeout_s=300)
            status = client.status()
            [ws] = status.workspaces
            pids = (status.pid, ws.server_pid)
            rows = [
                measure(root, pristine.python, int(n), args.checks, pids)
                for n in args.agents.split(",")
            ]
            [ws] = client.status().workspaces
            client.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    one = rows[0]["p95_ms"]
    print(f"httpx 0.28.1, pyright, body edits of different files; load {os.getloadavg()[0]:.1f}; "
          f"checker RSS after {rss_mb(ws.server_pid) or ws.rss_bytes / 2**20:.0f} MB")  # fmt: skip
    print("| agents | checks | p50 ms | p95 ms | p95 / one agent's | checks/s "
          "| CPU per check: daemon / checker |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['agents']:.0f} | {r['checks']:.0f} | {r['p50_ms']:.0f} | {r['p95_ms']:.0f} "
              f"| {r['p95_ms'] / one:.1f}x | {r['per_s']:.1f} "
              f"| {r['daemon_cpu_ms']:.0f} ms / {r['checker_cpu_ms']:.0f} ms |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
