"""pyrefly's command line and its report: ``pyrefly check --output-format json`` read into our
records. Every fact below was measured on pyrefly 1.5.0 (``strace -f -e execve`` for what runs).

- **The report**: ``{"errors": [{"line", "column", "stop_line", "stop_column", "path", "code",
  "name", "description", "concise_description", "severity"}]}``, 1-based lines and columns
  (code points; the stop exclusive), the path relative to the working directory, the rule in
  ``name``, severities ``error``, ``warn``, ``info`` and ``hint`` (info and hints are printed
  only when asked). The message is ``concise_description``: ``description`` adds details naming
  absolute paths (the configuration file, the import roots searched), which differ between the
  shadow and the workspace. Exit 0: no error (warnings alone exit 0); 1: errors, or a fatal
  configuration error with nothing on stdout, so only a JSON report answers.
- **The interpreter**: pyrefly *runs* one to find the packages (a configured one, its
  ``python-interpreter-find-command``, a conda environment, the project's own ``.venv``, else
  ``python3`` on PATH). Where it may run, it is named (``--python-interpreter-path``, which
  overrides the configuration's choice, as ty's ``--python`` does), unless the configuration
  says ``skip-interpreter-query`` (then nothing is asked, as in its own run). Otherwise
  ``--skip-interpreter-query`` drops every one of those, and the run is told what the query
  would have said: the package directories found on disk (``--site-package-path``, which
  replaces the configuration's own and its ``typings`` default, so those are passed first, as
  pyrefly searches them), and the version and platform where the configuration names none.
- **What runs regardless**: ``script-command`` (the environment of PEP 723 scripts) and
  ``build-system`` (``buck2``, a custom command) run what the configuration names even under
  ``--skip-interpreter-query``: ``commands_configured`` finds them, for the caller to refuse.
- **Ignore files**: ``.gitignore``, ``.ignore`` and ``.git/info/exclude`` are read in and
  *above* the project root, in a git repository or not; the shadow holds none of them and lives
  elsewhere. ``--use-ignore-files=false`` on every run: the shadow's run checks every file the
  workspace's own run checks, and the ignored ones too (more diagnostics, never fewer).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.backends.base import RawDiagnostic
from prewrite_daemon.backends.cli_report import ReportError, by_path, load_report, relative_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from prewrite_daemon.backends.cli_tool import ToolPython

SOURCE = "pyrefly"
# pyrefly's severities in ours; a word not listed counts as an error (it can only make red).
_SEVERITIES = {"error": "error", "warn": "warning", "info": "information", "hint": "hint"}
# The settings that run a command the repository names, whatever the interpreter flags say
# (each also under its older snake_case spelling, which pyrefly still reads).
RUNS_COMMANDS = ("script-command", "build-system")


def check_argv(binary: str, py: ToolPython, config: Mapping[str, Any], tree: Path) -> list[str]:
    """One cold ``pyrefly check`` of the project in the working directory ``tree`` under
    ``config`` (its settings as it reads them there)."""
    argv = [binary, "check", "--output-format", "json", "--use-ignore-files=false"]
    if _setting(config, "skip-interpreter-query") is True:
        return [*argv, "--skip-interpreter-query"]  # its settings alone name the packages
    if py.may_run:
        return [*argv, "--python-interpreter-path", py.python]
    argv.append("--skip-interpreter-query")
    for directory in _package_path(py, config, tree):
        argv += ["--site-package-path", directory]
    if py.version is not None and not _setting(config, "python-version"):
        argv += ["--python-version", py.version]
    if not _setting(config, "python-platform"):
        argv += ["--python-platform", sys.platform]  # the interpreter's: it runs here
    return argv


def _package_path(py: ToolPython, config: Mapping[str, Any], tree: Path) -> list[str]:
    """The package directories a query would have found, after the configuration's own (or
    its ``typings`` default, which an explicit path replaces)."""
    if not py.package_dirs:
        return []  # none passed: pyrefly keeps the configuration's and its default
    configured = _setting(config, "site-package-path")
    if isinstance(configured, list):
        first = [str(p) for p in cast("list[object]", configured)]
    else:
        first = ["typings"] if (tree / "typings").is_dir() else []
    return [*first, *py.package_dirs]


def _setting(config: Mapping[str, Any], key: str) -> Any:
    value = config.get(key)
    return value if value is not None else config.get(key.replace("-", "_"))


def commands_configured(config: Mapping[str, Any]) -> list[str]:
    """The settings in ``config`` (at any depth) that would make pyrefly run a command the
    repository names."""
    found: list[str] = []
    pending: list[object] = [config]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            table = cast("dict[str, object]", value)
            found += [k for k in RUNS_COMMANDS if k in table or k.replace("-", "_") in table]
            pending += table.values()
        elif isinstance(value, list):
            pending += cast("list[object]", value)
    return sorted(set(found))


def parse_report(text: str, tree: Path) -> dict[str, list[RawDiagnostic]]:
    """Diagnostics per root-relative path. Anything but ``{"errors": [...]}`` of readable
    diagnostics (an empty stdout: a configuration error) raises ``ReportError``."""
    document = load_report(text)
    errors = cast("dict[str, Any]", document).get("errors") if isinstance(document, dict) else None
    if not isinstance(errors, list):
        raise ReportError(f"not a report of errors: {text[:500]}")
    return by_path(cast("list[Any]", errors), _diagnostic, tree)


def _diagnostic(item: dict[str, Any], tree: Path) -> tuple[str, RawDiagnostic]:
    try:
        message = item.get("concise_description")
        if not isinstance(message, str):
            message = str(item["description"]).split("\n", 1)[0]
        severity = _SEVERITIES.get(str(item.get("severity")), "error")
        return relative_path(str(item["path"]), tree), RawDiagnostic(
            int(item["line"]) - 1, int(item["column"]) - 1,
            int(item["stop_line"]) - 1, int(item["stop_column"]) - 1,
            severity, str(item["name"]), message, SOURCE,
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"not a diagnostic: {item!r:.500}") from exc
