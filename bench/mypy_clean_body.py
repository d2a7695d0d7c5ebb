"""``python -m bench.mypy_clean_body``: mypy as the judge on httpx and pytest, a body edit dmypy
answers warm.

``bench.mypy_bench`` measures the seeded patches; on httpx (``strict = true``) those touch files
holding ``# type: ignore`` comments or change interfaces their importers see, which prewrite
judges with cold mypy (``check.whole.why_cold``: dmypy drops unused-ignore errors). This one
measures the warm path itself, per workload side by side in one run: the same function body
edited 7 times (salted) in a file holding no ignore comment (httpx's ``_utils.py``, pytest's
``stash.py``) — prewrite's first and warm checks against cold ``mypy`` on the patched tree, and
dmypy's own warm re-check of the same edit on its own copy of the tree (the same mypy, flags and
targets), interleaved with prewrite's checks so that load falls on both alike: ``dmypy check
<targets>`` and ``dmypy recheck``, as a user runs them (each its client process and the server's
increment), and the same check asked on dmypy's socket (``backends.dmypy_wire``: the server's
increment alone, the floor of any client); each edit is then put back and re-checked untimed.

The workspace is trusted (``bench.trusting``), so the mypy is the one the daemon picks for it
(``bench.mypy_bench.judge``): prewrite's bundled mypy on httpx (its venv has none), pytest's own
1.11.2 on pytest (its CI's pin, in its venv: its ``python_version = "3.8"`` is one mypy 2.x
refuses). ``--workloads httpx`` (or ``pytest``) narrows the run; ``PWB_TIMINGS=1`` prints each
prewrite check's timings too.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.mypy_bench import Judge, judge, trusted
from bench.workloads import PYTEST
from prewrite.client import Client
from prewrite.protocol import FileChange
from prewrite_daemon.backends.dmypy_wire import framing_for, request
from prewrite_daemon.backends.mypy_command import cli_argv, mypy_flags
from tests.support.workloads import HTTPX, WorkloadSpec, prepare_workload

RUNS = 7


@dataclass(frozen=True)
class BodyEdit:
    """A workload and the body edit timed on it: ``before`` becomes ``after`` (``{i}``: salt)."""

    spec: WorkloadSpec
    target: str  # a file holding no ignore comment, so dmypy is trusted with the edit
    before: str
    after: str

    def edit(self, text: str, i: int) -> str:
        if text.count(self.before) != 1:
            raise RuntimeError(f"{self.target} changed: the edit's anchor is not there once")
        return text.replace(self.before, self.after.format(i=i))


EDITS = {
    "httpx": BodyEdit(
        HTTPX, "httpx/_utils.py",
        '        return ""\n    return str(value)',
        '        return ""\n    _n = {i} + 1\n    return str(value)',
    ),
    "pytest": BodyEdit(
        PYTEST, "src/_pytest/stash.py",
        "        except KeyError:\n            return default",
        "        except KeyError:\n            _n = {i} + 1\n            return default",
    ),
}  # fmt: skip


def _cold_ms(root: Path, python: str, found: Judge, target: str, text: str) -> float:
    with tempfile.TemporaryDirectory(prefix="pwb-mypy-") as tmp:
        tree = Path(tmp) / "t"
        shutil.copytree(root, tree)
        (tree / target).write_text(text)
        argv = cli_argv(found.tool, python, found.targets, found.flags)
        t = time.perf_counter()
        done = subprocess.run(argv, cwd=tree, capture_output=True, text=True, check=False)
        ms = (time.perf_counter() - t) * 1000
    if done.returncode not in (0, 1):
        raise RuntimeError(f"cold mypy exited {done.returncode}: {done.stderr[-500:]}")
    return ms


class Dmypy:
    """A warm dmypy of the bench's own on a copy of the tree; ``warm`` times its re-checks."""

    def __init__(self, tree: Path, python: str, found: Judge, target: str) -> None:
        self.tree, self.status = tree, tree.parent / "dmypy.json"
        self.tool, self.targets, self.target = found.tool, found.targets, target
        self._run("start", "--", *mypy_flags(self.tool, python, found.flags))
        self._run("check", *self.targets)
        self._stamp = time.time() + 1
        self.times: dict[str, list[float]] = {"check": [], "recheck": [], "socket": []}

    def _run(self, *args: str) -> float:
        argv = [self.tool.python, "-m", "mypy.dmypy", "--status-file", str(self.status), *args]
        t = time.perf_counter()
        done = subprocess.run(argv, cwd=self.tree, capture_output=True, text=True, check=False)
        ms = (time.perf_counter() - t) * 1000
        if done.returncode not in (0, 1):
            raise RuntimeError(f"dmypy {args[0]}: {done.returncode} {done.stdout[-500:]}")
        return ms

    def _write(self, text: str) -> None:
        """As prewrite writes: a whole second of its own as mtime (dmypy rounds mtimes down)."""
        path = self.tree / self.target
        path.write_text(text)
        self._stamp = max(int(time.time()) + 1, self._stamp + 1)
        os.utime(path, (self._stamp, self._stamp))

    def _ask(self) -> float:
        """``check <targets>`` on the server's socket, no client process."""
        connection = json.loads(self.status.read_text())["connection_name"]
        framing = framing_for(self.tool.version)
        assert framing is not None
        t = time.perf_counter()
        answer = asyncio.run(request(connection, framing, "check", files=self.targets,
                                     export_types=False))  # fmt: skip
        ms = (time.perf_counter() - t) * 1000
        if answer.get("status") not in (0, 1):
            raise RuntimeError(f"dmypy on its socket: {str(answer)[:500]}")
        return ms

    def warm(self, edited: str, original: str) -> None:
        for how in ("check", "recheck", "socket"):
            args = ("check", *self.targets) if how == "check" else ("recheck",)
            self._write(edited)
            self.times[how].append(self._ask() if how == "socket" else self._run(*args))
            self._write(original)
            self._run(*args)

    def stop(self) -> None:
        self._run("stop")


