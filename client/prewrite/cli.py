"""The ``prewrite`` command line: ``check`` a patch, manage the ``daemon``.

Exit codes of ``check``: 0 the patch introduces no error, 1 it does, 2 anything went wrong.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.client import (
    DEFAULT_CALL_TIMEOUT_S,
    REPLY_MARGIN_S,
    Client,
    spawn_daemon,
    wait_for_daemon,
)
from prewrite.errors import BadRequest, DaemonUnavailable, PrewriteError
from prewrite.protocol import CheckReply, DiskResult, Patch
from prewrite.runtime import read_status, runtime_paths
from prewrite.trust import set_trusted, trust_file, trusted_roots

if TYPE_CHECKING:
    from collections.abc import Sequence

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

_DESCRIPTION = "Check a multi-file patch in a warm type checker before it touches disk."

_PATCH_AND_EXITS = """\
the patch (JSON, paths relative to --root):
  {"changes": [
    {"path": "pkg/a.py", "base_sha256": "<sha256 of the bytes on disk>", "content": "<new>"},
    {"path": "pkg/b.py", "base_sha256": "<sha256>", "edits": [{"find": "<exact text>",
                                                             "replace": "<new text>"}]},
    {"path": "pkg/new.py", "base_sha256": null, "content": "..."},
    {"path": "pkg/old.py", "base_sha256": "<sha256>", "delete": true}]}
  A base_sha256 that does not match the disk fails the whole check (stale_base). An edit's
  "find" must anchor to exactly one place of the real file (find_mismatch / find_ambiguous).

the ladder, cheapest first, stopping at the first failure: policy (forbidden_path,
  unverifiable_extension) -> anchor -> parse -> format (ruff format, a mutation) -> lint
  (ruff check, new findings only) -> typecheck (pyright overlay), configured by the
  workspace's [tool.prewrite].

output: only the diagnostics the patch introduces, as path:line:col: severity: message [rule],
  or one JSON object with --json. The daemon starts on first use.

exit status of check:
  0  the patch introduces no error
  1  a rung found an error the patch introduces (parse, format, lint or type check)
  2  the check could not be done (refused path, unanchored edit, stale base, timeout, ...)
