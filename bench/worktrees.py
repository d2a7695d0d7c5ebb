"""``python -m bench.worktrees``: the first check in a new git worktree of a warm repository.

On httpx (60 modules, its tests included, pyright judging) made a git repository and warmed up
on a private daemon (a first check, then ``--runs`` warm body edits: the repository's p50), for
each delay of ``--delays`` (seconds; an agent starts working that long after its worktree was
made), side by side:

- a **worktree** (``git worktree add``), which the daemon warms up as it appears (its checker,
  graph and bases: ``prewrite_daemon.worktrees``, ``recheck/prime.py``);
- a **clone** (``git clone`` of the same commit): the same files, but not a worktree of the warm
  repository, so nothing warms it up before its first check — what every worktree cost before.

Both are made at the same moment; after the delay, each gets a body edit of the same file (its
first check), then ``--runs`` more (warm p50). Every answer must be a green with the patched
file checked. Reported per delay: first check and warm p50 of each, and each workspace's checker
RSS; the daemon's log gives how long priming took. One run, one daemon (``--max-warm`` raised so
no workspace is evicted), so every figure saw the same machine; each pair is removed before the
next delay's is made, so no earlier worktree's priming competes with the next pair's checks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.measure import start_daemon, stop_daemon
from prewrite.protocol import FileChange
from prewrite.runtime import RuntimePaths
from tests.support.git_diffs import GIT_ENV
from tests.support.workloads import TYPECHECK_ONLY, prepare_workload

if TYPE_CHECKING:
    from prewrite.client import Client

RESULTS = Path(__file__).parent / "results"
FILE = "httpx/_utils.py"


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, check=True,
        capture_output=True, timeout=120,
    )  # fmt: skip


def _timed(client: Client, root: Path, python: str, salt: str) -> float:
    """One body edit of ``FILE`` under ``root``, checked; its latency in ms (a green or stop)."""
    text = (root / FILE).read_text()
    new = f"{text.rstrip()}\n\n_pw_bench = {salt!r}\n"
    change = FileChange(FILE, hashlib.sha256(text.encode()).hexdigest(), new)
    started = time.perf_counter()
    reply = client.check(root, [change], python=python, timeout_s=300)
    took = (time.perf_counter() - started) * 1000
    if not reply.ok or FILE not in reply.checked_files:
        raise RuntimeError(f"{root}: not a green of {FILE}: {reply}")
    return took


def _first_then_warm(client: Client, root: Path, python: str, runs: int) -> dict[str, float]:
    first = _timed(client, root, python, "first")
    warm = [_timed(client, root, python, str(i)) for i in range(runs)]
    return {"first_ms": round(first), "warm_p50_ms": round(statistics.median(warm))}


def _rss_mb(client: Client) -> dict[str, float]:
    return {w.root: round(w.rss_bytes / 2**20) for w in client.status().workspaces}


def _priming(log: Path) -> dict[str, str]:
    found = re.findall(r"primed (\d+) bases of (\S+) in ([\d.]+) s", log.read_text())
    return {root: f"{n} files in {s} s" for n, root, s in found}


def run(delays: list[float], runs: int, work: Path) -> dict[str, Any]:
    pristine = prepare_workload()
    repo = work / "repo"
    shutil.copytree(pristine.root, repo)
    (repo / "pyproject.toml").write_text((repo / "pyproject.toml").read_text() + TYPECHECK_ONLY)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    paths = RuntimePaths(work / "run")
    client, _ = start_daemon(paths, ["--max-warm", str(2 + 2 * len(delays))])
    pid = client.daemon_pid
    try:
        times = _first_then_warm(client, repo, pristine.python, runs)
        rows: list[dict[str, Any]] = [{"workspace": "repository", "delay_s": None, **times}]
        time.sleep(2)  # the repository's watcher is up: its first look at the worktrees is done
        for n, delay in enumerate(delays):
            worktree, clone = work / f"worktree{n}", work / f"clone{n}"
            _git(repo, "worktree", "add", "-q", str(worktree))
            _git(work, "clone", "-q", str(repo), str(clone))
            time.sleep(delay)
            for kind, root in (("worktree", worktree), ("clone", clone)):
                times = _first_then_warm(client, root, pristine.python, runs)
                rows.append({"workspace": kind, "delay_s": delay, **times})
            rss = _rss_mb(client)
            for row, root in zip(rows[-2:], (worktree, clone), strict=True):
                row["rss_mb"] = rss.get(str(root.resolve()))
            # Gone before the next delay: the daemon releases their checkers (and a priming
            # still under way), which would otherwise compete with the next pair's checks.
            _git(repo, "worktree", "remove", "--force", str(worktree))
            shutil.rmtree(clone)
        rows[0]["rss_mb"] = _rss_mb(client).get(str(repo.resolve()))
        return {"rows": rows, "priming": _priming(paths.log_file), "load": os.getloadavg()}
    finally:
        stop_daemon(client, paths, pid, None)


def render(result: dict[str, Any]) -> str:
    lines = [
        "| workspace | made before its first check | first check | warm p50 | checker RSS |",
        "|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        delay = "—" if r["delay_s"] is None else f"{r['delay_s']:g} s"
        lines.append(
            f"| {r['workspace']} | {delay} | {r['first_ms']} ms | {r['warm_p50_ms']} ms "
            f"| {r['rss_mb']} MB |"
        )
    lines.append("")
    lines += [f"priming {root}: {what}" for root, what in result["priming"].items()]
    lines.append(f"load average at the end: {result['load']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.worktrees", description=__doc__)
    parser.add_argument("--delays", default="0,5,20", help="seconds from `git worktree add` to "
                        "the first check, one worktree and one clone each (0,5,20)")  # fmt: skip
    parser.add_argument("--runs", type=int, default=5, help="warm checks after the first (5)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where worktrees.json goes")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="pwb-worktrees-", dir="/tmp"))
    try:
        delays = [float(d) for d in args.delays.split(",")]
        result = run(delays, args.runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "worktrees.json").write_text(json.dumps(result, indent=2) + "\n")
    print(render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
