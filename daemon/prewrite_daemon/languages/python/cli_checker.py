"""Python, checked by a fast single-binary checker's own CLI: ty (and pyrefly), where configured.

The files, the graph and the environment are Python's (``languages.python.language``); the
checker is the CLI itself, run on the whole program with the patch laid on the shadow
(``backends.cli_whole``): no warm server whose answers would have to be proven equal to the
CLI's. Its own binary in a trusted workspace whose interpreter installs it, prewrite's otherwise
(``backends.cli_tool``); its version and origin in the receipt and the fingerprint.

The shadow leaves out directories a pyright run skips (dot-directories, ``__pycache__``,
``site-packages``, virtual environments: ``shadow.scan``); ty checks some of them (all but its
default excludes). A workspace holding sources there is refused (``Spec.unmirrored``): a patch
that breaks one would be answered green. ty reads ``.gitignore`` only inside a git repository
and the shadow is none, so the shadow's run checks the ignored files too: more diagnostics, never
fewer (a patch breaking only an ignored file is red where ty's own run says nothing).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed
from prewrite_daemon.backends.cli_tool import CliTool, find_tool
from prewrite_daemon.backends.cli_whole import CliWholeProgram, ReportError
from prewrite_daemon.backends.process import run_captured
from prewrite_daemon.languages.python.checker_specs import TY_SPEC, CheckerSpec
from prewrite_daemon.languages.python.language import PYTHON, PythonEnvironment, PythonLanguage
from prewrite_daemon.languages.python.whole_program import EveryFile, PythonProgramChecker
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.shadow.scan import skipped_dir

if TYPE_CHECKING:
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
    refusal: str | None = None  # why this checker cannot judge the workspace soundly

    @property
    def checker(self) -> str:
        return self.tool.label

    @property
    def site_dirs(self) -> list[Path]:
        return self.python_env.site_dirs

    def argv(self) -> list[str]:
        return self.spec.argv(self.tool.binary, self.python_env.python)

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


def unmirrored_sources(root: Path, excluded: frozenset[str]) -> list[str]:
    """Directories under ``root`` that the shadow leaves out but the checker would check (it
    excludes only the names in ``excluded``) and that hold Python sources."""
    found: list[str] = []
    for dirpath, dirnames, _ in os.walk(root):
        kept: list[str] = []
        for name in sorted(dirnames):
            path = os.path.join(dirpath, name)
            if name in excluded or os.path.islink(path):
                continue
            if skipped_dir(Path(path)):
                if _holds_sources(path, excluded):
                    found.append(os.path.relpath(path, root))
            else:
                kept.append(name)
        dirnames[:] = kept
        if len(found) >= 3:
            break
    return found


def _holds_sources(directory: str, excluded: frozenset[str]) -> bool:
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if d not in excluded]
        del dirpath
        if any(f.endswith((".py", ".pyi")) for f in filenames):
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
        return self._python.is_mirrored(name) or name in self.spec.config_files

    def is_checker_config(self, rel: str) -> bool:
        return rel in self.spec.config_files

    def applies_to(self, root: Path) -> bool:
        return self.spec.configured(disk_reader(root))

    def environment(
        self, root: Path, python: str, run_python: str | None, trusted: bool
    ) -> CliEnvironment:
        py = self._python.environment(root, python, run_python, trusted)
        tool = find_tool(self.spec.name, py.site_dirs, run_python if trusted else None)
        refusal = None
        hidden = unmirrored_sources(root, self.spec.excluded)
        if hidden:
            refusal = (
                f"{self.spec.name} checks the sources in {', '.join(hidden)}, which prewrite's "
                f"shadow does not mirror; exclude them from {self.spec.name} or name another "
                "checker in [tool.prewrite] typecheck"
            )
        return CliEnvironment(py, tool, self.spec, refusal)

    def make_backend(
        self, shadow_root: Path, env: Environment, run_python: str | None,
        ready: Backend | None = None,
    ) -> Backend:  # fmt: skip
        del run_python, ready
        assert isinstance(env, CliEnvironment)
        if env.refusal is not None:
            raise BackendFailed(env.refusal)
        return CliWholeProgram(self.spec.name, shadow_root, env.argv(), self.spec.parse)

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
        code, out, err = await run_captured(env.argv(), tree, None, timeout_s, self.spec.name)
        if code not in (0, 1):
            raise BackendFailed(f"{self.spec.name} exited {code}: {(err or out)[-2000:]}")
        try:
            return self.spec.parse(out, tree)
        except ReportError as exc:
            raise BackendFailed(f"{self.spec.name}'s report could not be read: {exc}") from exc


TY = CliCheckerLanguage(PYTHON, TY_SPEC)
