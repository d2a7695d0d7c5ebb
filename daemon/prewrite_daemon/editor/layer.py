"""An editor's unsaved buffers as a layer on the warm checker, applied under the workspace lock.

The checker holds at most one editor's buffers at a time (``Workspace.editor_owner``): applying
one editor's layer first closes another's, and an agent's check clears the layer before it
starts (``Workspace.clear_editor_layer``). So an editor's request sees the disk plus its own
buffers, an agent's check sees the disk plus its own patch, and neither sees the other's text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.workspace import Workspace


def apply_layer(ws: Workspace, backend: Backend, owner: object, buffers: dict[str, str]) -> None:
    """Make the checker show ``owner``'s ``buffers`` (root-relative path -> text) and no
    other editor's. Must run under ``ws.lock`` with ``backend`` the running checker."""
    if ws.editor_owner is not owner:
        ws.clear_editor_layer()
        ws.editor_owner = owner
    wanted = {ws.shadow.shadow_path(rel): text for rel, text in buffers.items()}
    for path in [p for p in ws.editor_docs if p not in wanted]:
        backend.close(path)
        del ws.editor_docs[path]
    for path, text in wanted.items():
        held = ws.editor_docs.get(path)
        if held == text:
            continue
        if held is None and not backend.is_open(path):
            backend.open(path, text)
        else:
            backend.change(path, text)
        ws.editor_docs[path] = text
