"""Python, checked by mypy: the checker a repository configures with ``[tool.mypy]`` and friends.

The files, the graph and the environment are Python's (``languages.python.language``); what
differs is the checker: dmypy warm (``backends.dmypy``), the ``mypy`` CLI cold, the project's
own configuration file, and the whole program answered at once (``check.whole``). What mypy
checks is what CI's mypy names, else the configuration's ``files``, else every top-level package
and module of the root (``targets``). The targets are always named, ``files`` included: the mypy CLI
reads ``files`` when given none, but dmypy's ``check`` request checks exactly the files it
carries, and an empty one checks nothing (every patch green).
"""

from __future__ import annotations

import configparser
import glob
import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prewrite.errors import BackendFailed, UntrustedWorkspace
from prewrite_daemon.backends.dmypy import DmypyBackend
from prewrite_daemon.backends.mypy_command import (
    MypyTool,
    cli_argv,
    failure_hint,
    find_mypy,
    untrusted_shim,
)
from prewrite_daemon.backends.mypy_output import parse_report
from prewrite_daemon.backends.process import run_captured
from prewrite_daemon.languages.checkers import MYPY_INI, mypy_config_file
from prewrite_daemon.languages.python.language import PYTHON, PythonEnvironment
from prewrite_daemon.languages.python.mypy_ci import CiMypy, ci_mypy
from prewrite_daemon.languages.python.whole_program import EveryFile, PythonProgramChecker
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.shadow.scan import skipped_dir

if TYPE_CHECKING:
    from collections.abc import Sequence

    from prewrite_daemon.backends.base import Backend, RawDiagnostic
    from prewrite_daemon.backends.ready import ReadyChecker
    from prewrite_daemon.languages.base import Environment
    from prewrite_daemon.languages.fingerprint import Fingerprint
    from prewrite_daemon.languages.readers import Reader

CONFIG_FILES = (*MYPY_INI, "pyproject.toml", "setup.cfg")
# Settings that make mypy run or write something the configuration names: an untrusted
# workspace's configuration may not (a plugin is the repository's code; a report is a write).
UNSAFE_KEYS = ("plugins", "report", "junit_xml", "python_executable")


@dataclass(frozen=True)
class MypyLayout:
    config: tuple[str, str]  # the settings' file and their canonical text (compared whole)
    outside: tuple[Path, ...]
    scope: EveryFile
    config_text: None = None  # mypy reads the project's own file, mirrored in the shadow

    def with_config(self, root: Path, read: Reader) -> MypyLayout:
        del root
        return replace(self, config=mypy_settings(read))


def _read_config(
    read: Reader,
) -> tuple[str, str, dict[str, Any] | configparser.RawConfigParser | None]:
    """mypy's configuration file: (its name, its text, its parsed form — the ``[tool]`` table of
    a ``pyproject.toml``, the parser of an ini file, None when it does not parse); all empty
    when there is none."""
    name = mypy_config_file(read)
    if name is None:
        return ("", "", None)
    text = read(name) or ""
    if name == "pyproject.toml":
        try:
            tool: Any = tomllib.loads(text).get("tool", {})
        except tomllib.TOMLDecodeError:
            return (name, text, None)
        return (name, text, cast("dict[str, Any]", tool) if isinstance(tool, dict) else {})
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return (name, text, None)
    return (name, text, parser)


def mypy_settings(read: Reader) -> tuple[str, str]:
    """mypy's settings as the file it reads them from has them (sections of other tools left
    out, so a dependency bump in ``pyproject.toml`` is no configuration change)."""
    name, text, parsed = _read_config(read)
    if parsed is None:
        return (name, text)
    if isinstance(parsed, dict):
        return (name, repr(parsed.get("mypy")))
    sections = [(s, sorted(parsed.items(s))) for s in parsed.sections() if s.startswith("mypy")]
    return (name, repr(sections))


