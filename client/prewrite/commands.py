"""What each ``prewrite`` subcommand does: ``cli`` parses, ``cli_output`` prints the answer and
``cli_exits`` is the exit status."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.changes import settle_omitted_bases
from prewrite.cli_exits import EXIT_OK, EXIT_REFUSED, apply_exit
from prewrite.cli_output import (
    print_apply,
    print_check,
    print_finish,
    print_json,
    print_stats,
    print_status,
)
from prewrite.client import DEFAULT_CALL_TIMEOUT_S, REPLY_MARGIN_S, Client
from prewrite.daemon_start import spawn_daemon, wait_for_daemon
from prewrite.diffs import changes_from_diff, read_diff
from prewrite.errors import BadRequest, DaemonUnavailable
from prewrite.files import read_named
from prewrite.framing import MAX_FRAME_BYTES
from prewrite.progress import Progress
from prewrite.protocol import FileChange, Patch
from prewrite.runtime import read_status, runtime_paths
from prewrite.trust import entry_problem, set_trusted, trust_entries

if TYPE_CHECKING:
    import argparse


MIN_LADDER_S = 0.5  # a deadline spent starting the daemon still asks (and gets ``timeout``)
START_FLOOR_S = 5.0  # a daemon start gets this long even past --timeout: one can't start in less

_PYTHON_MARKS = ("pyproject.toml", "setup.py", "setup.cfg", "ruff.toml", ".ruff.toml")
_NODE_MARKS = ("package.json", "tsconfig.json", "jsconfig.json")


def _trusted_text(root: Path) -> str:
    """What trusting ``root`` lets run, by what it holds (a TypeScript repository is not told
    about an interpreter and ruff)."""
    tools = ["its interpreter and ruff"] if any((root / m).is_file() for m in _PYTHON_MARKS) else []
    if any((root / m).is_file() for m in _NODE_MARKS):
        tools.append("the typescript, prettier, eslint and biome of its node_modules")
    runs = " and ".join(tools) or "its own tools"
    return f"trusted: checks run {runs}, as CI does; apply and finish run its tests and commands"


class _GivenBase(msgspec.Struct):
    """Whether a change of the patch file names its ``base_sha256`` (null included)."""

    base_sha256: str | msgspec.UnsetType | None = msgspec.UNSET


class _GivenBases(msgspec.Struct):
    changes: list[_GivenBase]


def trust(args: argparse.Namespace) -> int:
    if args.list:
        for entry in trust_entries():
            problem = entry_problem(entry)
            print(entry.path if problem is None else f"{entry.path}  (not trusted: {problem})")
        return EXIT_OK
    root = Path(args.root or ".").resolve()
    if not root.is_dir():
        raise BadRequest(f"not a directory: {root}")
    set_trusted(root, not args.remove)
    print(f"prewrite: {root} {'no longer trusted' if args.remove else _trusted_text(root)}")
    return EXIT_OK


def _read_patch(source: str, root: str) -> list[FileChange]:
    """The patch the user names: stdin or a file, which may be a pipe (``<(...)``), so it is
    not held to regular files; it is held to the frame limit, the most a request can carry.
    A change that omits ``base_sha256`` gets the base MCP would give it (``prewrite.changes``)."""
    try:
        data = read_named(source, MAX_FRAME_BYTES, "patch")
    except OSError as exc:
        raise BadRequest(f"cannot read patch {source}: {exc.strerror}") from exc
    try:
        patch = msgspec.json.decode(data, type=Patch)
        given = msgspec.json.decode(data, type=_GivenBases)
    except msgspec.DecodeError as exc:
        raise BadRequest(f"invalid patch JSON: {exc}") from exc
    omitted = [c.base_sha256 is msgspec.UNSET for c in given.changes]
    return settle_omitted_bases(Path(root).resolve(), patch.changes, omitted)


def _changes_of(args: argparse.Namespace) -> list[FileChange]:
    """``--patch`` JSON, or ``--diff``: a unified diff applied to the files under ``--root`` as
    they are now (``prewrite.diffs``); what it ignored (mode changes) is said on stderr."""
    if args.diff is None:
        return _read_patch(args.patch, args.root)
    read = changes_from_diff(args.root, read_diff(args.diff))
    for note in read.notes:
        print(f"prewrite: note: {note}", file=sys.stderr)
    return read.changes


class _Deadline:
    """``--timeout`` as the command's own deadline: starting the daemon and the handshake
    count against it, and the ladder gets what is left (at least ``MIN_LADDER_S``)."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.at = time.monotonic() + timeout_s

    def left(self) -> float:
        return max(MIN_LADDER_S, self.at - time.monotonic())


