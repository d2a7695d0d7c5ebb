"""Shared by the TypeScript import graph tests (``test_ts_graph_*.py``): a graph built from dedented
sources and a ``tsconfig.json``, and a file's direct importers.
"""

from __future__ import annotations

import json
import textwrap
from typing import TYPE_CHECKING, Any

from prewrite_daemon.languages.typescript.graph import TsImportGraph
from prewrite_daemon.languages.typescript.tsconfig import load_tsconfig

if TYPE_CHECKING:
    from pathlib import Path


def graph_of(
    root: Path, sources: dict[str, str], config: dict[str, Any] | None = None
) -> TsImportGraph:
    texts = {"tsconfig.json": json.dumps(config)} if config is not None else {}
    graph = TsImportGraph(load_tsconfig(root, texts.get), root)
    for rel, text in sources.items():
        graph.update(rel, textwrap.dedent(text))
    return graph


def direct(graph: TsImportGraph, rel: str) -> set[str]:
    return graph.importers([rel], transitive=False)
