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


def edited(root: Path, edits: tuple[Edit, ...]) -> dict[str, tuple[str | None, str | None]]:
    """Each file ``edits`` touch: (its text now, its text after them; None: no such file),
    computed without writing anything (the edits apply in order, each to what came before)."""
    texts: dict[str, str | None] = {}

    def current(rel: str) -> str | None:
        if rel in texts:
            return texts[rel]
        path = root / rel
        return path.read_text() if path.exists() else None

    before: dict[str, str | None] = {}
    for e in edits:
        old = current(e.path)
        before.setdefault(e.path, old)
        if e.copy_of is not None:
            copied = current(e.copy_of)
            assert copied is not None, f"{e.copy_of} does not exist"
            texts[e.path] = copied
        elif e.new is None:
            assert old is not None, f"{e.path} does not exist"
            texts[e.path] = None
        elif e.old is None or e.whole:
            texts[e.path] = e.new
        else:
            assert old is not None, f"{e.path} does not exist"
            assert e.old in old, f"{e.path}: {e.old!r} not found"
            texts[e.path] = old.replace(e.old, e.new, 1)
    return {rel: (text, texts[rel]) for rel, text in before.items()}


def apply(root: Path, edits: tuple[Edit, ...]) -> dict[str, str | None]:
    """Write ``edits``; returns each touched file's previous text (None: it did not exist)."""
    changed = edited(root, edits)
    for rel, (_, new) in changed.items():
        path = root / rel
        if new is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(new)
    return {rel: old for rel, (old, _) in changed.items()}


def restore(root: Path, before: dict[str, str | None]) -> None:
    for rel, text in before.items():
        path = root / rel
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(text)