def _patch_client(args: argparse.Namespace, deadline: _Deadline) -> Client:
    """A client started (and the daemon too, if need be) within the command's deadline; the
    handshake bounded like the request: what is left plus the margin."""
    handshake_s = min(DEFAULT_CALL_TIMEOUT_S, deadline.left() + REPLY_MARGIN_S)
    return Client(
        autostart=not args.no_autostart,
        start_timeout_s=max(START_FLOOR_S, deadline.left()),
        call_timeout_s=handshake_s,
    )


def _progress(args: argparse.Namespace) -> Progress | contextlib.nullcontext[None]:
    if args.quiet:
        return contextlib.nullcontext()
    return Progress(runtime_paths(), args.root, sys.stderr)


def check(args: argparse.Namespace) -> int:
    changes = _changes_of(args)
    started = time.perf_counter()
    deadline = _Deadline(args.timeout)
    with _patch_client(args, deadline) as client, _progress(args):
        reply = client.check(
            args.root, changes, python=args.python, timeout_s=deadline.left(),
            return_contents=args.contents, rungs=args.rungs, intent=args.intent,
        )  # fmt: skip
    if args.json:
        print_json(reply)
    else:
        print_check(reply, (time.perf_counter() - started) * 1000)
    return EXIT_OK if reply.ok else EXIT_REFUSED


def apply(args: argparse.Namespace) -> int:
    changes = _changes_of(args)
    started = time.perf_counter()
    deadline = _Deadline(args.timeout)
    with _patch_client(args, deadline) as client, _progress(args):
        reply = client.apply(
            args.root, changes, python=args.python, timeout_s=deadline.left(),
            finish=args.finish, return_contents=args.contents, rungs=args.rungs,
            intent=args.intent,
        )  # fmt: skip
    if args.json:
        print_json(reply)
    else:
        print_apply(reply, (time.perf_counter() - started) * 1000)
    return apply_exit(reply)


def finish(args: argparse.Namespace) -> int:
    with Client() as client:
        reply = client.finish(args.root, python=args.python)
    if args.json:
        print_json(reply)
    else:
        print_finish(reply)
    return EXIT_OK if reply.ok else EXIT_REFUSED


def stats(args: argparse.Namespace) -> int:
    root = str(Path(args.root).resolve()) if args.root else None
    with Client(autostart=not args.no_autostart) as client:
        reply = client.stats(root)
    if args.json:
        print_json(reply)
    else:
        print_stats(reply, root)
    return EXIT_OK


def daemon(args: argparse.Namespace) -> int:
    paths = runtime_paths()
    if args.action == "start":
        running = read_status(paths)
        if running is not None:
            try:
                Client(autostart=False, paths=paths).close()
                print(f"prewrite: daemon already running (pid {running.pid})")
                return EXIT_OK
            except DaemonUnavailable:
                pass  # stale status file; the new daemon replaces it
        extra = ["--idle-timeout", str(args.idle_timeout)] if args.idle_timeout else []
        spawn_daemon(paths, extra)
        wait_for_daemon(paths, 30.0).close()
        started = read_status(paths)
        pid = started.pid if started else "?"
        print(f"prewrite: daemon started (pid {pid}), socket {paths.socket}")
        return EXIT_OK
    if args.action == "stop":
        try:
            client = Client(autostart=False, paths=paths)
        except DaemonUnavailable:
            print("prewrite: no daemon running")
            return EXIT_OK
        with client:
            client.stop()
        print("prewrite: daemon stopped")
        return EXIT_OK
    return status(args)


def status(args: argparse.Namespace) -> int:
    """``prewrite status`` and ``prewrite daemon status``: never starts a daemon."""
    with Client(autostart=False, paths=runtime_paths()) as client:
        reply = client.status()
    if args.json:
        print_json(reply)
    else:
        print_status(reply)
    return EXIT_OK
