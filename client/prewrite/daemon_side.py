"""The subcommands that run the daemon's own code: ``prewrite mcp`` (the MCP server, which needs
the mcp SDK) and ``prewrite doctor`` (which asks the daemon's functions what each rung runs).

The client imports none of it: this process becomes ``python -I -m <module>`` in the same
interpreter, with the same stdin and stdout. Isolated (``-I``), as the daemon is started: the
working directory is a repository, and ``-m`` would otherwise import from it first.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import TYPE_CHECKING

from prewrite.cli_exits import EXIT_ERROR

if TYPE_CHECKING:
    import argparse

MCP_MODULE = "prewrite_daemon.agents.server"
DOCTOR_MODULE = "prewrite_daemon.doctor"

DOCTOR_HELP = """\
For each rung of the ladder (format, lint, typecheck, tests): the tool prewrite runs, its
version, where it comes from, the configuration file it reads and its command line, beside
what the repository's CI runs, read (never executed) from .github/workflows/*.yml,
.pre-commit-config.yaml, tox.ini, noxfile.py, the Makefile and package.json. Each way they
differ is marked ✗: another version; a type checker CI runs that prewrite does not judge
with, or the reverse; a rung off that CI runs; another configuration file; other mypy
targets; settings passed on CI's command line (--strict), which prewrite never passes. Then
the setup: trust, the interpreter, the daemon, prewrite on PATH.

exit status:
  0  no mismatch
  1  mismatches, or a rung that cannot run as configured
  2  bad input (ROOT missing or not a directory)
"""


def mcp(args: argparse.Namespace) -> int:
    """The MCP server lives with the daemon's dependencies (the mcp SDK), not in the client."""
    argv = ["--root", args.root] if args.root else []
    return become("mcp", MCP_MODULE, argv + (["--no-autostart"] if args.no_autostart else []))


def doctor(args: argparse.Namespace) -> int:
    """The doctor's answer is the daemon's functions' (which ruff, checker, configuration)."""
    argv = [os.path.abspath(args.root or "."), *(["--json"] if args.json else [])]
    argv += ["--python", args.python] if args.python else []
    return become("doctor", DOCTOR_MODULE, argv)


def become(command: str, module: str, argv: list[str]) -> int:
    """Exec ``python -I -m module argv`` (returns only when the daemon extra is missing)."""
    if importlib.util.find_spec("prewrite_daemon") is None:
        extra = "pip install 'prewrite[daemon]'"
        print(f"prewrite: {command} needs the daemon extra ({extra})", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-I", "-m", module, *argv])