"""


def _add_patch_arguments(parser: argparse.ArgumentParser, python_help: str) -> None:
    """The options ``check`` and ``apply`` share: the same patch contract and daemon use."""
    parser.add_argument("--root", required=True, help="workspace root the patch paths are under")
    parser.add_argument("--patch", required=True, help="patch JSON file, or - for stdin")
    parser.add_argument("--python", help=python_help)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds for the ladder, waiting for the workspace included (120); a daemon that "
        f"has not answered {REPLY_MARGIN_S:.0f}s later is reported unresponsive",
    )
    parser.add_argument(
        "--no-contents",
        action="store_true",
        help="return the candidate files by reference only (path, sha256), not their text",
    )
    parser.add_argument(
        "--no-autostart", action="store_true", help="fail instead of starting the daemon"
    )


def build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="prewrite", description=_DESCRIPTION, epilog=_PATCH_AND_EXITS, formatter_class=raw
    )
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser(
        "check",
        help="validate a patch (policy, parse, format, lint, type check) without writing it",
        description="Run the validation ladder on a patch against --root; nothing is written.",
        epilog=_PATCH_AND_EXITS,
        formatter_class=raw,
    )
    _add_patch_arguments(check, "interpreter whose packages the checker resolves")

    apply = sub.add_parser(
        "apply",
        help="validate a patch, then write it all-or-nothing and run the affected tests",
        description="Run the ladder; only if every rung passes, write every file of the patch "
        "(the formatted bytes) in one crash-safe transaction, then run the tests that import "
        "what changed. Nothing is written when a rung fails.",
        epilog=_PATCH_AND_EXITS,
        formatter_class=raw,
    )
    _add_patch_arguments(apply, "interpreter for the checker and the tests")
    apply.add_argument("--finish", action="store_true", help="also run the 'finish' rungs")

    finish = sub.add_parser(
        "finish", help="run the workspace's 'once at the end' rungs ([tool.prewrite] finish)"
    )
    finish.add_argument("--root", required=True, help="workspace root")
    finish.add_argument("--python", help="interpreter")
    finish.add_argument("--json", action="store_true", help="print one JSON object")

    stats = sub.add_parser(
        "stats",
        help="how often each ladder rung caught a failure, and what it costs",
        description="Per rung: how many verdicts it ran in, how many failures it caught, its "
        "median cost — from the daemon's local record of verdicts.",
    )
    stats.add_argument("--root", help="only verdicts for this workspace")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument(
        "--no-autostart", action="store_true", help="fail instead of starting the daemon"
    )

    trust = sub.add_parser(
        "trust",
        help="let a workspace run its own code (interpreter, ruff, tests, finish)",
        description="Trust ROOT (and everything below it): checks then run its interpreter and "
        "its ruff as CI does, and apply/finish run its tests and commands. An untrusted "
        "workspace is checked without running anything it contains. The list is yours "
        f"({trust_file()}), never the repository's.",
    )
    trust.add_argument("root", nargs="?", help="workspace root (default: the current directory)")
    trust.add_argument("--remove", action="store_true", help="stop trusting ROOT")
    trust.add_argument("--list", action="store_true", help="print the trusted directories")

    lsp = sub.add_parser(
        "lsp",
        help="a language server over stdio for your editor, served by the daemon's warm checkers",
        description="Start this as your editor's Python / TypeScript language server. It "
        "attaches to the per-user daemon (starting it when needed) and serves diagnostics, "
        "hover, definitions, references, completion and more from the same warm checker that "
        "answers agents. Your unsaved buffers are yours alone: an agent's check never sees "
        "them, and nothing an agent checks reaches your editor.",
    )
    lsp.add_argument(
        "--no-autostart", action="store_true", help="fail instead of starting the daemon"
    )

    daemon = sub.add_parser("daemon", help="start, stop or inspect the per-user daemon")
    dsub = daemon.add_subparsers(dest="action", required=True)
    start = dsub.add_parser("start", help="start the daemon in the background")
    start.add_argument("--idle-timeout", type=float, help="exit after this many idle seconds")
    dsub.add_parser("stop", help="stop the daemon")
    status = dsub.add_parser("status", help="show the daemon and its workspaces")
    status.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "stats":
            return _stats(args)
        if args.command == "apply":
            return _apply(args)
        if args.command == "finish":
            return _finish(args)
        if args.command == "trust":
            return _trust(args)
        if args.command == "lsp":
            from prewrite.lsp_relay import run_lsp  # only an editor needs the relay

            return run_lsp(autostart=not args.no_autostart)
        return _daemon(args)
    except PrewriteError as exc:
        print(f"prewrite: error [{exc.code}]: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_ERROR


def _trust(args: argparse.Namespace) -> int:
    if args.list:
        for root in trusted_roots():
            print(root)
        return EXIT_OK
    root = Path(args.root or ".").resolve()
    if not root.is_dir():
        raise BadRequest(f"not a directory: {root}")
    set_trusted(root, not args.remove)
    verb = "no longer trusted" if args.remove else "trusted: checks run its interpreter and ruff"
    print(f"prewrite: {root} {verb}")
    return EXIT_OK


def _read_patch(source: str) -> Patch:
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise BadRequest(f"cannot read patch {source}: {exc.strerror}") from exc
    try:
        return msgspec.json.decode(data, type=Patch)
    except msgspec.DecodeError as exc:
        raise BadRequest(f"invalid patch JSON: {exc}") from exc


def _patch_client(args: argparse.Namespace) -> Client:
    """A client whose handshake is bounded like the request: ``--timeout`` plus the margin."""
    handshake_s = min(DEFAULT_CALL_TIMEOUT_S, args.timeout + REPLY_MARGIN_S)
    return Client(autostart=not args.no_autostart, call_timeout_s=handshake_s)


def _check(args: argparse.Namespace) -> int:
    patch = _read_patch(args.patch)
    started = time.perf_counter()
    with _patch_client(args) as client:
        reply = client.check(
            args.root, patch.changes, python=args.python, timeout_s=args.timeout,
            return_contents=not args.no_contents,
        )  # fmt: skip
    elapsed_ms = (time.perf_counter() - started) * 1000
    if args.json:
        sys.stdout.write(msgspec.json.encode(msgspec.structs.asdict(reply)).decode() + "\n")
    else:
        _print_human(reply, elapsed_ms)
    return EXIT_OK if reply.ok else EXIT_FINDINGS


def _print_human(reply: CheckReply, elapsed_ms: float) -> None:
    for d in reply.diagnostics:
        rule = f" [{d.rule}]" if d.rule else ""
        print(f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.message}{rule}")
    rungs = ", ".join(
        f"{r.rung} {r.outcome}" + (f" {r.ms:.0f}ms" if r.outcome in ("pass", "fail") else "")
        for r in reply.rungs
    )
    if rungs:
        print(f"prewrite: rungs: {rungs}")
    for line in reply.not_verified:
        print(f"prewrite: not verified: {line}")
    errors = sum(1 for d in reply.diagnostics if d.severity == "error")
    others = len(reply.diagnostics) - errors
    verdict = "ok" if reply.ok else f"FAILED at {reply.failed_rung or 'typecheck'}"
    print(
        f"prewrite: {verdict}: {errors} new error(s), {others} new warning(s) in "
        f"{len(reply.checked_files)} type-checked file(s), {elapsed_ms:.0f} ms"
    )


def _apply(args: argparse.Namespace) -> int:
    patch = _read_patch(args.patch)
    started = time.perf_counter()
    with _patch_client(args) as client:
        reply = client.apply(
            args.root, patch.changes, python=args.python, timeout_s=args.timeout,
            finish=args.finish, return_contents=not args.no_contents,
        )  # fmt: skip
    if args.json:
        sys.stdout.write(msgspec.json.encode(msgspec.structs.asdict(reply)).decode() + "\n")
        return EXIT_OK if reply.ok else EXIT_FINDINGS
    _print_human(reply.check, (time.perf_counter() - started) * 1000)
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


def _finish(args: argparse.Namespace) -> int:
    with Client() as client:
        reply = client.finish(args.root, python=args.python)
    if args.json:
        print(msgspec.json.encode(msgspec.structs.asdict(reply)).decode())
    else:
        _print_disk(reply.disk)
        print(f"prewrite: finish {'ok' if reply.ok else 'FAILED'} ({len(reply.disk)} rung(s))")
    return EXIT_OK if reply.ok else EXIT_FINDINGS


def _stats(args: argparse.Namespace) -> int:
    root = str(Path(args.root).resolve()) if args.root else None
    with Client(autostart=not args.no_autostart) as client:
        reply = client.stats(root)
    if args.json:
        print(msgspec.json.encode(msgspec.structs.asdict(reply)).decode())
        return EXIT_OK
    print(f"{reply.verdicts} verdict(s)" + (f" for {root}" if root else ""))
    print(f"{'rung':<10} {'runs':>6} {'caught':>7} {'median':>10}")
    for r in reply.rungs:
        print(f"{r.rung:<10} {r.runs:>6} {r.caught:>7} {r.median_ms:>8.1f}ms")
    for outcome, count in sorted(reply.outcomes.items()):
        print(f"  {outcome}: {count}")
    return EXIT_OK


def _daemon(args: argparse.Namespace) -> int:
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
        print(
            f"  {ws.root} [{ws.language}: {ws.checker or '?'}]: backend {ws.backend_state}{pid}, "
            f"generation {ws.generation}, {ws.checks} check(s), "
            f"environment {ws.environment or '-'}{python}"
        )
        if ws.last_restart:
            print(f"    {ws.restarts} restart(s), last {ws.last_restart}: {ws.last_restart_reason}")
    if not reply.workspaces:
        print("  no workspaces yet")
    return EXIT_OK
