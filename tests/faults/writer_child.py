"""A child writer: applies the 5-file patch of ``writer_tree`` to a workspace, then cleans up.

Run as ``python -m tests.faults.writer_child ROOT JOURNAL_DIR [options]`` from the repository
root. It prints one JSON line with the outcome (``done`` or the typed error's code) and exits 0,
or 3 on a typed error. ``--crash-at`` makes the step hook ``os._exit(CRASH_EXIT)`` at that step,
the way a power cut would stop it: no cleanup, no ``finally``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from pathlib import Path

from prewrite.errors import PrewriteError
from prewrite_daemon.writer.transaction import StepHook, Transaction
from tests.faults.writer_tree import patch_bases, patch_changes

CRASH_EXIT = 77
ERROR_EXIT = 3
READY = "ready"


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", type=Path)
    parser.add_argument("journal", type=Path)
    parser.add_argument("--size", type=int, default=0, help="pad every file to this many bytes")
    parser.add_argument("--crash-at", help="step at which the hook exits the process")
    parser.add_argument("--occurrence", type=int, default=1, help="which call of that step")
    parser.add_argument("--change-size", type=int, help="pad the new contents (default: --size)")
    parser.add_argument("--grow", help="pad only this path's new content to --change-size")
    parser.add_argument("--progress", action="store_true", help=f"print {READY!r}, then each step")
    parser.add_argument("--fsize-limit", type=int, help="RLIMIT_FSIZE in bytes")
    parser.add_argument("--as-user", type=int, help="drop to this uid (and gid) before writing")
    parser.add_argument("--umask", type=lambda s: int(s, 8), help="octal umask for the write")
    return parser.parse_args(argv)


def _step_hook(args: argparse.Namespace) -> StepHook:
    """Prints every step (``--progress``) and exits hard at ``--crash-at``/``--occurrence``."""
    seen = 0

    def hook(name: str) -> None:
        nonlocal seen
        if args.progress:
            print(name, flush=True)
        if name == args.crash_at:
            seen += 1
            if seen == args.occurrence:
                os._exit(CRASH_EXIT)

    return hook


def _limit_process(args: argparse.Namespace) -> None:
    if args.umask is not None:
        os.umask(args.umask)
    if args.fsize_limit is not None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (args.fsize_limit, args.fsize_limit))
    if args.as_user is not None:  # everything is imported already: only the tree must be open
        os.setgroups([])
        os.setgid(args.as_user)
        os.setuid(args.as_user)


def main(argv: list[str]) -> int:
    args = _parse(argv)
    change_size = args.size if args.change_size is None else args.change_size
    changes, bases = patch_changes(change_size, args.grow), patch_bases(args.size)
    _limit_process(args)
    if args.progress:
        print(READY, flush=True)
    txn = Transaction(args.root, args.journal, changes, bases, _step_hook(args))
    try:
        plan = txn.run()
        txn.cleanup(plan)
    except PrewriteError as exc:
        print(json.dumps({"outcome": exc.code, "message": str(exc)}), flush=True)
        return ERROR_EXIT
    print(json.dumps({"outcome": plan.state}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
