"""Issue 20, item 12: a helper's output is kept up to a cap per stream, the rest read and
dropped (and said); a reviewer's limits hold in the child."""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING

import pytest

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.process import STREAM_CAP, ChildLimits, capture, run_captured

if TYPE_CHECKING:
    from pathlib import Path

FLOOD = 20_000_000
PRINT_BOTH = (
    f"import sys; sys.stdout.buffer.write(b'x' * {FLOOD}); sys.stdout.flush(); "
    f"sys.stderr.buffer.write(b'y' * {FLOOD})"
)


async def test_each_stream_keeps_its_head_and_counts_the_rest(tmp_path: Path) -> None:
    done = await capture([sys.executable, "-c", PRINT_BOTH], tmp_path, None, 60, "flood")
    assert done.code == 0
    assert (len(done.out), len(done.err)) == (STREAM_CAP, STREAM_CAP)
    assert set(done.out) == {"x"}
    assert (done.dropped_out, done.dropped_err) == (FLOOD - STREAM_CAP, FLOOD - STREAM_CAP)
    assert done.truncated


async def test_run_captured_says_what_it_dropped(tmp_path: Path) -> None:
    code, out, err = await run_captured([sys.executable, "-c", PRINT_BOTH], tmp_path, None, 60, "f")
    note = f"[prewrite: output past {STREAM_CAP} bytes dropped ({FLOOD - STREAM_CAP} bytes)]"
    assert code == 0
    assert out.rstrip().endswith(note)
    assert err.rstrip().endswith(note)


async def test_a_child_that_never_reads_its_stdin_still_answers(tmp_path: Path) -> None:
    done = await capture(["sh", "-c", "echo done"], tmp_path, "z" * 10_000_000, 60, "deaf")
    assert (done.code, done.out, done.truncated) == (0, "done\n", False)


LIMITS = ChildLimits(address_space=1 << 30, file_size=1 << 20)


async def test_a_limited_child_cannot_write_a_file_past_its_limit(tmp_path: Path) -> None:
    argv = ["sh", "-c", "exec head -c 2000000 /dev/zero > big"]
    done = await capture(argv, tmp_path, None, 60, "writer", limits=LIMITS)
    assert done.code == -signal.SIGXFSZ
    assert (tmp_path / "big").stat().st_size <= 1 << 20


async def test_a_limited_child_cannot_take_memory_past_its_limit(tmp_path: Path) -> None:
    argv = [sys.executable, "-c", "b = bytearray(2 << 30)"]
    done = await capture(argv, tmp_path, None, 60, "eater", limits=LIMITS)
    assert done.code == 1
    assert "MemoryError" in done.err


async def test_a_limited_child_runs_relative_to_its_directory(tmp_path: Path) -> None:
    script = tmp_path / "review.sh"
    script.write_text("#!/bin/sh\ncat\n")
    script.chmod(0o755)
    done = await capture(["./review.sh"], tmp_path, "hi", 60, "r", limits=LIMITS)
    assert (done.code, done.out) == (0, "hi")


@pytest.mark.parametrize("command", ["/no/such/reviewer", "no-such-reviewer-anywhere", "./x"])
async def test_a_limited_command_that_cannot_run_is_refused_in_the_daemon(
    tmp_path: Path, command: str
) -> None:
    with pytest.raises(BackendFailed, match=f"cannot run {command}"):
        await capture([command], tmp_path, None, 60, "r", limits=LIMITS)
