"""What the readers of a CLI checker's JSON report share (``ty_output``, ``pyrefly_output``): the
error for a report that cannot be read whole, the JSON itself, and its paths made root-relative.

A report is read whole or not at all: anything unexpected raises ``ReportError``, and the run
is a failure, never an answer (an empty or truncated report must not read as "no errors").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.backends.base import RawDiagnostic


class ReportError(Exception):
    """A checker's output that cannot be read whole: no answer."""


def load_report(text: str) -> Any:
    """The JSON document the checker printed; ``ReportError`` if it printed anything else."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportError(f"not JSON: {text[:500]}") from exc


def relative_path(path: str, tree: Path) -> str:
    """A reported path relative to the checked tree (its link-resolved form too); a path
    outside it stays as the checker printed it."""
    file = Path(path)
    if not file.is_absolute():
        return file.as_posix()
    for root in (tree, tree.resolve()):
        if file.is_relative_to(root):
            return file.relative_to(root).as_posix()
    return file.as_posix()


def by_path(
    items: list[Any], read: Callable[[dict[str, Any], Path], tuple[str, RawDiagnostic]], tree: Path
) -> dict[str, list[RawDiagnostic]]:
    """``items`` (the report's diagnostics) read one by one (``read``: its root-relative path and
    record, or ``ReportError``) and grouped by path; an item that is not an object is an error."""
    found: dict[str, list[RawDiagnostic]] = {}
    for item in items:
        if not isinstance(item, dict):
            raise ReportError(f"not a diagnostic: {item!r:.500}")
        rel, diagnostic = read(cast("dict[str, Any]", item), tree)
        found.setdefault(rel, []).append(diagnostic)
    return found
