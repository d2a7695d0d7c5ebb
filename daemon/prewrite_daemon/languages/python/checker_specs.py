"""What differs between the checkers judged by their own CLI: their files, settings, command
line, report and the directories they leave out on their own.

``settings`` is what a configuration change is compared by (and what the fingerprint holds): the
checker's own file whole, else its ``pyproject.toml`` table, with the project's
``requires-python`` (ty takes the Python version from it when nothing else names one).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.backends import ty_output
from prewrite_daemon.languages.checkers import TY_TOML, ty_configured

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.languages.readers import Reader


@dataclass(frozen=True)
class CheckerSpec:
    name: str  # the checker, its PyPI package and its executable
    config_files: tuple[str, ...]  # the root files it reads its settings from
    own_file: str  # its own file, read before pyproject.toml's table
    table: str  # its pyproject.toml table: [tool.<table>]
    excluded: frozenset[str]  # directory names it never checks (its default excludes)
    configured: Callable[[Reader], bool]
    argv: Callable[[str, str], list[str]]  # (binary, python) -> a cold run of the project
    parse: Callable[[str, Path], dict[str, list[RawDiagnostic]]]

    def settings(self, read: Reader) -> tuple[str, str]:
        """The settings as the checker reads them: its own file whole, else its table; the
        project's ``requires-python`` beside them."""
        own = read(self.own_file)
        pyproject = _pyproject(read)
        project = cast("dict[str, Any]", pyproject.get("project") or {})
        python = repr(project.get("requires-python"))
        if own is not None:
            return (self.own_file, f"{own}\n{python}")
        tool = cast("dict[str, Any]", pyproject.get("tool") or {})
        return ("pyproject.toml", f"{tool.get(self.table)!r}\n{python}")


def _pyproject(read: Reader) -> dict[str, Any]:
    text = read("pyproject.toml")
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {"invalid": text}  # the checker refuses it too; a change to it is still seen


# ty 0.0.104's default excludes among the directories the shadow leaves out (measured: it
# checks ``.github``, ``.cache``, ``.pytest_cache``, ``__pycache__``, ``site-packages`` and
# virtual environments under other names).
TY_EXCLUDED = frozenset({
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox",
    ".pants.d", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", "venv", "node_modules",
})  # fmt: skip

TY_SPEC = CheckerSpec(
    name="ty",
    config_files=(TY_TOML, "pyproject.toml"),
    own_file=TY_TOML,
    table="ty",
    excluded=TY_EXCLUDED,
    configured=ty_configured,
    argv=ty_output.check_argv,
    parse=ty_output.parse_report,
)
