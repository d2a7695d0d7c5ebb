"""Shared by the overlay check tests (``test_run_check_*.py``): a small package on a real shadow
with the fake backend (``tests.support.fake_backend``) behind ``run_check``/``plan_check``, and the
checks that a run left no overlay behind and which file events the checker saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite_daemon.check.patch import prepare_patch
from prewrite_daemon.check.scope import CheckerScope
from prewrite_daemon.checker import CheckContext
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.languages.python.names.deps import NameGraph
from prewrite_daemon.shadow.tree import ShadowTree
from tests.support.fake_backend import FakeBackend, toy_check
from tests.support.setups import write

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from prewrite.protocol import FileChange
    from prewrite_daemon.backends.base import RawDiagnostic
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.languages.base import DependencyGraph


CORE = 'def helper(x: int) -> int:\n    return x + 1\n\n\nLEGACY = "BAD"\n'
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": CORE,
    "pkg/user.py": "from pkg.core import helper\n\n\ndef use() -> int:\n    return helper(1)\n",
    "pkg/other.py": "VALUE = 1\n",
}
LONG_S = 60.0  # a deadline no test reaches


@dataclass
class Setup:
    root: Path
    shadow: ShadowTree
    fake: FakeBackend
    ctx: CheckContext
    graph: DependencyGraph

    def patch(self, *changes: FileChange) -> PreparedPatch:
        return prepare_patch(self.root, list(changes))

    def path(self, rel: str) -> str:
        return self.shadow.shadow_path(rel)


def make_setup(
    tmp_path: Path,
    files: dict[str, str] = FILES,
    scope: dict[str, list[str]] | None = None,
    cycles: bool = False,
) -> Setup:
    root = tmp_path / "ws"
    root.mkdir()
    write(root, files)
    root = root.resolve()
    shadow = ShadowTree(root, tmp_path / "shadow", PYTHON.is_mirrored)
    shadow.create()
    # reportImportCycles off, as a layout naming nothing says (``checker._checked_again``)
    graph = NameGraph(None, report_import_cycles=cycles)
    for rel, text in files.items():
        graph.update(rel, text)
    fake = FakeBackend(shadow.shadow_root)
    checker_scope = None if scope is None else CheckerScope.from_settings(dict(scope), root)
    ctx = CheckContext(PYTHON, shadow, graph, fake, {}, checker_scope)
    return Setup(root, shadow, fake, ctx, graph)


def files_of(top: Path) -> dict[str, bytes]:
    return {p.relative_to(top).as_posix(): p.read_bytes() for p in top.rglob("*") if p.is_file()}


def assert_clean(s: Setup) -> None:
    """No document left open, and the shadow holds exactly the workspace's bytes."""
    assert s.fake.docs == {}
    assert files_of(s.shadow.shadow_root) == files_of(s.root)


def watching(
    probe: Callable[[], object], seen: list[object]
) -> Callable[[str, str, Callable[[str], str | None]], list[RawDiagnostic]]:
    """The toy checker, noting ``probe()`` at every pull (what the shadow held at that moment)."""

    def script(rel: str, text: str, view: Callable[[str], str | None]) -> list[RawDiagnostic]:
        seen.append(probe())
        return toy_check(rel, text, view)

    return script