def dmypy_only_flags(read: Reader, ci_flags: Sequence[str] = ()) -> tuple[str, ...]:
    """dmypy refuses ``follow_imports = silent`` (pydantic-settings 2.6.1's): it runs with
    ``normal`` (last, so it wins over CI's flag), reporting the targets' files only
    (``DmypyBackend(only_targets=True)``), as ``silent`` does; the cold CLI keeps ``silent``."""
    _, _, parsed = _read_config(read)
    if isinstance(parsed, dict):
        value = cast("dict[str, Any]", parsed.get("mypy") or {}).get("follow_imports")
    else:
        value = parsed.get("mypy", "follow_imports", fallback=None) if parsed else None
    said = [str(value).strip()] if value is not None else []
    for flag, after in zip(ci_flags, [*ci_flags[1:], ""], strict=False):
        if flag.startswith("--follow-imports"):
            said.append(flag.partition("=")[2] if "=" in flag else after)
    return ("--follow-imports", "normal") if said and said[-1] == "silent" else ()


@dataclass
class MypyEnvironment:
    python_env: PythonEnvironment
    tool: MypyTool
    python_executable: str  # what mypy runs to find packages (``backends.mypy_command``)
    refusal: str | None = None  # why mypy may not run for this untrusted workspace
    ci: CiMypy = field(default_factory=CiMypy)  # CI's targets and command-line settings

    @property
    def checker(self) -> str:
        return self.tool.label

    @property
    def site_dirs(self) -> list[Path]:
        return self.python_env.site_dirs

    def layout(self) -> MypyLayout:
        outside = self.python_env.layout().outside
        return MypyLayout(mypy_settings(disk_reader(self.python_env.root)), outside, EveryFile())

    def fingerprint(self, outside: list[Path], libraries: int) -> Fingerprint:
        """Python's, with mypy's version, its settings and CI's command line in it: any of them
        moving on disk restarts dmypy (it reads its settings once, at its start)."""
        settings = mypy_settings(disk_reader(self.python_env.root))
        now = ci_mypy(self.python_env.root)
        stamp = hashlib.sha256(repr((settings, now.digest)).encode()).hexdigest()[:16]
        checker = f"{self.checker} settings {stamp}"
        return replace(self.python_env, checker=checker).fingerprint(outside, libraries)

    def links(self) -> dict[str, Path]:
        return {}

    def untrusted_note(self) -> str:
        return f"{self.python_env.untrusted_note()}; mypy: {self.checker}, packages read from disk"


def targets(tree: Path, read: Reader | None = None, ci: CiMypy | None = None) -> list[str]:
    """What mypy checks under ``tree``: what CI's mypy names (``mypy_ci``: those of its targets
    the tree holds); else the configuration's ``files``, expanded as mypy expands them (named,
    never left to mypy: the module docstring says why); else each top-level package, directory
    of sources and module."""
    if ci is not None and ci.targets:
        return [t for t in ci.targets if (tree / t).exists()]
    files = configured_files(read or disk_reader(tree))
    if files:
        return [found for entry in files for found in _expand(tree, entry)]
    found: list[str] = []
    for entry in sorted(os.scandir(tree), key=lambda e: e.name):
        if entry.is_symlink():
            continue  # a venv or node_modules the shadow links
        if entry.is_file() and entry.name.endswith((".py", ".pyi")):
            found.append(entry.name)
        elif entry.is_dir() and not skipped_dir(Path(entry.path)) and _holds_sources(entry.path):
            found.append(entry.name)
    return found


def configured_files(read: Reader) -> list[str]:
    """The ``files`` of mypy's settings, split as mypy splits them (a TOML list, or a string of
    comma-separated entries in TOML or an ini file); none named: empty."""
    parsed = _read_config(read)[2]
    value: object = None
    if isinstance(parsed, dict):
        table = parsed.get("mypy")
        value = cast("dict[str, Any]", table).get("files") if isinstance(table, dict) else None
    elif parsed is not None:
        value = parsed.get("mypy", "files", fallback=None)
    items: list[Any] = value.split(",") if isinstance(value, str) else []
    if isinstance(value, list):
        items = list[Any](value)  # pyright: ignore[reportUnknownArgumentType]
    return [item.strip() for item in items if isinstance(item, str) and item.strip()]


def _expand(tree: Path, entry: str) -> list[str]:
    """One ``files`` entry as mypy expands it, relative to ``tree`` (its working directory):
    ``~`` and variables, then a recursive glob; an entry matching nothing stays as it is
    (mypy then says it cannot read it, as its own run does)."""
    path = os.path.expandvars(os.path.expanduser(entry))
    return sorted(glob.glob(path, root_dir=tree, recursive=True)) or [path]


