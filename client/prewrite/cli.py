"""The ``prewrite`` command line: ``check`` a patch, manage the ``daemon``.

Exit codes (``cli_exits``): 0 ok, 1 the patch introduces an error (nothing written), 2 anything
went wrong, 3 ``apply`` wrote the patch and then its tests failed. With ``--json`` every exit
prints one JSON object, usage errors included.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from typing import TYPE_CHECKING, NoReturn

from prewrite import __version__, commands, daemon_side
from prewrite.cli_exits import EXIT_ERROR
from prewrite.cli_help import (
    APPLY_EPILOG,
    CHECK_EPILOG,
    DESCRIPTION,
    JSON_HELP,
    PATCH_AND_EXITS,
    STATUS,
)
from prewrite.cli_output import print_error, print_json_error
from prewrite.client import REPLY_MARGIN_S
from prewrite.errors import BadRequest, InternalError, PrewriteError
from prewrite.protocol import PROTOCOL_VERSION
from prewrite.trust import trust_file

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


class _Parser(argparse.ArgumentParser):
    """A usage error is reported as argparse reports it, then raised as ``bad_request`` for
    ``main`` to exit 2 with (and, with --json, to print as the one JSON object)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise BadRequest(f"usage: {message}")


def _add_patch_arguments(parser: argparse.ArgumentParser, python_help: str) -> None:
    """The options ``check`` and ``apply`` share: the same patch contract and daemon use."""
    parser.add_argument("--root", required=True, help="workspace root the patch paths are under")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--patch", help="patch JSON file, or - for stdin")
    given.add_argument(
        "--diff",
        metavar="FILE",
        help="a unified diff instead (git diff, diff -u, diff -ruN; FILE or - for stdin), "
        "applied to the files under --root as they are now",
    )
    parser.add_argument("--python", help=python_help)
    parser.add_argument("--json", action="store_true", help=JSON_HELP)
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="the command's deadline in seconds (120): starting the daemon, waiting for the "
        "workspace and the ladder all count (apply's tests have test_timeout of their own); "
        f"a daemon that has not answered {REPLY_MARGIN_S:.0f}s later is reported unresponsive. "
        "A first check cut short leaves the checker starting: the retry finds it warm",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress lines on stderr (by default, a check that takes over 2s says what the "
        "daemon is doing: starting the checker, checking 12 of 161 files, ...)",
    )
    parser.add_argument(
        "--contents",
        action="store_true",
        help="with --json, also give the candidate files' text (default: path and sha256 only)",
    )
    parser.add_argument("--no-contents", action="store_true", help=argparse.SUPPRESS)  # default
    parser.add_argument(
        "--no-autostart", action="store_true", help="fail instead of starting the daemon"
    )
    parser.add_argument(
        "--rungs",
        type=_rung_list,
        help="run only these rungs, comma-separated, of parse, format, lint, typecheck, review "
        "(and tests for apply), e.g. --rungs typecheck; policy and anchor always run, and the "
        "receipt lists what was not requested (default: every rung the workspace enables)",
    )
    parser.add_argument(
        "--intent",
        metavar="TEXT",
        help="what the patch is meant to do, in a sentence; the workspace's reviewer (a "
        "[tool.prewrite] reviewer command, off by default) judges the patch against it",
    )


def _rung_list(text: str) -> list[str]:
    rungs = [r.strip() for r in text.split(",") if r.strip()]
    if not rungs:
        raise argparse.ArgumentTypeError("name at least one rung")
    return rungs