def measure(name: str, work: Path) -> str:
    """One workload's line: prewrite's checks, cold mypy and dmypy's, side by side."""
    body = EDITS[name]
    pristine = prepare_workload(body.spec)
    root = work / name
    shutil.copytree(pristine.root, root)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + "\n[tool.prewrite]\nformat = false\nlint = false\n"
        'typecheck = ["mypy"]\n'
    )
    found = judge(root, pristine.python)
    old = (root / body.target).read_text()
    base = hashlib.sha256(old.encode()).hexdigest()
    warm: list[float] = []
    peer_tree = work / "peer" / name
    shutil.copytree(root, peer_tree)
    dmypy = Dmypy(peer_tree, pristine.python, found, body.target)
    with trusted(root, pristine.python, work / f"{name}-trust"), Client() as client:
        try:
            for i in range(RUNS + 1):
                change = FileChange(path=body.target, content=body.edit(old, i), base_sha256=base)
                t = time.perf_counter()
                reply = client.check(str(root), [change], python=pristine.python, timeout_s=600)
                warm.append((time.perf_counter() - t) * 1000)
                judged = next((v for v in reply.verified if "judged by" in v), "")
                if not reply.ok or any("cold CLI" in v for v in reply.verified):
                    raise RuntimeError(f"not a warm green: {reply.verified}")
                if found.tool.label not in judged:
                    raise RuntimeError(f"judged by another mypy than {found.tool.label}: {judged}")
                if os.environ.get("PWB_TIMINGS"):
                    print(f"  check {i}: {warm[-1]:.0f} ms {reply.timings_ms}", file=sys.stderr)
                if i:
                    dmypy.warm(body.edit(old, 100 + i), old)
        finally:
            client.stop()
            dmypy.stop()
    cold = [
        _cold_ms(root, pristine.python, found, body.target, body.edit(old, i)) for i in range(3)
    ]
    first, rest = warm[0], warm[1:]
    p50, cold_p50 = statistics.median(rest), statistics.median(cold)
    peer = {how: statistics.median(ms) for how, ms in dmypy.times.items()}
    return (f"{name} {body.target} body edit, judged by {found.tool.label}: first check "
            f"{first:.0f} ms; warm p50 {p50:.0f} ms ({_ms(rest)}); cold mypy {cold_p50:.0f} ms "
            f"({_ms(cold)}); cold / warm {cold_p50 / p50:.1f}x; dmypy's warm check p50 "
            f"{peer['check']:.0f} ms ({_ms(dmypy.times['check'])}), recheck p50 "
            f"{peer['recheck']:.0f} ms ({_ms(dmypy.times['recheck'])}), on its socket p50 "
            f"{peer['socket']:.0f} ms ({_ms(dmypy.times['socket'])}); prewrite / dmypy check "
            f"{p50 / peer['check']:.2f}x, / recheck {p50 / peer['recheck']:.2f}x, / socket "
            f"{p50 / peer['socket']:.2f}x; load {os.getloadavg()[0]:.1f}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mypy_clean_body")
    parser.add_argument("--workloads", default=",".join(EDITS), help="httpx,pytest (default)")
    names = [n.strip() for n in parser.parse_args(argv).workloads.split(",") if n.strip()]
    unknown = [n for n in names if n not in EDITS]
    if unknown:
        parser.error(f"unknown workload(s): {', '.join(unknown)}")
    work = Path(tempfile.mkdtemp(prefix="pwb-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(work / "run")  # nothing reaches the user's daemon
    try:
        for name in names:
            print(measure(name, work), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _ms(values: list[float]) -> str:
    return ", ".join(f"{v:.0f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