def _holds_sources(directory: str) -> bool:
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if not skipped_dir(Path(dirpath, d))]
        if any(f.endswith((".py", ".pyi")) for f in filenames):
            return True
    return False


class MypyLanguage(PythonProgramChecker):
    """The ``Language`` seam for mypy (Python's files and graph; mypy's checker)."""

    name = "mypy"
    config_name = ".prewrite-mypy-unused"  # mypy reads the project's own file: none generated

    def is_mirrored(self, name: str) -> bool:
        return self._python.is_mirrored(name) or name in CONFIG_FILES

    def is_checker_config(self, rel: str) -> bool:
        return rel in CONFIG_FILES

    def applies_to(self, root: Path) -> bool:
        return mypy_config_file(disk_reader(root)) is not None

    def environment(
        self, root: Path, python: str, run_python: str | None, trusted: bool
    ) -> MypyEnvironment:
        py = self._python.environment(root, python, run_python, trusted)
        tool = find_mypy(py.site_dirs, run_python if trusted else None)
        ci = ci_mypy(root)
        if trusted and run_python is not None:
            return MypyEnvironment(py, tool, run_python, ci=ci)
        settings = mypy_settings(disk_reader(root))[1]
        unsafe = [key for key in UNSAFE_KEYS if key in settings]
        refusal = None
        if unsafe:
            refusal = (
                f"mypy's configuration sets {', '.join(unsafe)}, which would run or write what "
                "the repository names; trust the workspace (prewrite trust) to use it"
            )
        shim = untrusted_shim(_shim_dir(), py.site_dirs)
        return MypyEnvironment(py, tool, shim, refusal, ci)

    def make_backend(
        self, shadow_root: Path, env: Environment, run_python: str | None,
        ready: Backend | None = None,
    ) -> Backend:  # fmt: skip
        del run_python, ready
        assert isinstance(env, MypyEnvironment)
        if env.refusal is not None:
            raise UntrustedWorkspace(env.refusal)
        state = shadow_root.parent / f"{shadow_root.name}.dmypy"
        ci = env.ci
        silent = dmypy_only_flags(disk_reader(shadow_root), ci.flags)
        return DmypyBackend(
            shadow_root, env.tool, env.python_executable, state,
            lambda: targets(shadow_root, None, ci),
            (*ci.flags, *silent), only_targets=bool(silent),
        )  # fmt: skip

    def make_ready(self, cwd: Path) -> ReadyChecker | None:
        del cwd
        return None  # the server is the workspace's (its mypy, its configuration)

    async def cold_check(
        self, tree: Path, env: Environment, run_python: str | None, timeout_s: float
    ) -> dict[str, list[RawDiagnostic]]:
        del run_python
        assert isinstance(env, MypyEnvironment)
        if env.refusal is not None:
            raise UntrustedWorkspace(env.refusal)
        argv = cli_argv(env.tool, env.python_executable, targets(tree, None, env.ci), env.ci.flags)
        code, out, err = await run_captured(argv, tree, None, timeout_s, "mypy")
        if code not in (0, 1):
            said = (err or out)[-2000:]
            raise BackendFailed(f"mypy exited {code}: {said}{failure_hint(env.tool, said)}")
        return parse_report(out, tree)

    def interface_changed(
        self, rel: str, old: str | None, new: str | None, env: Environment | None = None
    ) -> bool:
        """Python's rule, and mypy's own comments: a type comment (``x = 1  # type: Any``) or a
        ``# mypy:`` line changes what importers see though the syntax tree does not."""
        del env  # pyright's rules for dead stores are not mypy's: every store counts
        if self._python.interface_changed(rel, old, new):
            return True
        return _mypy_comments(old) != _mypy_comments(new)


_MYPY_COMMENT = re.compile(r"#\s*(?:type|mypy)\s*:[^\n]*")


def _mypy_comments(text: str | None) -> list[str]:
    return _MYPY_COMMENT.findall(text or "")


def _shim_dir() -> Path:
    from prewrite.runtime import runtime_paths

    return runtime_paths().state_dir / "mypy-pyinfo"


MYPY = MypyLanguage(PYTHON)
