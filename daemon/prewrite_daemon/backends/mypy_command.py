"""Which mypy judges a workspace, and its command lines: the warm daemon's, its client's, the CLI's.

A trusted workspace with mypy installed in its own interpreter is judged by that mypy (the version
its CI pins); otherwise by the mypy installed with prewrite, and the receipt says so, naming the
version the workspace has. mypy learns where the workspace's packages are by running the
interpreter named by ``--python-executable``: a trusted workspace's own; for an untrusted one, a
shim of ours that prints the package directories read from disk (``untrusted_shim``), so
nothing of the workspace runs. The command line's ``--python-executable`` overrides one a
configuration file names.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.backends.cli_tool import installed_version as dist_info_version

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

# Every run, warm and cold: JSON lines (``backends.mypy_output``), no cache written beside the
# sources (the daemon keeps its state in memory; the cold run is cold by definition).
COMMON_FLAGS = ("--cache-dir", os.devnull, "--no-pretty", "--no-color-output")
JSON_FLAGS = ("--output", "json")  # mypy 1.11 and later
# Before 1.11, the text report with every position and code (``mypy_output`` reads both).
TEXT_FLAGS = ("--show-column-numbers", "--show-error-end", "--show-error-codes",
              "--no-error-summary", "--hide-error-context")  # fmt: skip


def speaks_json(version: str) -> bool:
    """Whether this mypy version has ``--output json`` (1.11+; an unreadable version: yes)."""
    try:
        major, minor = (int(part) for part in version.split(".")[:2])
    except ValueError:
        return True
    return (major, minor) >= (1, 11)


@dataclass(frozen=True)
class MypyTool:
    """The mypy that runs: the interpreter it runs in, its version, where it comes from."""

    python: str
    version: str
    origin: str  # "the workspace's own" | "bundled with prewrite"
    workspace_version: str | None = None  # the workspace's installed mypy, when another runs

    @property
    def label(self) -> str:
        """For receipts and the fingerprint: "mypy 2.4.1 (bundled with prewrite; the workspace
        has 1.13.0)"."""
        pinned = f"; the workspace has {self.workspace_version}" if self.workspace_version else ""
        return f"mypy {self.version} ({self.origin}{pinned})"


def installed_version(site_dirs: list[Path]) -> str | None:
    """The mypy installed in these package directories (its metadata and its package both)."""
    for directory in site_dirs:
        version = dist_info_version("mypy", [directory])
        if version and (directory / "mypy" / "__init__.py").is_file():
            return version
    return None


def own_version() -> str:
    return importlib.metadata.version("mypy")


def find_mypy(site_dirs: list[Path], run_python: str | None) -> MypyTool:
    """The workspace's own mypy where it may run and has one, else prewrite's."""
    theirs = installed_version(site_dirs)
    if run_python is not None and theirs is not None:
        return MypyTool(run_python, theirs, "the workspace's own")
    ours = own_version()
    return MypyTool(
        sys.executable, ours, "bundled with prewrite", theirs if theirs != ours else None
    )


def untrusted_shim(state_dir: Path, site_dirs: list[Path]) -> str:
    """An executable that answers mypy's ``pyinfo.py getsearchdirs`` question the way the
    workspace's interpreter would, from directories read on disk; mypy runs it, not the
    workspace's interpreter. Written once per set of directories."""
    answer = repr((list[str](), [str(d) for d in site_dirs]))
    name = f"pyinfo-{hashlib.sha256(answer.encode()).hexdigest()[:16]}.sh"
    path = state_dir / name
    if not path.is_file():
        state_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(f"#!/bin/sh\ncat <<'EOF'\n{answer}\nEOF\n", encoding="utf-8")
        tmp.chmod(0o700)
        tmp.replace(path)
    return str(path)


def mypy_flags(tool: MypyTool, python_executable: str, extra: Sequence[str] = ()) -> list[str]:
    """``extra``: settings CI gives on its command line (``languages.python.mypy_ci``)."""
    report = JSON_FLAGS if speaks_json(tool.version) else TEXT_FLAGS
    return [*report, *COMMON_FLAGS, "--python-executable", python_executable, *extra]


def daemon_argv(
    tool: MypyTool, status_file: Path, python_executable: str, extra: Sequence[str] = ()
) -> list[str]:
    """The warm server, in the foreground (a child we supervise, not a daemon that forks)."""
    return [tool.python, "-m", "mypy.dmypy", "--status-file", str(status_file), "daemon",
            "--", *mypy_flags(tool, python_executable, extra)]  # fmt: skip


def check_argv(tool: MypyTool, status_file: Path, targets: list[str]) -> list[str]:
    """One check by the warm server: it finds what changed on disk since the last one."""
    return [tool.python, "-m", "mypy.dmypy", "--status-file", str(status_file), "check",
            *targets]  # fmt: skip


def stop_argv(tool: MypyTool, status_file: Path) -> list[str]:
    return [tool.python, "-m", "mypy.dmypy", "--status-file", str(status_file), "stop"]


def cli_argv(
    tool: MypyTool, python_executable: str, targets: list[str], extra: Sequence[str] = ()
) -> list[str]:
    """The cold CLI of the same mypy: the oracle, and the judge of configuration changes."""
    return [tool.python, "-m", "mypy", *mypy_flags(tool, python_executable, extra), *targets]


def failure_hint(tool: MypyTool, said: str) -> str:
    """What to do about a mypy that refused to run, when its words say (a configuration whose
    ``python_version`` this mypy no longer supports: pytest's 3.8 under mypy 2.x)."""
    if "is not supported (must be" not in said:
        return ""
    if tool.origin == "the workspace's own":
        return ""
    return (
        f" (the configuration targets a Python that {tool.label} no longer checks: "
        "`prewrite trust ROOT` judges with the mypy the workspace's environment has installed, "
        "as its CI does, or [tool.prewrite] typecheck names another checker)"
    )
