"""Short-lived helper processes (pyright CLI, ruff, a reviewer): own process group, deadline,
bounded output, always reaped.

What a child prints is kept up to ``STREAM_CAP`` bytes per stream; the rest is read and dropped
(so the child never blocks on a full pipe) and the caller is told how much was dropped: a
reviewer printing 1.5 GB once grew the daemon to 4.9 GB. A child that is a repository's own
code or a reviewer may also run under ``ChildLimits`` (``setrlimit`` applied by a small
trampoline of ours that then ``exec``s the command: no ``preexec_fn``, which may deadlock in a
daemon that has threads).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed, CheckTimeout
from prewrite_daemon.backends.child import signal_group

if TYPE_CHECKING:
    from pathlib import Path

STREAM_CAP = 8 * 1024 * 1024  # per stream: a linter's JSON for a huge file fits; a flood does not
_CHUNK = 1 << 16

# Sets the limits (never above a stricter one already set: a raise past the hard limit fails),
# then becomes the command (isolated, no site: nothing but the stdlib runs).
# Python ignores SIGPIPE and SIGXFSZ, and an exec keeps that: the command gets the defaults back
# (as a direct spawn gives them), so a file past the limit stops it.
_TRAMPOLINE = (
    "import os, resource, signal, sys\n"
    "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
    "signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
    "def cap(kind, want):\n"
    "    soft, hard = resource.getrlimit(kind)\n"
    "    low = [v for v in (want, soft, hard) if v != resource.RLIM_INFINITY]\n"
    "    resource.setrlimit(kind, (min(low), min(low)))\n"
    "cap(resource.RLIMIT_AS, int(sys.argv[1]))\n"
    "cap(resource.RLIMIT_FSIZE, int(sys.argv[2]))\n"
    "try:\n"
    "    os.execvp(sys.argv[3], sys.argv[3:])\n"
    "except OSError as exc:\n"
    "    sys.stderr.write(f'cannot run {sys.argv[3]}: {exc}\\n')\n"
    "    sys.exit(127)\n"
)


@dataclass(frozen=True)
class ChildLimits:
    """``RLIMIT_AS`` (address space) and ``RLIMIT_FSIZE`` (largest file it may write)."""

    address_space: int
    file_size: int


@dataclass(frozen=True)
class Captured:
    """A finished child: its exit code (negative: the signal) and the head of each stream."""

    code: int
    out: str
    err: str
    dropped_out: int = 0  # bytes past ``STREAM_CAP``, read and not kept
    dropped_err: int = 0

    @property
    def truncated(self) -> bool:
        return bool(self.dropped_out or self.dropped_err)


def truncation_note(dropped: int) -> str:
    return f"\n[prewrite: output past {STREAM_CAP} bytes dropped ({dropped} bytes)]\n"


def limited_argv(argv: list[str], cwd: Path, limits: ChildLimits) -> list[str]:
    """``argv`` run under ``limits``; a command that cannot be found is ``BackendFailed`` here,
    in the daemon, as it would be without the trampoline."""
    exe = argv[0]
    found = (
        os.path.join(cwd, exe) if os.sep in exe else shutil.which(exe, path=os.environ.get("PATH"))
    )
    if found is None or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise BackendFailed(f"cannot run {exe}: not found or not executable")
    return [sys.executable, "-I", "-S", "-c", _TRAMPOLINE,
            str(limits.address_space), str(limits.file_size), *argv]  # fmt: skip


async def _keep_head(stream: asyncio.StreamReader, cap: int) -> tuple[bytes, int]:
    head = bytearray()
    dropped = 0
    while chunk := await stream.read(_CHUNK):
        room = max(0, cap - len(head))
        head += chunk[:room]
        dropped += len(chunk) - min(room, len(chunk))
    return bytes(head), dropped


async def _feed(stdin: asyncio.StreamWriter | None, data: bytes | None) -> None:
    if stdin is None:
        return
    try:
        if data:
            stdin.write(data)
            await stdin.drain()
    except OSError:
        pass  # the child stopped reading (a broken pipe): what it answers is still its answer
    finally:
        stdin.close()


async def capture(
    argv: list[str],
    cwd: Path,
    stdin_text: str | None,
    timeout_s: float,
    what: str,
    *,
    limits: ChildLimits | None = None,
    cap: int = STREAM_CAP,
) -> Captured:
    """Run ``argv`` to its end, keeping at most ``cap`` bytes of each stream; past
    ``timeout_s`` the whole group is killed: ``CheckTimeout``."""
    run = limited_argv(argv, cwd, limits) if limits is not None else argv
    try:
        proc = await asyncio.create_subprocess_exec(
            *run, cwd=cwd,
            stdin=asyncio.subprocess.PIPE if stdin_text is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )  # fmt: skip
    except OSError as exc:
        raise BackendFailed(f"cannot run {argv[0]}: {exc}") from exc
    assert proc.stdout is not None
    assert proc.stderr is not None
    data = stdin_text.encode() if stdin_text is not None else None
    finished = False
    try:
        async with asyncio.timeout(timeout_s), asyncio.TaskGroup() as tg:
            tg.create_task(_feed(proc.stdin, data))
            out = tg.create_task(_keep_head(proc.stdout, cap))
            err = tg.create_task(_keep_head(proc.stderr, cap))
            tg.create_task(proc.wait())
        finished = True
    except TimeoutError as exc:
        raise CheckTimeout(f"{what} took longer than {timeout_s:.1f}s") from exc
    finally:
        if not finished:
            # The whole group, even when the child itself has exited: a grandchild holding the
            # pipes open is what kept the reads waiting.
            signal_group(proc.pid, signal.SIGKILL)
            await proc.wait()
    assert proc.returncode is not None
    (out_head, out_dropped), (err_head, err_dropped) = out.result(), err.result()
    return Captured(proc.returncode, out_head.decode(errors="replace"),
                    err_head.decode(errors="replace"), out_dropped, err_dropped)  # fmt: skip


async def run_captured(
    argv: list[str], cwd: Path, stdin_text: str | None, timeout_s: float, what: str
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr); past ``timeout_s`` the whole group is killed: ``timeout``.
    A stream cut at ``STREAM_CAP`` ends with a note saying so (a cut JSON then fails to
    parse, as it must: it is no answer)."""
    done = await capture(argv, cwd, stdin_text, timeout_s, what)
    out = done.out + (truncation_note(done.dropped_out) if done.dropped_out else "")
    err = done.err + (truncation_note(done.dropped_err) if done.dropped_err else "")
    return done.code, out, err
