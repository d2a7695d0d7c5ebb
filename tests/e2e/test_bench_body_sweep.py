"""`python -m bench.body_sweep --limit 2` on httpx runs end to end; results are well formed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WORKLOAD_KEYS = {"name", "label", "cold", "warm", "ratios", "worst", "non_ok", "modules", "errors"}
MODULE_KEYS = {"path", "function", "ms", "runs_ms", "verdict", "timings_ms", "checked_files"}


@pytest.mark.e2e
@pytest.mark.slow  # the bench harness end to end: `make test-slow` (CI runs it)
@pytest.mark.timeout(240)
def test_body_sweep_on_two_httpx_modules(tmp_path: Path) -> None:
    out = tmp_path / "results"
    argv = ["--workloads", "httpx", "--limit", "2", "--cold-runs", "1", "--out", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "bench.body_sweep", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=220,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    results = json.loads((out / "results.json").read_text())
    [w] = results["workloads"]
    assert WORKLOAD_KEYS <= set(w), w.keys()
    assert not w["errors"]
    assert len(w["modules"]) == 2
    for m in w["modules"]:
        assert MODULE_KEYS <= set(m), m.keys()
        assert m["verdict"] == "ok", m
        assert m["checked_files"] == 1  # a body-only edit re-checks only its own file
        assert "typecheck_ms" in m["timings_ms"]
    assert w["non_ok"] == []
    assert {"p50", "p95", "max"} <= set(w["warm"])
    assert {"cold/p50", "cold/p95", "cold/max"} == set(w["ratios"])
    assert w["cold"]["ms"] > 0
    assert "| httpx 0.28.1 | 2 |" in (out / "results.md").read_text()
