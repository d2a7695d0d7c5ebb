"""`python -m bench --quick` runs end to end and writes well-formed results (not how fast)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WORKLOAD_KEYS = {"name", "label", "files", "patches", "cold", "daemon", "floor", "dmypy", "rungs"}
DAEMON_KEYS = {"start_ms", "first_check_ms", "patches", "rss_mb", "restart_after_config_ms"}
TIMING_KEYS = {"p50", "p95", "n"}


@pytest.mark.e2e
@pytest.mark.slow  # the bench harness end to end: `make test-slow` (CI runs it)
@pytest.mark.timeout(300)
def test_quick_bench_writes_json_markdown_and_png(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    results = json.loads((out / "results.json").read_text())
    assert {"schema", "date", "machine", "mode", "runs", "versions", "workloads", "targets"} <= set(
        results
    )
    assert results["mode"] == "quick"
    assert results["workloads"], "no workload was measured"
    for w in results["workloads"]:
        assert WORKLOAD_KEYS <= set(w), w.keys()
        assert not w.get("errors"), w["errors"]
        kinds = [p["kind"] for p in w["patches"]]
        assert {"body_1", "signature"} <= set(kinds)
        assert DAEMON_KEYS <= set(w["daemon"])
        for kind in kinds:
            assert w["cold"][kind]["ms"] > 0
            for side in ("daemon", "floor", "dmypy"):
                assert TIMING_KEYS <= set(w[side]["patches"][kind]), (side, kind)
        assert w["daemon"]["patches"]["body_1"]["verdict"] == "ok"
        assert w["daemon"]["patches"]["signature"]["verdict"] == "failed:typecheck"
        assert {"body_1", "body_5"} <= set(w["rungs"])
    assert all({"target", "workload", "measured", "met"} <= set(t) for t in results["targets"])

    markdown = (out / "results.md").read_text()
    summary = markdown.split("## Per workload", 1)[1].split("##", 1)[0]
    rows = [line for line in summary.splitlines() if line.startswith("| ")][1:]  # minus header
    rows = [r for r in rows if not r.startswith("|---")]
    assert len(rows) == len(results["workloads"])
    for w, row in zip(results["workloads"], rows, strict=True):
        assert row.startswith(f"| {w['label']} |")

    assert (out / "results.png").read_bytes().startswith(PNG_SIGNATURE)
