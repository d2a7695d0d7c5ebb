"""Editor paths and shadow paths: every URI and path is mapped, both ways, in whole messages.

The checker runs on the daemon's shadow of the workspace; the editor must never see a shadow
path, and the checker must never be asked about a real one. A message is mapped as JSON: every
string that is a ``file://`` URI or an absolute path under one root is rewritten to the other
root, wherever it sits (``textDocument.uri``, ``Location``s, ``WorkspaceEdit`` keys and
``documentChanges``, related information, paths quoted inside messages). A spare checker runs
on the real root, so its lane maps nothing (``path_map``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.editor.spare import Lane
    from prewrite_daemon.workspace import Workspace


@dataclass(frozen=True)
class PathMap:
    real: Path  # the workspace root as the editor knows it
    shadow: Path  # the checker's copy of it

    def to_shadow(self, value: Any) -> Any:
        return _mapped(value, _prefixes(self.real), _prefixes(self.shadow))

    def to_real(self, value: Any) -> Any:
        return _mapped(value, _prefixes(self.shadow), _prefixes(self.real))


def _prefixes(root: Path) -> tuple[str, str]:
    return root.as_uri(), str(root)


def _swap(text: str, old: tuple[str, str], new: tuple[str, str]) -> str:
    for a, b in zip(old, new, strict=True):
        if a in text:
            text = _replace_rooted(text, a, b)
    return text


def _replace_rooted(text: str, old: str, new: str) -> str:
    """Replace ``old`` only where it is the whole root (followed by "/", a quote, or the end)."""
    out: list[str] = []
    start = 0
    while (at := text.find(old, start)) >= 0:
        end = at + len(old)
        follows = text[end : end + 1]
        if follows in ("", "/", '"', "'", " ", "\n", ")", ":"):
            out.append(text[start:at] + new)
        else:
            out.append(text[start:end])
        start = end
    out.append(text[start:])
    return "".join(out)


def _mapped(value: Any, old: tuple[str, str], new: tuple[str, str]) -> Any:
    if isinstance(value, str):
        return _swap(value, old, new)
    if isinstance(value, list):
        return [_mapped(v, old, new) for v in cast("list[Any]", value)]
    if isinstance(value, dict):
        items = cast("dict[Any, Any]", value).items()
        return {
            (_swap(k, old, new) if isinstance(k, str) else k): _mapped(v, old, new)
            for k, v in items
        }
    return value


def path_map(ws: Workspace, lane: Lane) -> PathMap:
    """The spare runs on the real root (nothing to map); the warm checker on the shadow."""
    return PathMap(ws.root, ws.root if lane.spare else ws.shadow.shadow_root)


def relative_path(root: Path, path: str) -> str | None:
    """``path`` relative to ``root``, or None when it lies outside."""
    prefix = f"{root}/"
    return path[len(prefix) :] if path.startswith(prefix) else None
