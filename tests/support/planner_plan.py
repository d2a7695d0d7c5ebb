"""The daemon's plan for a patch, computed the way a warm workspace computes it, in-process.

The graph is built as ``Workspace`` builds it: the language's graph for the tree's layout and
environment (so the libraries' Protocols are known and ``reportImportCycles`` is read from the
configuration), fed every source file the shadow mirrors; the plan is ``checker.plan_check``'s.
No checker runs: this is the planner alone, cheap enough to ask for every case.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.check.planning import plan_check
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.languages.python.protocols.roots import library_protocol_members
from prewrite_daemon.shadow.tree import ShadowTree

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from prewrite_daemon.languages.python.names.deps import NameGraph

Change = tuple[str, str | None, str | None]  # (path, old text or None if new, new or None)


class Planner:
    """The name graph of the tree at ``root`` (on disk), as a warm workspace would hold it."""

    def __init__(self, root: Path, python: str, scratch: Path) -> None:
        self.root = root
        env = PYTHON.environment(root, python, python, True)
        layout = env.layout()
        shadow = ShadowTree(root, scratch, PYTHON.is_mirrored, PYTHON.config_name)
        shadow.config_text = layout.config_text
        shadow.create()
        self.scope = layout.scope
        self.graph: NameGraph = PYTHON.new_graph(root, layout, env)
        self._library_dirs = [*env.site_dirs, *layout.outside]
        self.cycles = "reportImportCycles" in json.dumps(layout.config.settings)
        self.sources: dict[str, str] = {}
        for rel in sorted(shadow.files):
            text = shadow.read_text(rel)
            if PYTHON.is_source(rel) and text is not None:
                self.graph.update(rel, text)
                self.sources[rel] = text

    @functools.cached_property
    def protocols(self) -> list[str]:
        """What ``new_graph`` gave the graph, for a planner run by another interpreter (asked
        for only then: the scan is waited for here, not by the in-process plans)."""
        return sorted(library_protocol_members(self._library_dirs))

    def plan(self, changes: Sequence[Change]) -> set[str]:
        """The files a check of ``changes`` compares (patched files included)."""
        edits = tuple(FileEdit(rel, old, new) for rel, old, new in changes)
        patch = PreparedPatch(self.root, edits)
        return set(plan_check(patch, self.graph, PYTHON, self.scope).checked)
