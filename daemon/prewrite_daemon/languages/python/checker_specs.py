"""What differs between the checkers judged by their own CLI: their files, settings, command
line, report, the directories they leave out on their own and the settings that run commands.

``settings`` is what a configuration change is compared by (and what the fingerprint holds): the
checker's own file whole, else its ``pyproject.toml`` table, with the project's
``requires-python`` (ty takes the Python version from it when nothing else names one; pyrefly
does not, and a change to it costs pyrefly only a second, cold judgement). ``config`` is the
same settings parsed, for the command line that depends on them (``argv``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from prewrite.errors import UntrustedWorkspace
from prewrite_daemon.backends import pyrefly_output, ty_output
from prewrite_daemon.languages.checkers import OWN_FILES, own_config
from prewrite_daemon.languages.readers import disk_reader

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.backends.cli_tool import ToolPython
    from prewrite_daemon.languages.readers import Reader


def _no_commands(config: Mapping[str, Any]) -> list[str]:
    del config
    return []


@dataclass(frozen=True)
class CheckerSpec:
    name: str  # the checker, its PyPI package and its executable
    excludes: Callable[[str], bool]  # a directory name it never checks (its default excludes)
    also_checks: tuple[str, ...]  # the files it checks beyond .py and .pyi (the shadow mirrors)
    # (binary, the workspace's Python, its parsed settings, the tree it runs in) -> a cold run
    command: Callable[[str, ToolPython, Mapping[str, Any], Path], list[str]]
    parse: Callable[[str, Path], dict[str, list[RawDiagnostic]]]
    # the settings under which it runs a command the repository names (refused untrusted)
    runs_commands: Callable[[Mapping[str, Any]], list[str]] = _no_commands

    @property
    def checked_suffixes(self) -> tuple[str, ...]:
        """The files it checks, by suffix."""
        return (".py", ".pyi", *self.also_checks)

    @property
    def own_files(self) -> tuple[str, ...]:
        """Its own files, in the order it reads them, all before its ``pyproject.toml`` table."""
        return OWN_FILES[self.name]

    @property
    def config_files(self) -> tuple[str, ...]:
        """The root files it reads its settings from."""
        return (*self.own_files, "pyproject.toml")

    def configured(self, read: Reader) -> bool:
        return own_config(read, self.name) is not None

    def config_above(self, tree: Path) -> Path | None:
        """The nearest directory above ``tree`` that configures the checker: where a run in
        ``tree`` that configures nothing takes its settings (both look upwards; measured:
        pyrefly prefers it even to a ``pyproject.toml`` marking ``tree`` as a project)."""
        for parent in tree.resolve().parents:
            where = own_config(disk_reader(parent), self.name)
            if where is not None:
                return parent / where.split(" ", 1)[0]
        return None

    def settings(self, read: Reader) -> tuple[str, str]:
        """The settings as the checker reads them: its own file whole, else its table; the
        project's ``requires-python`` beside them."""
        pyproject = _pyproject(read)
        project = cast("dict[str, Any]", pyproject.get("project") or {})
        python = repr(project.get("requires-python"))
        for own_file in self.own_files:
            own = read(own_file)
            if own is not None:
                return (own_file, f"{own}\n{python}")
        tool = cast("dict[str, Any]", pyproject.get("tool") or {})
        return ("pyproject.toml", f"{tool.get(self.name)!r}\n{python}")

    def config(self, read: Reader) -> dict[str, Any]:
        """The settings parsed (empty where there are none, or they do not parse: the checker
        refuses those itself)."""
        for own_file in self.own_files:
            own = read(own_file)
            if own is not None:
                return _toml(own)
        tool = _pyproject(read).get("tool")
        table = cast("dict[str, Any]", tool).get(self.name) if isinstance(tool, dict) else None
        return cast("dict[str, Any]", table) if isinstance(table, dict) else {}

    def argv(self, binary: str, py: ToolPython, tree: Path) -> list[str]:
        """A cold run in ``tree`` under the settings found there (the patch's, for a patched
        copy). ``UntrustedWorkspace`` where they would run a command and ``py`` says nothing
        of the workspace may run."""
        config = self.config(disk_reader(tree))
        unsafe = [] if py.may_run else self.runs_commands(config)
        if unsafe:
            raise UntrustedWorkspace(
                f"{self.name}'s configuration sets {', '.join(unsafe)}, which would run what "
                "the repository names; trust the workspace (prewrite trust) to use it"
            )
        return self.command(binary, py, config, tree)


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


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

# What ty 0.0.104 and pyrefly 1.5.0 check beyond .py and .pyi by default (measured: not .pyx).
NOTEBOOKS_AND_PYW = (".pyw", ".ipynb")

TY_SPEC = CheckerSpec(
    name="ty",
    excludes=TY_EXCLUDED.__contains__,
    also_checks=NOTEBOOKS_AND_PYW,
    command=ty_output.check_argv,
    parse=ty_output.parse_report,
)


def pyrefly_excludes(name: str) -> bool:
    """pyrefly 1.5.0's default excludes, for a directory name: ``**/node_modules``,
    ``**/__pycache__``, ``**/venv/**`` and hidden directories (``**/.[!/.]*/**``); measured, it
    checks ``site-packages``, ``build`` and virtual environments under other names (``env/``,
    ``myvenv/``) unless they are its package path."""
    return name in ("node_modules", "__pycache__", "venv") or (
        len(name) > 1 and name[0] == "." and name[1] != "."
    )


PYREFLY_SPEC = CheckerSpec(
    name="pyrefly",
    excludes=pyrefly_excludes,
    also_checks=NOTEBOOKS_AND_PYW,
    command=pyrefly_output.check_argv,
    parse=pyrefly_output.parse_report,
    runs_commands=pyrefly_output.commands_configured,
)
