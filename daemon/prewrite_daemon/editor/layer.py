"""An editor's unsaved buffers as a layer on a checker, changed only by its lock's holder.

A checker holds at most one editor's buffers at a time: applying one editor's layer first closes
another's, and an agent's check clears the warm checker's layer before it starts
(``Workspace.check``). So an editor's request sees the disk plus its own buffers, an agent's
check sees the disk plus its own patch, and neither sees the other's text. The warm checker's
layer lives in its ``Workspace``; a spare checker (``editor/spare.py``) has its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.backends.base import Backend


class EditorLayer:
    def __init__(self, checker_path: Callable[[str], str]) -> None:
        """``checker_path``: a root-relative path as the checker knows it (shadow or real)."""
        self.checker_path = checker_path
        self.owner: object | None = None  # whose buffers the checker holds open now
        self.docs: dict[str, str] = {}  # checker path -> text

    def apply(self, backend: Backend, owner: object, buffers: dict[str, str]) -> None:
        """Make ``backend`` show ``owner``'s ``buffers`` (root-relative path -> text) and no
        other editor's. The caller holds the checker's lock; ``backend`` is running."""
        if self.owner is not owner:
            self.clear(backend)
            self.owner = owner
        wanted = {self.checker_path(rel): text for rel, text in buffers.items()}
        for path in [p for p in self.docs if p not in wanted]:
            backend.close(path)
            del self.docs[path]
        for path, text in wanted.items():
            held = self.docs.get(path)
            if held == text:
                continue
            if held is None and not backend.is_open(path):
                backend.open(path, text)
            else:
                backend.change(path, text)
            self.docs[path] = text

    def clear(self, backend: Backend | None) -> None:
        """Close every buffer the checker holds: it shows the disk again (a closed document is
        read from its tree). ``backend`` None or stopped: a new checker holds nothing."""
        if backend is not None and not backend.exited:
            for path in self.docs:
                backend.close(path)
        self.owner, self.docs = None, {}
