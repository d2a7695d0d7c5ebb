"""What each rung of the ladder runs for a workspace: the tool, its version, where it comes from,
the configuration it reads and its command line — asked of the functions the daemon runs the
rungs with, never worked out again here.

The format and lint rungs are ``ladder.ruff.Ruff``'s commands (its ruff: the workspace's own
in a trusted workspace, else prewrite's); the type checkers are ``languages.checkers.choose``'s
choice, each with its language's environment (pyright's bundled version, ``find_mypy``'s mypy,
``choose_typescript``'s TypeScript); the tests rung is ``ladder.disk``'s pytest command. The
commands are the cold ones: where a rung runs warm (``ruff server``, pyright's language server,
dmypy), the cold command is the one it answers like and falls back to. ``<file>`` stands for
each file of a patch, ``<tests>`` for the test modules that import what it changed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import InvalidWorkspace, PrewriteError
from prewrite_daemon.backends.cli_tool import installed_version
from prewrite_daemon.backends.mypy_command import cli_argv
from prewrite_daemon.backends.pyright import cold_argv
from prewrite_daemon.backends.pyright_command import pyright_origin
from prewrite_daemon.backends.typescript import find_typescript
from prewrite_daemon.doctor.cli_checkers import CLI_CHECKERS, cli_checker_tool
from prewrite_daemon.doctor.report import RungTool
from prewrite_daemon.ladder.config import load_config
from prewrite_daemon.ladder.disk import tests_argv
from prewrite_daemon.ladder.ruff import BREAKAGE_RULES, Ruff
from prewrite_daemon.ladder.ruff_configs import ruff_config_for
from prewrite_daemon.languages.checkers import Choice, choose, mypy_config_file
from prewrite_daemon.languages.python.checker_config import load_checker_config
from prewrite_daemon.languages.python.language import BASEDPYRIGHT, PYTHON
from prewrite_daemon.languages.python.mypy import MYPY, targets
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.languages.typescript.environment import JSCONFIG, TSCONFIG
from prewrite_daemon.languages.typescript.language import TYPESCRIPT

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.doctor.setup_state import Place
    from prewrite_daemon.ladder.config import LadderConfig

FILE = "<file>"
TESTS = "<tests>"
VERSION_TIMEOUT_S = 10.0
_VERSION = re.compile(r"(\d+\.\d+[\w.+-]*)")


def rung_tools(place: Place, problems: list[str]) -> list[RungTool]:
    """Every rung's tools for ``place``, in ladder order; what stops one is added to
    ``problems``."""
    try:
        config: LadderConfig | None = load_config(place.root)
    except PrewriteError as exc:
        problems.append(f"[tool.prewrite] does not load, so every check fails: {exc}")
        config = None
    groups: list[tuple[str, Callable[[], list[RungTool]]]] = [
        ("format and lint", lambda: _ruff_tools(place, config)),
        ("typecheck", lambda: _type_checkers(place, config, problems)),
        ("tests", lambda: [_tests(place, config)]),
    ]
    tools: list[RungTool] = []
    for rungs, make in groups:
        try:
            tools += make()
        except PrewriteError as exc:  # a configuration that is a FIFO, a device, huge
            problems.append(f"{rungs}: {exc}")
    return tools


def _state(config: LadderConfig | None, rung: str) -> str:
    if config is None:
        return "unknown ([tool.prewrite] does not load)"
    if config.enabled(rung):
        return "on"
    if rung == "format" and not config.format_set:
        return "off (the repository configures no ruff; [tool.prewrite] format = true sets it)"
    return f"off ([tool.prewrite] {rung} = false)"


def _ruff_tools(place: Place, config: LadderConfig | None) -> list[RungTool]:
    rungs = (("format", "ruff format"), ("lint", "ruff check"))
    try:
        ruff = Ruff(place.root, place.run_python, warm=False)
    except PrewriteError as exc:
        return [RungTool(r, t, _state(config, r), notes=[str(exc)]) for r, t in rungs]
    found = ruff_config_for(place.root / FILE)
    settings = None if found is None else _shown(found, place.root)
    mine = Path(ruff.exe).parent == Path(sys.executable).parent
    if place.run_python is not None and Path(ruff.exe).parent == Path(place.run_python).parent:
        origin = "the workspace's own"
    else:
        origin = "bundled with prewrite" if mine else "found on PATH, outside any repository"
    version = _run_version([ruff.exe, "--version"])
    theirs = installed_version("ruff", place.site_dirs)
    theirs = theirs if origin != "the workspace's own" and theirs != version else None
    lint_notes = [] if found else [f"no ruff configuration: lint selects only {BREAKAGE_RULES}"]
    format_tool = RungTool(
        "format", "ruff format", _state(config, "format"), version, origin, settings,
        ruff.format_command(FILE), workspace_version=theirs,
    )  # fmt: skip
    return [
        format_tool,
        msgspec.structs.replace(
            format_tool,
            rung="lint",
            tool="ruff check",
            state=_state(config, "lint"),
            command=ruff.lint_command(FILE),
            notes=lint_notes,
        ),
    ]


def _shown(path: Path, root: Path) -> str:
    """A configuration file as the report names it: root-relative when inside the root."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _type_checkers(
    place: Place, config: LadderConfig | None, problems: list[str]
) -> list[RungTool]:
    state = _state(config, "typecheck")
    try:
        choices = choose(place.root)
    except PrewriteError as exc:
        problems.append(f"which type checker judges is not known: {exc}")
        return []
    tools = [
        _mypy(place, choice, state, problems) if choice.name == "mypy"
        else cli_checker_tool(place, choice, state, problems) if choice.name in CLI_CHECKERS
        else _pyright(place, choice, state)
        for choice in choices
    ]  # fmt: skip
    if TYPESCRIPT.applies_to(place.root):
        tools.append(_typescript(place, state, problems))
    return tools


