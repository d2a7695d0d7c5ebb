"""``python -I -m prewrite_daemon.doctor ROOT [--json] [--python PY]``: what ``prewrite doctor``
execs (the client stays light; the doctor needs the daemon's own functions).

Exit status: 0 every rung runs what CI runs; 1 a mismatch, or a rung that cannot run as
configured; 2 bad input (ROOT missing, not a directory, the filesystem root) or a failure.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import ErrorDetail, InvalidWorkspace, PrewriteError
from prewrite.reply_json import error_object, json_line
from prewrite_daemon.doctor.examine import examine
from prewrite_daemon.doctor.render import render

if TYPE_CHECKING:
    from collections.abc import Sequence

EXIT_OK, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="prewrite doctor",
        description="Each rung of the ladder beside what the repository's CI runs.",
    )
    parser.add_argument("root", nargs="?", default=".", help="workspace root (default: .)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--python", help="the interpreter checks would be given (--python)")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    try:
        if not root.is_dir() or root == root.parent:
            why = "the filesystem root" if root == root.parent else "not a directory"
            raise InvalidWorkspace(f"{args.root}: {why}", [ErrorDetail(why, str(root))])
        report = examine(root, os.path.abspath(args.python) if args.python else None)
    except PrewriteError as exc:
        print(f"prewrite doctor: error [{exc.code}]: {exc}", file=sys.stderr)
        if args.json:  # one object on every exit, as the CLI's --json
            sys.stdout.write(json_line(error_object(exc)))
        return EXIT_ERROR
    if args.json:
        data = {**msgspec.to_builtins(report), "ok": report.ok}
        sys.stdout.write(msgspec.json.encode(data).decode() + "\n")
    else:
        sys.stdout.write(render(report))
    return EXIT_OK if report.ok else EXIT_MISMATCH


if __name__ == "__main__":
    sys.exit(main())
