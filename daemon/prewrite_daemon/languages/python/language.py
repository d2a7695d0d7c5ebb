"""Python, checked by pyright: sources, configuration, installed packages, import graph.

basedpyright (pyright's fork) is the same language object with another ``Flavour``: its own
package, version and origin (in the fingerprint and the receipt), its CLI and server, and its
``pyproject.toml`` table (``[tool.basedpyright]``, else ``[tool.pyright]``); a language of its
own to the core (``BASEDPYRIGHT``: its own workspace, shadow and checker).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.trust import why_untrusted
from prewrite_daemon.backends.lsp_process import LspProcess
from prewrite_daemon.backends.pyright import (
    WARM_UP_SOURCE,
    cold_pyright,
    make_pyright,
    make_ready_pyright,
)
from prewrite_daemon.backends.pyright_command import (
    BASEDPYRIGHT as BASEDPYRIGHT_FLAVOUR,
)
from prewrite_daemon.backends.pyright_command import (
    PYRIGHT,
    Flavour,
    PyrightOrigin,
    checker_version,
    pyright_origin,
)
from prewrite_daemon.backends.ready import ReadyChecker
from prewrite_daemon.languages.python.checker_config import CONFIG_FILES, JSON_CONFIG
from prewrite_daemon.languages.python.environment import (
    fingerprint,
    is_graph_file,
    read_site_dirs,
)
from prewrite_daemon.languages.python.interpreter_query import ask_interpreter, take_prefetched
from prewrite_daemon.languages.python.layout import Layout, compute_layout
from prewrite_daemon.languages.python.names.dead_stores import modelled
from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.languages.python.names.imports import interface_changed
from prewrite_daemon.languages.python.protocols.roots import configured_typesheds, for_environment
from prewrite_daemon.languages.readers import disk_reader

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.backends.base import Backend, RawDiagnostic
    from prewrite_daemon.languages.base import CheckerLayout, Environment
    from prewrite_daemon.languages.fingerprint import Fingerprint

SOURCE_SUFFIXES = (".py", ".pyi")
MIRRORED_NAMES = frozenset({"py.typed", "pyproject.toml", "pyrightconfig.json"})


@dataclass
class PythonEnvironment:
    """The interpreter's package dirs (asked of it, or read from disk when it may not run)."""

    root: Path
    python: str
    run_python: str | None
    site_dirs: list[Path]
    checker: str
    pyright: PyrightOrigin | None = None  # None: prewrite's own (``checker`` says which)
    sections: tuple[str, ...] = ("pyright",)  # the pyproject.toml tables the checker reads

    @property
    def pyright_dist(self) -> Path | None:
        """The workspace's own pyright package, where it judges (None: prewrite's)."""
        return self.pyright.dist if self.pyright is not None else None

    def layout(self) -> Layout:
        unrun = None if self.run_python else self.python
        read = disk_reader(self.root)
        return compute_layout(self.root, self.site_dirs, read, unrun, self.sections)

    def fingerprint(self, outside: list[Path], libraries: int) -> Fingerprint:
        return fingerprint(
            self.root, self.python, self.site_dirs, self.checker, outside, libraries,
            is_graph_file,
        )  # fmt: skip

    def links(self) -> dict[str, Path]:
        return {}  # a venv at the root is linked by the shadow itself

    def untrusted_note(self) -> str:
        how = "read from disk, not run" if self.run_python is None else self.python
        note = f"interpreter: {how}; lint: the daemon's ruff"
        replaced = why_untrusted(self.root)  # a trusted folder replaced since: say so
        return f"{note}; {replaced}" if replaced else note


