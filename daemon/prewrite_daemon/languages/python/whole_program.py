"""What every whole-program Python checker shares (mypy, the CLI-judged ty and pyrefly): Python's
files, import graph and change rules, a scope covering every file, diagnostics as they come.

``MypyLanguage`` and ``CliCheckerLanguage`` differ in their checker, environment and layout; the
rest is Python's (``languages.python.language``), delegated here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.languages.base import CheckerLayout, DependencyGraph, Environment
    from prewrite_daemon.languages.python.language import PythonLanguage


class EveryFile:
    """The checker reports every file it checks: no file is out of its scope."""

    def covers(self, rel: str) -> bool:
        del rel
        return True


class PythonProgramChecker:
    """The ``Language`` methods a whole-program Python checker takes from Python itself."""

    def __init__(self, python: PythonLanguage) -> None:
        self._python = python

    def is_source(self, rel: str) -> bool:
        return self._python.is_source(rel)

    def new_graph(
        self,
        root: Path,
        layout: CheckerLayout | None,
        env: Environment | None = None,
        links: Mapping[str, str] | None = None,
    ) -> DependencyGraph:
        del layout, env
        return self._python.new_graph(root, None, None, links)

    def interface_changed(
        self, rel: str, old: str | None, new: str | None, env: Environment | None = None
    ) -> bool:
        del env  # as ``new_graph``: the least assumed about this checker
        return self._python.interface_changed(rel, old, new)

    def reaches_everything(self, rel: str, old: str | None, new: str | None) -> bool:
        return self._python.reaches_everything(rel, old, new)

    def needs_cold(self, introduced: list[Any]) -> bool:
        del introduced
        return False

    def normalize(self, raw: RawDiagnostic) -> RawDiagnostic:
        return raw
