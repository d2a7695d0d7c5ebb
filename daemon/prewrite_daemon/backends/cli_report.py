"""What the readers of a CLI checker's JSON report share (``ty_output``, ``pyrefly_output``): the
error for a report that cannot be read whole, the JSON itself, and its paths made root-relative.

A report is read whole or not at all: anything unexpected raises ``ReportError``, and the run
is a failure, never an answer (an empty or truncated report must not read as "no errors").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


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
