"""Protected snippets: text the workspace says must survive every patch.

    [tool.prewrite]
    protect = [{path = "templates/*.html", text = "<script src=\\"/analytics.js\\"></script>"}]

A snippet present in a file matching ``path`` before the patch must still be present after it;
a patch that removes it, or deletes the file, is refused with ``protected_snippet`` before any
other check runs. The seed's case: the analytics loader through which the system measures its
own changes — an agent must never blind that measurement, not even by accident while
rewriting a layout. A file that did not hold the snippet before is not asked to (a new page
need not carry it), and a snippet anywhere in the file counts, wherever the patch moved it.

The rule itself cannot be patched away: a patch that touches ``[tool.prewrite]`` is refused
(``forbidden_path``) unless the table on disk sets ``allow_config_changes``, and the ladder is
always read from the disk, never from the patch. Line endings do not matter: a CRLF file holds
a snippet written with ``\\n``. The check reads the patch as anchored; the format rung, which
runs after it, only rewrites Python layout, so it is not re-checked there.

Globs follow the denylist's rule: a pattern with a ``/`` matches the path from the root, one
without matches any file's name; matching ignores case, so protection errs on the wide side.
"""

from __future__ import annotations

import fnmatch
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from prewrite.errors import ErrorDetail, ProtectedSnippet

if TYPE_CHECKING:
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.ladder.config_values import ProtectRule

_SHOWN = 60


def check_protected(patch: PreparedPatch, rules: tuple[ProtectRule, ...]) -> None:
    """Refuse ``patch`` if it removes a protected snippet from any file it changes."""
    lost: list[ErrorDetail] = []
    for edit in patch.edits:
        if edit.old_text is None or edit.old_text == edit.new_text:
            continue  # a new file had nothing to protect
        before = _lf(edit.old_text)
        after = None if edit.new_text is None else _lf(edit.new_text)
        for rule in rules:
            if not _matches(edit.path, rule.path):
                continue
            snippet = _lf(rule.text)
            if snippet not in before or (after is not None and snippet in after):
                continue
            how = "deletes the file" if after is None else "removes it"
            lost.append(
                ErrorDetail(
                    f"protected text {_shown(rule.text)} (protect path = {rule.path!r}) was in "
                    f"the file before the patch; the patch {how}",
                    edit.path,
                )
            )
    if lost:
        paths = ", ".join(dict.fromkeys(d.path or "" for d in lost))
        raise ProtectedSnippet(
            f"{paths}: the patch removes text that [tool.prewrite] protect requires to stay; "
            "keep it (the rule can only be changed by hand)",
            lost,
        )


def _matches(path: str, pattern: str) -> bool:
    rel, pattern = path.lower(), pattern.lower()
    if "/" in pattern:
        return fnmatch.fnmatchcase(rel, pattern.removeprefix("./"))
    return fnmatch.fnmatchcase(PurePosixPath(rel).name, pattern)


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")


def _shown(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= _SHOWN else flat[:_SHOWN] + "…")
