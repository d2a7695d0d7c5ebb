"""Python, checked by pyright: the one language so far."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.backends.pyright import checker_version, cli_argv, make_pyright
from prewrite_daemon.checker_config import CONFIG_FILES
from prewrite_daemon.environment import is_graph_file
from prewrite_daemon.imports import ImportGraph, interface_changed

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.backends.base import Backend

SOURCE_SUFFIXES = (".py", ".pyi")
MIRRORED_NAMES = frozenset({"py.typed", "pyproject.toml", "pyrightconfig.json"})


class PythonLanguage:
    name = "python"

    def is_source(self, rel: str) -> bool:
        return rel.endswith(SOURCE_SUFFIXES)

    def is_mirrored(self, name: str) -> bool:
        return name.endswith(SOURCE_SUFFIXES) or name in MIRRORED_NAMES

    def is_checker_config(self, rel: str) -> bool:
        return rel in CONFIG_FILES

    def is_graph_file(self, rel: str) -> bool:
        return is_graph_file(rel)

    def checker_version(self) -> str:
        return checker_version()

    def make_backend(self, root: Path, python: str | None) -> Backend:
        return make_pyright(root, python)

    def cold_argv(self, python: str | None) -> list[str]:
        return [*cli_argv(), "--outputjson", *(["--pythonpath", python] if python else [])]

    def new_graph(self) -> ImportGraph:
        return ImportGraph()

    def interface_changed(self, old: str | None, new: str | None) -> bool:
        return interface_changed(old, new)

    def normalize_message(self, message: str) -> str:
        """pyright's language server indents message details with NBSP; the CLI does not."""
        return message.replace("\u00a0", " ")


PYTHON = PythonLanguage()
