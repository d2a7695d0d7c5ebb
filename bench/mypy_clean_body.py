"""``python -m bench.mypy_clean_body``: mypy as the judge on httpx, a body edit dmypy answers warm.

``bench.mypy_bench`` measures the seeded patches; on httpx (``strict = true``) those touch files
holding ``# type: ignore`` comments or change interfaces their importers see, which prewrite
judges with cold mypy (``check.whole.why_cold``: dmypy drops unused-ignore errors). This one
measures the warm path itself, side by side in one run: the same function body edited 7 times
(salted) in ``httpx/_utils.py``, which holds no ignore comment — prewrite's first and warm checks
against cold ``mypy`` on the patched tree, and dmypy's own warm re-check of the same edit on its
own copy of the tree (the same mypy, flags and targets), interleaved with prewrite's checks so
that load falls on both alike: ``dmypy check <targets>`` and ``dmypy recheck``, as a user runs
them (each its client process and the server's increment), and the same check asked on dmypy's
socket (``backends.dmypy_wire``: the server's increment alone, the floor of any client); each
edit is then put back and re-checked untimed. ``PWB_TIMINGS=1`` prints each prewrite check's
timings too.
"""

from __future__ import annotations

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
from pathlib import Path

from prewrite.client import Client
from prewrite.protocol import FileChange
from prewrite_daemon.backends.dmypy_wire import framing_for, request
from prewrite_daemon.backends.mypy_command import cli_argv, find_mypy, mypy_flags
from tests.support.workloads import prepare_workload

TARGETS = ["httpx", "tests"]
TARGET = "httpx/_utils.py"
BEFORE = '        return ""\n    return str(value)'
RUNS = 7


def _edit(text: str, i: int) -> str:
    after = f'        return ""\n    _n = {i} + 1\n    return str(value)'
    if BEFORE not in text:
        raise RuntimeError(f"{TARGET} changed: the edit's anchor is gone")
    return text.replace(BEFORE, after)


def _cold_ms(root: Path, python: str, text: str) -> float:
    with tempfile.TemporaryDirectory(prefix="pwb-mypy-") as tmp:
        tree = Path(tmp) / "t"
        shutil.copytree(root, tree)
        (tree / TARGET).write_text(text)
        argv = cli_argv(find_mypy([], None), python, TARGETS)
        t = time.perf_counter()
        subprocess.run(argv, cwd=tree, capture_output=True, check=False)
        return (time.perf_counter() - t) * 1000


class Dmypy:
    """A warm dmypy of the bench's own on a copy of the tree; ``warm`` times its re-checks."""

    def __init__(self, tree: Path, python: str) -> None:
        self.tree, self.status = tree, tree.parent / "dmypy.json"
        self.tool = find_mypy([], None)
        flags = mypy_flags(self.tool, python)
        self._run("start", "--", *flags)
        self._run("check", *TARGETS)
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
        path = self.tree / TARGET
        path.write_text(text)
        self._stamp = max(int(time.time()) + 1, self._stamp + 1)
        os.utime(path, (self._stamp, self._stamp))

    def _ask(self) -> float:
        """``check <targets>`` on the server's socket, no client process."""
        connection = json.loads(self.status.read_text())["connection_name"]
        framing = framing_for(self.tool.version)
        assert framing is not None
        t = time.perf_counter()
        answer = asyncio.run(request(connection, framing, "check", files=TARGETS,
                                     export_types=False))  # fmt: skip
        ms = (time.perf_counter() - t) * 1000
        if answer.get("status") not in (0, 1):
            raise RuntimeError(f"dmypy on its socket: {str(answer)[:500]}")
        return ms

    def warm(self, edited: str, original: str) -> None:
        for how in ("check", "recheck", "socket"):
            args = ("check", *TARGETS) if how == "check" else ("recheck",)
            self._write(edited)
            self.times[how].append(self._ask() if how == "socket" else self._run(*args))
            self._write(original)
            self._run(*args)

    def stop(self) -> None:
        self._run("stop")


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="pwb-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(work / "run")
    pristine = prepare_workload()
    root = work / "httpx"
    shutil.copytree(pristine.root, root)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + "\n[tool.prewrite]\nformat = false\nlint = false\n"
        'typecheck = ["mypy"]\n'
    )
    trust = work / "trusted"
    trust.write_text(f"{root}\n")
    os.environ["PREWRITE_TRUST_FILE"] = str(trust)
    old = (root / TARGET).read_text()
    base = hashlib.sha256(old.encode()).hexdigest()
    warm: list[float] = []
    peer_tree = work / "peer" / "httpx"
    shutil.copytree(root, peer_tree)
    dmypy = Dmypy(peer_tree, pristine.python)
    with Client() as client:
        try:
            for i in range(RUNS + 1):
                change = FileChange(path=TARGET, content=_edit(old, i), base_sha256=base)
                t = time.perf_counter()
                reply = client.check(str(root), [change], python=pristine.python)
                warm.append((time.perf_counter() - t) * 1000)
                if not reply.ok or any("cold CLI" in v for v in reply.verified):
                    raise RuntimeError(f"not a warm green: {reply.verified}")
                if os.environ.get("PWB_TIMINGS"):
                    print(f"  check {i}: {warm[-1]:.0f} ms {reply.timings_ms}", file=sys.stderr)
                if i:
                    dmypy.warm(_edit(old, 100 + i), old)
        finally:
            client.stop()
            dmypy.stop()
    cold = [_cold_ms(root, pristine.python, _edit(old, i)) for i in range(3)]
    first, rest = warm[0], warm[1:]
    p50, cold_p50 = statistics.median(rest), statistics.median(cold)
    peer = {how: statistics.median(ms) for how, ms in dmypy.times.items()}
    print(f"httpx {TARGET} body edit, mypy judging: first check {first:.0f} ms; warm p50 "
          f"{p50:.0f} ms ({_ms(rest)}); cold mypy {cold_p50:.0f} ms ({_ms(cold)}); "
          f"cold / warm {cold_p50 / p50:.1f}x; dmypy's warm check p50 {peer['check']:.0f} ms "
          f"({_ms(dmypy.times['check'])}), recheck p50 {peer['recheck']:.0f} ms "
          f"({_ms(dmypy.times['recheck'])}), on its socket p50 {peer['socket']:.0f} ms "
          f"({_ms(dmypy.times['socket'])}); prewrite / dmypy check {p50 / peer['check']:.2f}x, "
          f"/ recheck {p50 / peer['recheck']:.2f}x, / socket {p50 / peer['socket']:.2f}x; "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _ms(values: list[float]) -> str:
    return ", ".join(f"{v:.0f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