class PythonLanguage:
    """The ``Language`` seam for Python judged by pyright, or by a fork of it (``flavour``)."""

    config_name = JSON_CONFIG  # basedpyright reads pyrightconfig.json first too

    def __init__(
        self, name: str = "python", flavour: Flavour = PYRIGHT, sections: tuple[str, ...] = ()
    ) -> None:
        self.name = name
        self.flavour = flavour
        self.sections = sections or (flavour.name,)

    def is_source(self, rel: str) -> bool:
        return rel.endswith(SOURCE_SUFFIXES)

    def is_mirrored(self, name: str) -> bool:
        return name.endswith(SOURCE_SUFFIXES) or name in MIRRORED_NAMES

    def is_checker_config(self, rel: str) -> bool:
        return rel in CONFIG_FILES

    def applies_to(self, root: Path) -> bool:
        del root
        return True  # any tree may hold Python; pyright starts only when a patch needs it

    def environment(
        self, root: Path, python: str, run_python: str | None, trusted: bool
    ) -> PythonEnvironment:
        if run_python is None:
            dirs = read_site_dirs(python)
            origin = pyright_origin(root, dirs, False, self.flavour)
            return PythonEnvironment(root, python, None, dirs, origin.label, origin, self.sections)
        answer = take_prefetched(run_python) or ask_interpreter(run_python)
        # the workspace's own pyright is its code too: run only where the workspace is trusted
        origin = pyright_origin(root, answer.site_dirs, trusted, self.flavour)
        return PythonEnvironment(
            root, python, run_python, answer.site_dirs, origin.label, origin, self.sections
        )

    def make_backend(
        self,
        shadow_root: Path,
        env: Environment,
        run_python: str | None,
        ready: Backend | None = None,
    ) -> Backend:
        dist = env.pyright_dist if isinstance(env, PythonEnvironment) else None
        bindable = ready if isinstance(ready, LspProcess) and dist is None else None
        return make_pyright(shadow_root, run_python, bindable, dist, self.flavour)

    def make_ready(self, cwd: Path) -> ReadyChecker | None:
        if not self.flavour.default:
            return None  # the ready server is prewrite's pyright (``backends.spawned_ahead``)
        return ReadyChecker(make_ready_pyright(cwd), ("warm_up.py", WARM_UP_SOURCE))

    async def cold_check(
        self, tree: Path, env: Environment, run_python: str | None, timeout_s: float
    ) -> dict[str, list[RawDiagnostic]]:
        dist = env.pyright_dist if isinstance(env, PythonEnvironment) else None
        found = await cold_pyright(tree, run_python, timeout_s, dist, self.flavour)
        # --outputjson indents message details with NBSP too (the text output does not)
        return {rel: [self.normalize(raw) for raw in raws] for rel, raws in found.items()}

    def new_graph(
        self,
        root: Path,
        layout: CheckerLayout | None,
        env: Environment | None = None,
        links: Mapping[str, str] | None = None,
    ) -> NameGraph:
        """``links``: the shadow's links (root-relative name -> target, absolute when outside
        the root): the checker reads the sources there too, so their Protocols count (None:
        the caller does not say, and only ``layout.outside`` is read)."""
        if not isinstance(env, PythonEnvironment) or not isinstance(layout, Layout):
            return NameGraph(None)  # Protocols not known: every member change is its class's
        dirs, files = linked_sources(links or {}, self.is_source)
        typesheds = configured_typesheds(layout.config.settings, root)
        library = for_environment(
            env.site_dirs, [*layout.outside, *dirs], typesheds, env.checker, linked=files,
            dist=env.pyright.package if env.pyright else None,  # whose typeshed counts
        )  # fmt: skip
        library.prefetch()  # the disk caches only: the scan waits for a member change
        # Off in every pyright rule set (basic to strict): on only where the configuration
        # names it (at the top or in an execution environment), or where a file's comment does
        # (``NameGraph`` notices those itself). basedpyright's default rule set ("recommended")
        # turns it on: always taken as on there.
        named = "reportImportCycles" in json.dumps(layout.config.settings)
        cycles = named or not self.flavour.default
        return NameGraph(library, report_import_cycles=cycles, dead_stores=_dead_stores(env))

    def interface_changed(
        self, rel: str, old: str | None, new: str | None, env: Environment | None = None
    ) -> bool:
        del rel
        return interface_changed(old, new, dead_stores=_dead_stores(env))

    def reaches_everything(self, rel: str, old: str | None, new: str | None) -> bool:
        del rel, old, new
        return False  # Python reaches other modules only through imports (the graph)

    def needs_cold(self, introduced: list[Diagnostic]) -> bool:
        del introduced
        return False  # pyright reports every file's diagnostics on their own

    def normalize(self, raw: RawDiagnostic) -> RawDiagnostic:
        message = self.normalize_message(raw.message)
        return raw if message == raw.message else replace(raw, message=message)

    def normalize_message(self, message: str) -> str:
        """pyright's language server indents message details with NBSP; the CLI does not."""
        return message.replace("\u00a0", " ")


def linked_sources(
    links: Mapping[str, str], is_source: Callable[[str], bool]
) -> tuple[list[Path], list[Path]]:
    """The directories and the source files outside the root that ``links`` point at (a file
    counts by its link's name: that is the name the checker reads it by)."""
    dirs: list[Path] = []
    files: list[Path] = []
    for rel, target in sorted(links.items()):
        if not os.path.isabs(target):
            continue  # inside the root: mirrored, or linked to what is
        if os.path.isdir(target):
            dirs.append(Path(target))
        elif is_source(rel):
            files.append(Path(target))
    return dirs, files


def _dead_stores(env: Environment | None) -> bool:
    """Whether dead stores reach no importer: where the checker's complexity is modelled.

    The workspace's own pyright is asked its version again: ``env.checker`` is read once, and
    a ``pip install -U pyright`` in the workspace's environment restarts the checker (its
    packages moved) with the new version under the old label."""
    if not isinstance(env, PythonEnvironment) or not modelled(env.checker):
        return False
    origin = env.pyright
    return (
        origin is None
        or origin.dist is None
        or modelled(checker_version(origin.dist, origin.flavour))
    )


PYTHON = PythonLanguage()
BASEDPYRIGHT = PythonLanguage(
    "basedpyright", BASEDPYRIGHT_FLAVOUR, ("basedpyright", "pyright")
)  # basedpyright's rule: [tool.basedpyright], else [tool.pyright] (it refuses both)
