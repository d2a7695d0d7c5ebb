"""Two processes preparing one cached item take turns (pytest-xdist workers on a clean clone)."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import TYPE_CHECKING

from tests.support.cache_lock import cache_lock
from tests.support.workloads import REPO_ROOT

if TYPE_CHECKING:
    from pathlib import Path

# Each process waits for the lock, then records "enter", sleeps and records "leave"; with the lock
# the records pair up, without it both enter before either leaves.
_HOLDER = """
import sys, time
from pathlib import Path
from tests.support.cache_lock import cache_lock
item, log, tag = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
with cache_lock(item):
    with log.open("a") as f: f.write(f"enter {tag}\\n")
    time.sleep(0.4)
    with log.open("a") as f: f.write(f"leave {tag}\\n")
"""


def test_two_processes_take_turns_on_one_item(tmp_path: Path) -> None:
    item, log = tmp_path / "cache" / "httpx-0.28.1", tmp_path / "log"
    procs = [
        subprocess.Popen([sys.executable, "-c", _HOLDER, str(item), str(log), tag], cwd=REPO_ROOT)
        for tag in ("a", "b")
    ]
    assert [p.wait(timeout=30) for p in procs] == [0, 0]
    lines = log.read_text().split()
    events = list(zip(lines[::2], lines[1::2], strict=True))
    assert [e for e, _ in events] == ["enter", "leave", "enter", "leave"], lines
    assert lines[1] == lines[3], "each process left before the other entered"


def test_a_lock_dies_with_its_holder(tmp_path: Path) -> None:
    """An interrupted preparation (the holder killed) never blocks the next one."""
    item, held = tmp_path / "item", tmp_path / "held"
    code = (
        "import sys, time\nfrom pathlib import Path\n"
        "from tests.support.cache_lock import cache_lock\n"
        "with cache_lock(Path(sys.argv[1])):\n"
        "    Path(sys.argv[2]).touch()\n    time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, str(item), str(held)], cwd=REPO_ROOT)
    try:
        deadline = time.monotonic() + 30
        while not held.exists():
            assert time.monotonic() < deadline, "the holder never took the lock"
            time.sleep(0.05)
        holder.kill()
        holder.wait(timeout=10)
        with cache_lock(item):  # would block forever if the dead holder's lock outlived it
            pass
    finally:
        holder.kill()
        holder.wait(timeout=10)
