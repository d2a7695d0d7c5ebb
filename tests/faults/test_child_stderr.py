"""Issue 20, item 12: a checker child's stderr is drained to its end but logged only up to
``STDERR_LOG_CAP`` (a child printing gigabytes must not fill the disk through the daemon's log).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from prewrite_daemon.backends.child import STDERR_LOG_CAP
from tests.faults.test_child import Owner

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

FLOOD_LINES = 200_000  # 100 bytes each: 20 MB, five times the cap
# Floods stderr, then names itself on stdout: by then all but a pipe's worth of the flood has
# been drained (a write blocks on a full pipe), so the cap was reached before the first line.
FLOODER = (
    "import os, sys, time\n"
    f"for _ in range({FLOOD_LINES}):\n"
    "    sys.stderr.write('y' * 99 + '\\n')\n"
    "sys.stderr.flush()\n"
    "print(os.getpid(), flush=True)\n"
    "time.sleep(600)\n"
)


async def test_a_flood_on_stderr_is_drained_and_logged_up_to_the_cap(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="prewrite_daemon.backends.child")
    owner = Owner()
    try:
        await owner.spawn(FLOODER, tmp_path)
    finally:
        owner.stopping = True
        await owner.child.stop(None, grace_s=0.2)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("[the fake")]
    logged = sum(len(m) - len("[the fake stderr] ") + 1 for m in lines[:-1])
    assert STDERR_LOG_CAP <= logged <= STDERR_LOG_CAP + 65536
    note = f"[the fake stderr] more than {STDERR_LOG_CAP} bytes: the rest is not logged"
    assert lines[-1] == note
