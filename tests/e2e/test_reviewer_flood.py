"""Issue 20, item 12: a reviewer that floods its output leaves the daemon's memory bounded, and
the answer says the output was truncated.

A private daemon (its memory is this test's to measure, under an address-space limit as in
``test_special_files``) checks a trusted workspace whose reviewer prints ``FLOOD_MB`` to stdout
or stderr. Kept whole, that output grew the daemon by several times its size (1.5 GB printed:
4.9 GB peak); kept to ``STREAM_CAP`` per stream, the daemon's high-water mark stays under
``PEAK_RSS``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from prewrite import Client
from prewrite.protocol import FileChange
from prewrite_daemon.backends.process import STREAM_CAP
from tests.support.private_daemon import peak_rss, private_daemon

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from prewrite.runtime import RuntimePaths

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

FLOOD_MB = 400
PEAK_RSS = 256 << 20  # measured: 77 MB capped; 852 MB with the 400 MB kept whole
ANSWER = '{"verdict": "approve", "ground": "none", "evidence": ""}'
FLOODS = {
    "stdout": "w = sys.stdout.buffer.write",
    "stderr": f"print({ANSWER!r}); sys.stdout.flush(); w = sys.stderr.buffer.write",
}


@pytest.fixture(scope="module")
def flood_daemon() -> Iterator[RuntimePaths]:
    with private_daemon(bounded=True) as paths:
        yield paths


def _workspace(root: Path, stream: str) -> Path:
    """Under the session's trusted trees (conftest): its reviewer runs."""
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "flood.py").write_text(
        f"import sys\n{FLOODS[stream]}\nfor _ in range({FLOOD_MB}):\n    w(b'x' * (1 << 20))\n"
    )
    (root / "pyproject.toml").write_text(
        f'[tool.prewrite]\ntests = false\nreviewer = {{command = ["{sys.executable}", '
        '"flood.py"], timeout = 120}\n'
    )
    return root


@pytest.mark.parametrize("stream", sorted(FLOODS))
def test_a_flooding_reviewer_leaves_the_daemon_bounded(
    flood_daemon: RuntimePaths, tmp_path: Path, stream: str
) -> None:
    root = _workspace(tmp_path.resolve() / "ws", stream)
    change = FileChange("pkg/a.py", None, content="def f() -> int:\n    return 1\n")
    with Client(paths=flood_daemon, autostart=False) as client:
        reply = client.check(root, [change], python=sys.executable, timeout_s=200)
    review = next(r for r in reply.rungs if r.rung == "review")
    if stream == "stdout":
        assert review.outcome == "skipped"
        dropped = (FLOOD_MB << 20) - STREAM_CAP
        assert review.detail == (
            f"reviewer failed open: its output passed {STREAM_CAP} bytes "
            f"(truncated, {dropped} dropped)"
        )
    else:
        assert review.outcome == "pass"  # its answer came whole; stderr's flood was dropped
    assert peak_rss(flood_daemon) < PEAK_RSS
