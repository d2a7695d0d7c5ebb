"""Provable-only checks for the formats beyond Python, TOML and JSON: one table, suffix -> check.

A check answers the first *certain* breakage of a file — text no reader of its format takes as
written — as a diagnostic naming the line, or None: never a style opinion, never a guess. The
parse rung (``parse.py``) runs it on the candidate and, only when that fails, on the base too,
so a patch is refused only for breakage it brought; a file already broken stays editable, with
what was wrong named in the receipt.

Each module holds one format and its reasons; this table is all the parse rung knows of them.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING, TypeAlias

from prewrite_daemon.ladder.formats import css, html, javascript, liquid, markdown, yaml

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite.protocol import Diagnostic

Check: TypeAlias = "Callable[[str, str], Diagnostic | None]"

BY_SUFFIX: dict[str, Check] = {
    ".yaml": yaml.check,
    ".yml": yaml.check,
    ".md": markdown.check,
    ".markdown": markdown.check,
    ".css": css.check,
    ".html": html.check,
    ".htm": html.check,
    ".liquid": liquid.check,
    **dict.fromkeys(javascript.SUFFIXES, javascript.check),
}
# YAML files known by name (verifiable where [tool.prewrite] allow_extensions lists the name).
BY_NAME: dict[str, Check] = {
    ".clang-format": yaml.check,
    ".clang-tidy": yaml.check,
}


def check_for(path: str) -> Check | None:
    """The check for ``path`` by its name, else its suffix; None: no format check applies."""
    name = PurePosixPath(path.lower()).name
    return BY_NAME.get(name) or BY_SUFFIX.get(PurePosixPath(name).suffix)