def _pyright(place: Place, choice: Choice, state: str) -> RungTool:
    """pyright, or basedpyright (the same language object with its own flavour)."""
    lang = BASEDPYRIGHT if choice.name == "basedpyright" else PYTHON
    name, flavour = lang.flavour.name, lang.flavour
    source = load_checker_config(disk_reader(place.root), lang.sections).source
    override = os.environ.get(flavour.override)
    may_run = place.trusted and bool(place.run_python)
    notes: list[str] = []
    try:
        found = pyright_origin(place.root, place.site_dirs, may_run, flavour)
        origin = f"{flavour.override} ({override})" if override else found.origin
        command = cold_argv(place.run_python, found.dist, flavour)
    except PrewriteError as exc:  # not installed with prewrite: the doctor says so
        return RungTool("typecheck", name, state, chosen_by=choice.chosen_by, notes=[str(exc)])
    if found.dist is None and found.pinned and found.pinned != found.version:
        notes.append(f"the repository pins {name} {found.pinned}")
    if place.run_python is None:
        notes.append(f"no interpreter is run: {name} reads the packages the configuration names")
    version = found.version
    return RungTool(
        "typecheck",
        name,
        state,
        version,
        origin,
        source.split(" ", 1)[0] if source else None,
        command,
        choice.chosen_by,
        notes,
    )


def _mypy(place: Place, choice: Choice, state: str, problems: list[str]) -> RungTool:
    config = mypy_config_file(disk_reader(place.root))
    if place.python is None:
        return RungTool(
            "typecheck",
            "mypy",
            state,
            config=config,
            chosen_by=choice.chosen_by,
            notes=[place.python_error or "no interpreter"],
        )
    try:
        env = MYPY.environment(place.root, place.python, place.run_python, place.trusted)
    except PrewriteError as exc:
        problems.append(f"mypy: {exc}")
        return RungTool("typecheck", "mypy", state, config=config, chosen_by=choice.chosen_by)
    if env.refusal is not None:
        problems.append(f"mypy will not run: {env.refusal}")
    found = targets(place.root, None, env.ci)  # CI's, where prewrite follows them
    return RungTool(
        "typecheck",
        "mypy",
        state,
        env.tool.version,
        env.tool.origin,
        config,
        cli_argv(env.tool, env.python_executable, found, env.ci.flags),
        choice.chosen_by,
        [] if env.refusal is None else [env.refusal],
        found,
        env.tool.workspace_version,
    )


def _typescript(place: Place, state: str, problems: list[str]) -> RungTool:
    project = TSCONFIG if (place.root / TSCONFIG).is_file() else JSCONFIG
    python = place.python or sys.executable  # TypeScript runs no interpreter: any will do
    try:
        env = TYPESCRIPT.environment(place.root, python, place.run_python, place.trusted)
    except PrewriteError as exc:
        problems.append(f"TypeScript: {exc}")
        return RungTool("typecheck", "typescript", state, config=project, notes=[str(exc)])
    ts = env.ts
    notes = [env.choice.note] if env.choice.note else []
    try:
        command = ts.cold_argv(project)
    except PrewriteError as exc:
        command, notes = [], [*notes, str(exc)]
    theirs: str | None = None
    if ts.pinned:
        try:
            theirs = find_typescript(place.root).version
        except InvalidWorkspace:
            theirs = None
    origin = "prewrite's own (pinned)" if ts.pinned else "the workspace's own"
    return RungTool(
        "typecheck",
        "typescript",
        state,
        ts.version,
        origin,
        project,
        command,
        f"{project} at the root",
        notes,
        workspace_version=theirs if theirs != ts.version else None,
    )


def _tests(place: Place, config: LadderConfig | None) -> RungTool:
    if config is not None and not config.tests:
        state = "off ([tool.prewrite] tests = false)"
    elif not place.trusted:
        state = "off (the workspace is not trusted: apply runs none of its tests)"
    elif place.run_python is None:
        state = "off (the interpreter is another repository's code: read, never run)"
    else:
        state = "on (after apply writes)" if config is not None else _state(config, "tests")
    python = place.run_python or place.python
    command = tests_argv(python, [TESTS]) if python else []
    version = installed_version("pytest", place.site_dirs)
    notes = [] if version or not python else [f"pytest is not installed for {python}"]
    return RungTool(
        "tests", "pytest", state, version, "the workspace's interpreter", None, command, notes=notes
    )


def _run_version(argv: list[str]) -> str | None:
    """``tool --version``'s version number; None when it does not answer in time."""
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
            cwd="/",
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = _VERSION.search(done.stdout)
    return found.group(1) if found and done.returncode == 0 else None
