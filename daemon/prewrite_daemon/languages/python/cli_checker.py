"""Python, checked by a fast single-binary checker's own CLI: ty and pyrefly, where configured.

The files, the graph and the environment are Python's (``languages.python.language``); the
checker is the CLI itself, run on the whole program with the patch laid on the shadow
(``backends.cli_whole``): no warm server whose answers would have to be proven equal to the
CLI's. Its own binary in a trusted workspace whose interpreter installs it, prewrite's otherwise
(``backends.cli_tool``); its version and origin in the receipt and the fingerprint. What the run
is told of the interpreter is ``ToolPython``: pyrefly may run it only where the workspace is
trusted, and is told the package directories read on disk otherwise.

The shadow holds what the checker checks beyond Python's sources too (notebooks, ``.pyw``:
``CheckerSpec.also_checks``). Refused, never answered (a patch breaking what the shadow's run
cannot see would be green):
- sources in directories the shadow leaves out (dot-directories, ``__pycache__``,
  ``site-packages``, virtual environments: ``shadow.scan``) that the checker checks (all but
  its default excludes: ``unmirrored_sources``);
- a root with no configuration of the checker's (it judges by ``[tool.prewrite] typecheck``)
  under a directory that holds one: the checker's own run reads that one (``config_above``).
The checkers read ignore files the shadow does not hold (ty's ``.gitignore`` only in a git
repository, which the shadow is not; pyrefly's is turned off), so the shadow's run checks the
ignored files too: more diagnostics, never fewer.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.cli_tool import CliTool, ToolPython, find_tool
from prewrite_daemon.backends.cli_whole import CliWholeProgram, run_cli
from prewrite_daemon.languages.python.checker_specs import PYREFLY_SPEC, TY_SPEC, CheckerSpec
from prewrite_daemon.languages.python.environment import pth_dirs, read_venv
from prewrite_daemon.languages.python.language import PYTHON, PythonEnvironment, PythonLanguage
from prewrite_daemon.languages.python.whole_program import EveryFile, PythonProgramChecker
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.shadow.scan import skipped_dir

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.backends.base import Backend, RawDiagnostic
    from prewrite_daemon.backends.ready import ReadyChecker
    from prewrite_daemon.languages.base import Environment
    from prewrite_daemon.languages.fingerprint import Fingerprint
    from prewrite_daemon.languages.readers import Reader


@dataclass(frozen=True)
class CliLayout:
    config: tuple[str, str]  # the settings the checker reads, canonical (compared whole)
    outside: tuple[Path, ...]
    scope: EveryFile
    spec: CheckerSpec = field(compare=False)
    config_text: None = None  # the checker reads the project's own files, mirrored

    def with_config(self, root: Path, read: Reader) -> CliLayout:
        del root
        return replace(self, config=self.spec.settings(read))


@dataclass
class CliEnvironment:
    python_env: PythonEnvironment
    tool: CliTool
    spec: CheckerSpec
    trusted: bool
    refusal: str | None = None  # why this checker cannot judge the workspace soundly

    @property
    def checker(self) -> str:
        return self.tool.label

    @property
    def site_dirs(self) -> list[Path]:
        return self.python_env.site_dirs

    def tool_python(self) -> ToolPython:
        """The interpreter, runnable by the checker only in a trusted workspace; otherwise its
        package directories (and the ones its ``.pth`` files add) and version, read on disk."""
        env = self.python_env
        if self.trusted and env.run_python is not None:
            return ToolPython(env.run_python, may_run=True)
        dirs = [*env.site_dirs, *pth_dirs(env.site_dirs)]
        venv = read_venv(env.python)
        version = None if venv is None else venv[1]
        return ToolPython(env.python, False, tuple(dict.fromkeys(map(str, dirs))), version)

    def argv(self, tree: Path) -> list[str]:
        """The checker's cold run in ``tree``, under the settings found there."""
        return self.spec.argv(self.tool.binary, self.tool_python(), tree)

    def layout(self) -> CliLayout:
        settings = self.spec.settings(disk_reader(self.python_env.root))
        return CliLayout(settings, self.python_env.layout().outside, EveryFile(), self.spec)

    def fingerprint(self, outside: list[Path], libraries: int) -> Fingerprint:
        """Python's, with the checker's version, origin and settings in it."""
        settings = self.spec.settings(disk_reader(self.python_env.root))
        stamp = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]
        checker = f"{self.checker} settings {stamp}"
        return replace(self.python_env, checker=checker).fingerprint(outside, libraries)

    def links(self) -> dict[str, Path]:
        return {}

    def untrusted_note(self) -> str:
        return f"{self.python_env.untrusted_note()}; {self.spec.name}: {self.checker}"


