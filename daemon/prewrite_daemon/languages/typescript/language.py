"""TypeScript (and JavaScript checked by it): sources, tsconfig, node_modules, the import graph.

A root with a ``tsconfig.json`` (or ``jsconfig.json``) is a TypeScript workspace. Its checker is
the workspace's own TypeScript (``backends/typescript.py``) when the workspace is trusted, and
prewrite's own pinned TypeScript when it is not (``typescript/pinned.py``). Which files a change can
reach is the import graph under TypeScript's module resolution (``typescript/graph.py``); a change
that can reach files with no import edge (a ``.d.ts``, a script file, ``declare global``, module
augmentation) re-checks the whole project. Diagnostics carry TypeScript's code as the rule,
``TS2345``, as ``tsc`` prints it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from prewrite_daemon.backends.typescript import (
    cold_tsc,
    make_typescript_backend,
    nearest_node_modules,
)
from prewrite_daemon.languages.typescript.environment import (
    JSCONFIG,
    TSCONFIG,
    TsEnvironment,
    TsLayout,
)
from prewrite_daemon.languages.typescript.graph import TsImportGraph, reaches_everything
from prewrite_daemon.languages.typescript.interface import interface_changed
from prewrite_daemon.languages.typescript.pinned import choose_typescript
from prewrite_daemon.languages.typescript.scope import SOURCE_SUFFIXES

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.backends.base import Backend, RawDiagnostic
    from prewrite_daemon.backends.ready import ReadyChecker
    from prewrite_daemon.languages.base import CheckerLayout, Environment

MIRRORED_NAMES = frozenset({"package.json"})
# What tsc counts as syntactic: TS1xxx, and TypeScript syntax in a JavaScript file (TS8002-8017,
# TS8037/8038); with one of them it reports no semantic errors at all.
_SYNTAX = re.compile(r"TS1\d{3}|TS80(?:0[2-9]|1[0-7]|3[78])")


class TypeScriptLanguage:
    name = "typescript"
    config_name = TSCONFIG

    def is_source(self, rel: str) -> bool:
        return rel.endswith(SOURCE_SUFFIXES)

    def is_mirrored(self, name: str) -> bool:
        # .json: tsconfig chains, resolveJsonModule imports, package.json "exports"/"types".
        return name.endswith((*SOURCE_SUFFIXES, ".json")) or name in MIRRORED_NAMES

    def is_checker_config(self, rel: str) -> bool:
        name = rel.rsplit("/", 1)[-1]
        return rel == JSCONFIG or (name.startswith("tsconfig") and name.endswith(".json"))

    def applies_to(self, root: Path) -> bool:
        return (root / TSCONFIG).is_file() or (root / JSCONFIG).is_file()

    def environment(
        self, root: Path, python: str, run_python: str | None, trusted: bool
    ) -> TsEnvironment:
        """A trusted workspace is checked with its own TypeScript; an untrusted one with
        prewrite's pinned TypeScript, since whatever node finds from the root (its
        ``node_modules``, an ancestor's, a symlink into the repository) is the repository's
        code (``typescript.pinned.choose_typescript``)."""
        del python, run_python  # TypeScript runs no interpreter of the workspace
        choice = choose_typescript(root, trusted)
        return TsEnvironment(root, choice, nearest_node_modules(root), trusted)

    def make_backend(
        self,
        shadow_root: Path,
        env: Environment,
        run_python: str | None,
        ready: Backend | None = None,
    ) -> Backend:
        del run_python, ready  # the workspace's own TypeScript: none is started ahead
        assert isinstance(env, TsEnvironment)
        return make_typescript_backend(env.ts, shadow_root)

    def make_ready(self, cwd: Path) -> ReadyChecker | None:
        del cwd
        return None

    async def cold_check(
        self, tree: Path, env: Environment, run_python: str | None, timeout_s: float
    ) -> dict[str, list[RawDiagnostic]]:
        del run_python
        assert isinstance(env, TsEnvironment)
        project = TSCONFIG if (tree / TSCONFIG).is_file() else JSCONFIG
        return await cold_tsc(env.ts, tree, project, timeout_s)

    def new_graph(
        self,
        root: Path,
        layout: CheckerLayout | None,
        env: Environment | None = None,
        links: Mapping[str, str] | None = None,
    ) -> TsImportGraph:
        del env, links  # node_modules is outside the graph; linked sources are resolved paths
        return TsImportGraph(layout.config if isinstance(layout, TsLayout) else None, root)

    def interface_changed(
        self, rel: str, old: str | None, new: str | None, env: Environment | None = None
    ) -> bool:
        del env
        return interface_changed(rel, old, new)

    def reaches_everything(self, rel: str, old: str | None, new: str | None) -> bool:
        return any(reaches_everything(rel, text) for text in (old, new) if text is not None)

    def needs_cold(self, introduced: list[Diagnostic]) -> bool:
        """A new syntactic error (``_SYNTAX``): tsc then reports only those, program-wide."""
        return any(_SYNTAX.fullmatch(d.rule) for d in introduced)

    def normalize(self, raw: RawDiagnostic) -> RawDiagnostic:
        """Servers report the bare code (``2345``); tsc prints ``TS2345``."""
        if raw.rule.isdigit():
            return dataclasses.replace(raw, rule=f"TS{raw.rule}")
        return raw


TYPESCRIPT = TypeScriptLanguage()
