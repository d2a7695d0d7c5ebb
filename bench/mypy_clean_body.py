"""``python -m bench.mypy_clean_body``: mypy as the judge on httpx, a body edit dmypy answers warm.

``bench.mypy_bench`` measures the seeded patches; on httpx (``strict = true``) those touch files
holding ``# type: ignore`` comments or change interfaces their importers see, which prewrite
judges with cold mypy (``check.whole.why_cold``: dmypy drops unused-ignore errors). This one
measures the warm path itself, side by side in one run: the same function body edited 7 times
(salted) in ``httpx/_utils.py``, which holds no ignore comment — prewrite's first and warm checks
against cold ``mypy`` on the patched tree. dmypy's own warm re-check of a body edit is the peer's
figure in ``make bench`` (``bench.peer``).
"""

from __future__ import annotations

import hashlib
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
from prewrite_daemon.backends.mypy_command import cli_argv, find_mypy
from tests.support.workloads import prepare_workload

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
        argv = cli_argv(find_mypy([], None), python, ["httpx", "tests"])
        t = time.perf_counter()
        subprocess.run(argv, cwd=tree, capture_output=True, check=False)
        return (time.perf_counter() - t) * 1000


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
    with Client() as client:
        try:
            for i in range(RUNS + 1):
                change = FileChange(path=TARGET, content=_edit(old, i), base_sha256=base)
                t = time.perf_counter()
                reply = client.check(str(root), [change], python=pristine.python)
                warm.append((time.perf_counter() - t) * 1000)
                if not reply.ok or any("cold CLI" in v for v in reply.verified):
                    raise RuntimeError(f"not a warm green: {reply.verified}")
        finally:
            client.stop()
    cold = [_cold_ms(root, pristine.python, _edit(old, i)) for i in range(3)]
    first, rest = warm[0], warm[1:]
    p50, cold_p50 = statistics.median(rest), statistics.median(cold)
    print(f"httpx {TARGET} body edit, mypy judging: first check {first:.0f} ms; warm p50 "
          f"{p50:.0f} ms ({', '.join(f'{w:.0f}' for w in rest)}); cold mypy {cold_p50:.0f} ms; "
          f"cold / warm {cold_p50 / p50:.1f}x; load {os.getloadavg()[0]:.1f}")  # fmt: skip
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