def unmirrored_sources(
    root: Path, excluded: Callable[[str], bool], suffixes: tuple[str, ...] = (".py", ".pyi")
) -> list[str]:
    """Directories under ``root`` that the shadow leaves out but the checker would check (it
    excludes only the directory names ``excluded`` says) and that hold files it checks."""
    found: list[str] = []
    for dirpath, dirnames, _ in os.walk(root):
        kept: list[str] = []
        for name in sorted(dirnames):
            path = os.path.join(dirpath, name)
            if excluded(name) or os.path.islink(path):
                continue
            if skipped_dir(Path(path)):
                if _holds_sources(path, excluded, suffixes):
                    found.append(os.path.relpath(path, root))
            else:
                kept.append(name)
        dirnames[:] = kept
        if len(found) >= 3:
            break
    return found


def _holds_sources(
    directory: str, excluded: Callable[[str], bool], suffixes: tuple[str, ...]
) -> bool:
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if not excluded(d)]
        del dirpath
        if any(f.endswith(suffixes) for f in filenames):
            return True
    return False


class CliCheckerLanguage(PythonProgramChecker):
    """The ``Language`` seam for a checker judged by its own CLI (Python's files and graph)."""

    def __init__(self, python: PythonLanguage, spec: CheckerSpec) -> None:
        super().__init__(python)
        self.spec = spec
        self.name = spec.name
        self.config_name = f".prewrite-{spec.name}-unused"  # none generated

    def is_mirrored(self, name: str) -> bool:
        """Python's files, the checker's settings, and what else it checks (notebooks: a
        patch that breaks one must not be green for want of it in the shadow)."""
        spec = self.spec
        return (
            self._python.is_mirrored(name)
            or name in spec.config_files
            or name.endswith(spec.also_checks)
        )

    def is_checker_config(self, rel: str) -> bool:
        return rel in self.spec.config_files

    def applies_to(self, root: Path) -> bool:
        return self.spec.configured(disk_reader(root))

    def environment(
        self, root: Path, python: str, run_python: str | None, trusted: bool
    ) -> CliEnvironment:
        py = self._python.environment(root, python, run_python, trusted)
        tool = find_tool(self.spec.name, py.site_dirs, run_python if trusted else None)
        return CliEnvironment(py, tool, self.spec, trusted, self._refusal(root))

    def _refusal(self, root: Path) -> str | None:
        name = self.spec.name
        hidden = unmirrored_sources(root, self.spec.excludes, self.spec.checked_suffixes)
        if hidden:
            return (
                f"{name} checks the sources in {', '.join(hidden)}, which prewrite's shadow "
                f"does not mirror; exclude them from {name} or name another checker in "
                "[tool.prewrite] typecheck"
            )
        return self._config_above(root)

    def _config_above(self, tree: Path) -> str | None:
        """Why a run in ``tree`` would read settings from above it (None: it would not)."""
        if self.spec.configured(disk_reader(tree)):
            return None  # its own settings come first
        above = self.spec.config_above(tree)
        if above is None:
            return None
        name = self.spec.name
        return (
            f"nothing configures {name} in {tree}, so {name} would read its settings from "
            f"{above}, above it, which the workspace's own run and prewrite's shadow do not "
            f"share; configure {name} in the workspace itself"
        )

    def make_backend(
        self, shadow_root: Path, env: Environment, run_python: str | None,
        ready: Backend | None = None,
    ) -> Backend:  # fmt: skip
        del run_python, ready
        assert isinstance(env, CliEnvironment)
        refusal = env.refusal or self._config_above(shadow_root)
        if refusal is not None:
            raise BackendFailed(refusal)
        argv = env.argv(shadow_root)
        return CliWholeProgram(self.spec.name, shadow_root, argv, self.spec.parse)

    def make_ready(self, cwd: Path) -> ReadyChecker | None:
        del cwd
        return None  # nothing to keep warm

    async def cold_check(
        self, tree: Path, env: Environment, run_python: str | None, timeout_s: float
    ) -> dict[str, list[RawDiagnostic]]:
        del run_python
        assert isinstance(env, CliEnvironment)
        if env.refusal is not None:
            raise BackendFailed(env.refusal)
        return await run_cli(self.spec.name, env.argv(tree), tree, self.spec.parse, timeout_s)


TY = CliCheckerLanguage(PYTHON, TY_SPEC)
PYREFLY = CliCheckerLanguage(PYTHON, PYREFLY_SPEC)
