"""What each ``prewrite`` subcommand does, and how its answer is printed (``cli`` parses)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.client import DEFAULT_CALL_TIMEOUT_S, REPLY_MARGIN_S, Client
from prewrite.daemon_start import spawn_daemon, wait_for_daemon
from prewrite.diffs import changes_from_diff, read_diff
from prewrite.errors import BadRequest, DaemonUnavailable
from prewrite.files import read_stream
from prewrite.framing import MAX_FRAME_BYTES
from prewrite.late import late_finding_lines
from prewrite.protocol import CheckReply, DiskResult, Patch, RungReport, StatsReply
from prewrite.runtime import read_status, runtime_paths
from prewrite.suppression_text import suppression_lines
from prewrite.trust import entry_problem, set_trusted, trust_entries

if TYPE_CHECKING:
    import argparse

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


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
    verb = "no longer trusted" if args.remove else "trusted: checks run its interpreter and ruff"
    print(f"prewrite: {root} {verb}")
    return EXIT_OK


def _read_patch(source: str) -> Patch:
    """The patch the user names: stdin or a file, which may be a pipe (``<(...)``), so it is
    not held to regular files; it is held to the frame limit, the most a request can carry."""
    try:
        if source == "-":
            data = read_stream(sys.stdin.buffer, MAX_FRAME_BYTES, "the patch on stdin")
        else:
            with open(source, "rb") as stream:
                data = read_stream(stream, MAX_FRAME_BYTES, source)
    except OSError as exc:
        raise BadRequest(f"cannot read patch {source}: {exc.strerror}") from exc
    try:
        return msgspec.json.decode(data, type=Patch)
    except msgspec.DecodeError as exc:
        raise BadRequest(f"invalid patch JSON: {exc}") from exc


def _patch_of(args: argparse.Namespace) -> Patch:
    """``--patch`` JSON, or ``--diff``: a unified diff applied to the files under ``--root`` as
    they are now (``prewrite.diffs``); what it ignored (mode changes) is said on stderr."""
    if args.diff is None:
        return _read_patch(args.patch)
    read = changes_from_diff(args.root, read_diff(args.diff))
    for note in read.notes:
        print(f"prewrite: note: {note}", file=sys.stderr)
    return Patch(read.changes)


def _patch_client(args: argparse.Namespace) -> Client:
    """A client whose handshake is bounded like the request: ``--timeout`` plus the margin."""
    handshake_s = min(DEFAULT_CALL_TIMEOUT_S, args.timeout + REPLY_MARGIN_S)
    return Client(autostart=not args.no_autostart, call_timeout_s=handshake_s)


def check(args: argparse.Namespace) -> int:
    patch = _patch_of(args)
    started = time.perf_counter()
    with _patch_client(args) as client:
        reply = client.check(
            args.root, patch.changes, python=args.python, timeout_s=args.timeout,
            return_contents=not args.no_contents, rungs=args.rungs, intent=args.intent,
        )  # fmt: skip
    elapsed_ms = (time.perf_counter() - started) * 1000
    if args.json:
        sys.stdout.write(msgspec.json.encode(msgspec.structs.asdict(reply)).decode() + "\n")
    else:
        print_human(reply, elapsed_ms)
    return EXIT_OK if reply.ok else EXIT_FINDINGS


def print_human(reply: CheckReply, elapsed_ms: float) -> None:
    for d in reply.diagnostics:
        rule = f" [{d.rule}]" if d.rule else ""
        print(f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.message}{rule}")
    rungs = ", ".join(_rung_text(r) for r in reply.rungs)
    if rungs:
        print(f"prewrite: rungs: {rungs}")
    for line in reply.not_verified:
        print(f"prewrite: not verified: {line}")
    for line in late_finding_lines(reply.late_findings):
        print(line if line.startswith(" ") else f"prewrite: {line}")
    for line in suppression_lines(reply.suppressions):
        print(line if line.startswith(" ") else f"prewrite: suppression: {line}")
    errors = sum(1 for d in reply.diagnostics if d.severity == "error")
    others = len(reply.diagnostics) - errors
    verdict = "ok" if reply.ok else f"FAILED at {reply.failed_rung or 'typecheck'}"
    print(
        f"prewrite: {verdict}: {errors} new error(s), {others} new warning(s) in "
        f"{len(reply.checked_files)} type-checked file(s), {elapsed_ms:.0f} ms"
    )


def _rung_text(r: RungReport) -> str:
    if r.outcome in ("pass", "fail"):
        return f"{r.rung} {r.outcome} {r.ms:.0f}ms"
    return f"{r.rung} {r.outcome}" + (" (not requested)" if r.detail == "not requested" else "")


def apply(args: argparse.Namespace) -> int:
    patch = _patch_of(args)
    started = time.perf_counter()
    with _patch_client(args) as client:
        reply = client.apply(
            args.root, patch.changes, python=args.python, timeout_s=args.timeout,
            finish=args.finish, return_contents=not args.no_contents, rungs=args.rungs,
            intent=args.intent,
        )  # fmt: skip
    if args.json:
        sys.stdout.write(msgspec.json.encode(msgspec.structs.asdict(reply)).decode() + "\n")
        return EXIT_OK if reply.ok else EXIT_FINDINGS
    print_human(reply.check, (time.perf_counter() - started) * 1000)
    for f in reply.written:
        print(f"prewrite: wrote {f.path}" if f.sha256 else f"prewrite: deleted {f.path}")
    _print_disk(reply.disk)
    if reply.rolled_back:
        print("prewrite: a disk rung failed: the previous bytes were put back")
    if reply.check.ok:
        print(f"prewrite: apply {'ok' if reply.ok else 'FAILED after the write'}")
    return EXIT_OK if reply.ok else EXIT_FINDINGS


def _print_disk(results: list[DiskResult]) -> None:
    for d in results:
        print(f"prewrite: {d.rung}: {d.outcome} in {d.ms:.0f} ms ({' '.join(d.command)})")
        for test in d.failed:
            print(f"  failed: {test}")
        if d.outcome in ("fail", "timeout"):
            print("\n".join("  | " + line for line in d.output.splitlines()[-20:]))


def finish(args: argparse.Namespace) -> int:
    with Client() as client:
        reply = client.finish(args.root, python=args.python)
    if args.json:
        print(msgspec.json.encode(msgspec.structs.asdict(reply)).decode())
    else:
        _print_disk(reply.disk)
        print(f"prewrite: finish {'ok' if reply.ok else 'FAILED'} ({len(reply.disk)} rung(s))")
    return EXIT_OK if reply.ok else EXIT_FINDINGS


def stats(args: argparse.Namespace) -> int:
    root = str(Path(args.root).resolve()) if args.root else None
    with Client(autostart=not args.no_autostart) as client:
        reply = client.stats(root)
    if args.json:
        print(msgspec.json.encode(msgspec.structs.asdict(reply)).decode())
        return EXIT_OK
    print_stats(reply, root)
    return EXIT_OK


def print_stats(reply: StatsReply, root: str | None) -> None:
    print(f"{reply.verdicts} verdict(s)" + (f" for {root}" if root else ""))
    print(f"{'rung':<10} {'runs':>6} {'caught':>7} {'median':>10}")
    for r in reply.rungs:
        failed_open = f"  ({r.failed_open} failed open)" if r.failed_open else ""
        print(f"{r.rung:<10} {r.runs:>6} {r.caught:>7} {r.median_ms:>8.1f}ms{failed_open}")
    for outcome, count in sorted(reply.outcomes.items()):
        print(f"  {outcome}: {count}")
    for s in reply.suppressions:
        refused = f", {s.refused} refused" if s.refused else ""
        print(f"suppressions {s.kind}: {s.added} added, {s.hiding} hiding an error{refused}")
    if reply.narrowing_misses:
        print(f"narrowing misses: {len(reply.narrowing_misses)} (latest last)")
    for miss in reply.narrowing_misses:
        shown = miss.diagnostics[:3]
        print(
            f"  {miss.found_at} {miss.root} [{miss.language}]: the green of "
            f"{', '.join(miss.files)} ({miss.checked_at}) missed {len(miss.diagnostics)}"
        )
        for d in shown:
            print(f"    {d.path}:{d.line}:{d.column}: {d.severity}: {d.message} [{d.rule}]")
        if len(miss.diagnostics) > len(shown):
            print(f"    ... and {len(miss.diagnostics) - len(shown)} more")


def daemon(args: argparse.Namespace) -> int:
    paths = runtime_paths()
    if args.action == "start":
        status = read_status(paths)
        if status is not None:
            try:
                Client(autostart=False, paths=paths).close()
                print(f"prewrite: daemon already running (pid {status.pid})")
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
    with Client(autostart=False, paths=paths) as client:
        reply = client.status()
    if args.json:
        print(msgspec.json.encode(msgspec.structs.asdict(reply)).decode())
        return EXIT_OK
    print(f"daemon pid {reply.pid} version {reply.version} up {reply.uptime_s:.0f}s")
    print(f"socket {reply.socket}")
    for ws in reply.workspaces:
        pid = f" pid {ws.server_pid}" if ws.server_pid else ""
        python = f", python {ws.python}" if ws.language == "python" else ""
        trust = "trusted" if ws.trusted else "untrusted"
        print(
            f"  {ws.root} [{ws.language}: {ws.checker or '?'}, {trust}]: "
            f"backend {ws.backend_state}{pid}, "
            f"generation {ws.generation}, {ws.checks} check(s), "
            f"environment {ws.environment or '-'}{python}"
        )
        if ws.last_restart:
            print(f"    {ws.restarts} restart(s), last {ws.last_restart}: {ws.last_restart_reason}")
    if not reply.workspaces:
        print("  no workspaces yet")
    return EXIT_OK