def build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="prewrite", description=DESCRIPTION, epilog=PATCH_AND_EXITS, formatter_class=raw
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"prewrite {__version__} (protocol {PROTOCOL_VERSION})",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser(
        "check",
        help="validate a patch (policy, parse, format, lint, type check) without writing it",
        description="Run the validation ladder on a patch against --root; nothing is written.",
        epilog=CHECK_EPILOG,
        formatter_class=raw,
    )
    _add_patch_arguments(check, "interpreter whose packages the checker resolves")

    apply = sub.add_parser(
        "apply",
        help="validate a patch, then write it all-or-nothing and run the affected tests",
        description="Run the ladder; only if every rung passes, write every file of the patch "
        "(the formatted bytes) in one crash-safe transaction, then run the tests that import "
        "what changed. Nothing is written when a rung fails.",
        epilog=APPLY_EPILOG,
        formatter_class=raw,
    )
    _add_patch_arguments(apply, "interpreter for the checker and the tests")
    apply.add_argument("--finish", action="store_true", help="also run the 'finish' rungs")

    finish = sub.add_parser(
        "finish", help="run the workspace's 'once at the end' rungs ([tool.prewrite] finish)"
    )
    finish.add_argument("--root", required=True, help="workspace root")
    finish.add_argument("--python", help="interpreter")
    finish.add_argument("--json", action="store_true", help=JSON_HELP)

    stats = sub.add_parser(
        "stats",
        help="how often each ladder rung caught a failure, and what it costs",
        description="Per rung: how many verdicts it ran in, how many failures it caught, its "
        "median cost — from the daemon's local record of verdicts.",
    )
    stats.add_argument("--root", help="only verdicts for this workspace")
    stats.add_argument("--json", action="store_true", help=JSON_HELP)
    stats.add_argument(
        "--no-autostart", action="store_true", help="fail instead of starting the daemon"
    )

    trust = sub.add_parser(
        "trust",
        help="let a workspace run its own code (interpreter, ruff, node tools, tests, finish)",
        description="Trust ROOT (and everything below it): checks then run its own tools as CI "
        "does (its interpreter and ruff for Python; typescript, prettier, eslint, biome from its "
        "node_modules), and apply/finish run its tests and commands. An untrusted "
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

    hook = sub.add_parser(
        "hook",
        help="a pre-write hook for coding agents (Claude Code PreToolUse): check the pending "
        "Write / Edit / MultiEdit before it lands",
        description="Reads one Claude Code PreToolUse payload on stdin and checks the pending "
        "edit as a prewrite patch. Exit 0: allowed (breaks it causes in other files come back "
        "as context the model reads). Exit 2: refused, the reason on stderr — what the edit "
        "breaks in the file it edits, an ambiguous or missing old_string with its sites, a "
        "forbidden path, or a daemon that cannot be reached (fail closed). Configure with "
        '[tool.prewrite.hook] block = "edited-file" | "any-file" | "never", timeout = 60.',
    )
    hook.add_argument(
        "--no-autostart", action="store_true", help="refuse instead of starting the daemon"
    )
    hook.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a workspace root you register for the hook (repeatable); else the file's "
        "repository (.git) or a root in `prewrite trust --list`; a file under neither is refused",
    )

    mcp = sub.add_parser(
        "mcp",
        help="a Model Context Protocol server over stdio: tools check, apply and status",
        description="Serve MCP over stdio for an agent (Claude Code, Claude Desktop, any MCP "
        "client): the tools check (a patch: full contents, find/replace edits, deletes; "
        "the verdict and only the diagnostics it introduces), apply (the same, then the "
        "all-or-nothing write and the tests) and status. Errors are tool errors carrying the "
        "stable code and what to do. Needs the daemon extra (pip install 'prewrite[daemon]').",
    )
    mcp.add_argument(
        "--root", help="workspace root when a call names none (default: the current directory)"
    )
    mcp.add_argument(
        "--no-autostart", action="store_true", help="fail instead of starting the daemon"
    )

    doctor = sub.add_parser(
        "doctor",
        help="each ladder rung beside what the repository's CI runs; mismatches marked",
        description=daemon_side.DOCTOR_HELP,
        formatter_class=raw,
    )
    doctor.add_argument("root", nargs="?", help="workspace root (default: the current directory)")
    doctor.add_argument("--json", action="store_true", help=JSON_HELP)
    doctor.add_argument("--python", help="the interpreter checks would be given (as check's)")

    daemon = sub.add_parser("daemon", help="start, stop or inspect the per-user daemon")
    dsub = daemon.add_subparsers(dest="action", required=True)
    start = dsub.add_parser("start", help="start the daemon in the background")
    start.add_argument("--idle-timeout", type=float, help="exit after this many idle seconds")
    dsub.add_parser("stop", help="stop the daemon")
    for status in (dsub.add_parser("status", help=STATUS), sub.add_parser("status", help=STATUS)):
        status.add_argument("--json", action="store_true", help=JSON_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser().parse_args(argv)
    except BadRequest as exc:  # a usage error, reported by the parser
        if "--json" in argv:
            print_json_error(exc)
        return EXIT_ERROR
    as_json = bool(getattr(args, "json", False))
    try:
        if args.command == "lsp":
            from prewrite.lsp_relay import run_lsp  # only an editor needs the relay

            return run_lsp(autostart=not args.no_autostart)
        if args.command == "hook":
            from prewrite.hook import main as run_hook  # never raises: answers the contract

            return run_hook(autostart=not args.no_autostart, roots=args.root)
        return _COMMANDS[args.command](args)
    except PrewriteError as exc:
        print_error(exc, as_json)
    except KeyboardInterrupt:
        print_error(InternalError("interrupted"), as_json)
    except Exception as exc:  # a bug: its traceback, and still exit 2 (never 1, "refused")
        traceback.print_exc()
        print_error(InternalError(f"{type(exc).__name__}: {exc}"), as_json)
    return EXIT_ERROR


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": commands.check,
    "apply": commands.apply,
    "finish": commands.finish,
    "stats": commands.stats,
    "trust": commands.trust,
    "daemon": commands.daemon,
    "status": commands.status,
    "mcp": daemon_side.mcp,
    "doctor": daemon_side.doctor,
}
