"""The patches the name-dependency check applies: an ``Edit`` to one file, a ``Case`` (a named
patch on a base tree), and writing a patch into a tree and undoing it (``apply``, ``restore``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class Edit:
    """Replace the first ``old`` in ``path`` by ``new``; ``old`` None: a new file with ``new``
    (or a copy of the file ``copy_of``); ``new`` None: delete the file; ``whole``: ``new`` is the
    whole new text."""

    path: str
    old: str | None
    new: str | None
    whole: bool = False
    copy_of: str | None = None


@dataclass(frozen=True)
class Case:
    name: str
    edits: tuple[Edit, ...]
    base: str = "released"  # or "tempting"


def case(name: str, path: str, old: str, new: str, base: str = "released") -> Case:
    """A one-file patch replacing ``old`` by ``new``."""
    return Case(name, (Edit(path, old, new),), base)


def apply(root: Path, edits: tuple[Edit, ...]) -> dict[str, str | None]:
    """Write ``edits``; returns each touched file's previous text (None: it did not exist)."""
    before: dict[str, str | None] = {}
    for e in edits:
        path = root / e.path
        old = path.read_text() if path.exists() else None
        before.setdefault(e.path, old)
        if e.copy_of is not None:
            path.write_text((root / e.copy_of).read_text())
        elif e.new is None:
            path.unlink()
        elif e.old is None or e.whole:
            path.write_text(e.new)
        else:
            assert old is not None, f"{e.path} does not exist"
            assert e.old in old, f"{e.path}: {e.old!r} not found"
            path.write_text(old.replace(e.old, e.new, 1))
    return before


def restore(root: Path, before: dict[str, str | None]) -> None:
    for rel, text in before.items():
        path = root / rel
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(text)
