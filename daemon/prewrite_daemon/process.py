"""Short-lived helper processes (pyright CLI, ruff): own process group, deadline, always reaped."""

from __future__ import annotations

import asyncio
import signal
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.child import signal_group

if TYPE_CHECKING:
    from pathlib import Path


async def run_captured(
    argv: list[str], cwd: Path, stdin_text: str | None, timeout_s: float, what: str
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr); past ``timeout_s`` the whole group is killed: ``timeout``."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=cwd,
            stdin=asyncio.subprocess.PIPE if stdin_text is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )  # fmt: skip
    except OSError as exc:
        raise BackendFailed(f"cannot run {argv[0]}: {exc}") from exc
    data = stdin_text.encode() if stdin_text is not None else None
    finished = False
    try:
        out, err = await asyncio.wait_for(proc.communicate(data), timeout_s)
        finished = True
    except TimeoutError as exc:
        raise CheckTimeout(f"{what} took longer than {timeout_s:.1f}s") from exc
    finally:
        if not finished:
            # The whole group, even when the child itself has exited: a grandchild holding the
            # pipes open is what kept ``communicate`` waiting.
            signal_group(proc.pid, signal.SIGKILL)
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")
