"""A *patched view*: a temporary tree that reads like the workspace with the patch written.

The directories the patch touches are real directories holding the candidate files and a link to
every other entry; the directories above the root are mirrored the same way. A tool that
discovers its configuration from a file's path (ruff's nested configs, ``extend``, relative
``exclude`` patterns, configs above the root; biome, which lints only files) then resolves exactly
what it would in the patched tree, and the user's repository is never written.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed
from prewrite_daemon.ladder.ruff import RUFF_CONFIG_FILES

if TYPE_CHECKING:
    from collections.abc import Generator

    from prewrite_daemon.check.patch import PreparedPatch


def _mirror_entries(real: Path, view: Path, skip: set[str]) -> None:
    """Link every entry of ``real`` into ``view`` but ``skip``; links are copied as links."""
    try:
        names = os.listdir(real)
    except (FileNotFoundError, NotADirectoryError):
        return  # a directory the patch creates
    except PermissionError:  # searchable, not listable: what ruff's discovery may still open
        names = [n for n in (*RUFF_CONFIG_FILES, "pyproject.toml") if (real / n).exists()]
    for name in names:
        if name in skip:
            continue
        source = real / name
        target = os.readlink(source) if source.is_symlink() else str(source)
        os.symlink(target, view / name)


@contextmanager
def patched_view(patch: PreparedPatch) -> Generator[Path]:
    """A temporary tree that reads like ``patch.root`` with the patch written (see above).

    Yields the view's root, at the same path below a temporary directory as the workspace is
    below ``/``, so relative paths that leave the root (``extend = "../base.toml"``) and configs
    above it resolve as they would. Only the temporary directory is ever written.
    """
    with tempfile.TemporaryDirectory(prefix="prewrite-view-") as tmp:
        try:
            view = _build_view(patch, Path(tmp))
        except OSError as exc:
            raise BackendFailed(f"cannot build the patched view for ruff: {exc}") from exc
        yield view


def _build_view(patch: PreparedPatch, base: Path) -> Path:
    root = patch.root
    # The directories above the root: mirrored, each minus the next one down the path.
    for depth in range(len(root.parts) - 1):
        here = base.joinpath(*root.parts[1 : depth + 1])
        here.mkdir(exist_ok=True)
        _mirror_entries(Path(*root.parts[: depth + 1]), here, {root.parts[depth + 1]})
    view = base.joinpath(*root.parts[1:])
    # The directories on the patch's paths are real; each file of the patch is its candidate.
    dirs = {PurePosixPath()} | {p for e in patch.edits for p in PurePosixPath(e.path).parents}
    for rel in sorted(dirs, key=lambda p: len(p.parts)):
        (view / rel).mkdir()
        children = {c.name for c in dirs if c.parent == rel and c != rel}
        children |= {PurePosixPath(e.path).name for e in patch.edits
                     if PurePosixPath(e.path).parent == rel}  # fmt: skip
        _mirror_entries(root / rel, view / rel, children)
    for edit in patch.edits:
        if edit.new_text is not None:  # "x": never through a link, never over a file
            with open(view / edit.path, "x", encoding="utf-8", newline="") as out:
                out.write(edit.new_text)
    return view
