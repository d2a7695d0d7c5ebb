"""Shared by the ruff rung tests: the timeout, the workspace's ruff settings, texts with findings,
and building a tree and a patch of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite_daemon.check.patch import FileEdit, PreparedPatch

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from prewrite.protocol import Diagnostic
    from prewrite_daemon.ladder.ruff import Ruff


TIMEOUT_S = 30.0
PYPROJECT = """\
[tool.ruff]
line-length = 100
extend-exclude = ["generated"]

[tool.ruff.lint]
select = ["E", "F", "I"]
"""
UNUSED_AND_UNDEFINED = "import os\n\nprint(undefined_name)\n"
PRIME_TRIES = 8


async def prime_warm(ruff: Ruff) -> None:
    """Lint until ``ruff``'s warm server has answered once.

    A start is not trusted while a directory above the workspace changed as the server read its
    configurations (``ruff_trust``): the tick the test wrote its files in, or ``/tmp``, where the
    other xdist worker creates and deletes files all the time. Each refusal restarts the server,
    and a few tries find a quiet moment.
    """
    assert ruff.warm is not None
    for _ in range(PRIME_TRIES):
        await ruff.lint("pkg/prime.py", "", TIMEOUT_S)
        if ruff.warm.statistics().served:
            return
    raise AssertionError(f"never served in {PRIME_TRIES} tries: {ruff.warm.statistics()}")


def positions(found: list[Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    return [(d.rule, d.line, d.column, d.end_line, d.end_column) for d in found]


# --- a patch that changes ruff's configuration: detection and the patched view -------------


def edits(root: Path, changes: Mapping[str, str | None]) -> PreparedPatch:
    """The patch setting each path to a text (None: deleting it), based on the files on disk."""
    edits = [
        FileEdit(rel, (root / rel).read_text() if (root / rel).is_file() else None, text)
        for rel, text in changes.items()
    ]
    return PreparedPatch(root, tuple(edits))


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


LONG = "X = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\n"  # 44 columns
