"""Which checkers judge a patch, and one verdict from theirs.

Each file goes by its suffix (and checker configuration files by name) to its language's
workspace; a patch across Python and TypeScript is judged by both, one after the other, and is
red if either finds a new error.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from prewrite.protocol import CheckReply
from prewrite_daemon.languages.python.language import PYTHON
from prewrite_daemon.languages.typescript.language import TYPESCRIPT
from prewrite_daemon.limits import Deadline

if TYPE_CHECKING:
    from collections.abc import Generator
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.entry import Entry
    from prewrite_daemon.ladder.runner import TypeCheck
    from prewrite_daemon.languages.base import Language

LANGUAGES: tuple[Language, ...] = (PYTHON, TYPESCRIPT)


def languages_for(root: Path, paths: list[str]) -> list[Language]:
    """The languages whose checkers judge a patch touching ``paths`` under ``root``.

    A language claims its sources and its checker configuration, where it applies to the root;
    TypeScript claims JSON files too (a source may import one under ``resolveJsonModule``).
    A patch no language claims (a README) goes to the root's own: TypeScript where the root
    has a tsconfig.json, else Python, as before there was a second language.
    """
    present = [lang for lang in LANGUAGES if lang.applies_to(root)]
    claimed = [
        lang for lang in present
        if any(lang.is_source(p) or lang.is_checker_config(p) for p in paths)
        or (lang is TYPESCRIPT and any(p.endswith(".json") for p in paths))
    ]  # fmt: skip
    if claimed:
        return claimed
    return [TYPESCRIPT] if TYPESCRIPT in present else [PYTHON]


def merge_replies(replies: list[tuple[str, CheckReply]]) -> CheckReply:
    """One verdict from each language's: red if any is red, everything each one found."""
    if len(replies) == 1:
        return replies[0][1]
    return CheckReply(
        ok=all(r.ok for _, r in replies),
        diagnostics=[d for _, r in replies for d in r.diagnostics],
        checked_files=sorted({f for _, r in replies for f in r.checked_files}),
        timings_ms={f"{name}.{k}": v for name, r in replies for k, v in r.timings_ms.items()},
        generation=sum(r.generation for _, r in replies),
        environment="+".join(r.environment for _, r in replies),
        verified=[line for _, r in replies for line in r.verified],
        not_verified=[line for _, r in replies for line in r.not_verified],
    )


@contextlib.contextmanager
def all_in_use(entries: list[Entry]) -> Generator[None]:
    with contextlib.ExitStack() as stack:
        for entry in entries:
            stack.enter_context(entry.in_use())
            stack.enter_context(entry.serving())
        yield


def typecheck_all(entries: list[Entry]) -> TypeCheck:
    """The type-check rung over every language the patch touches, one after the other."""
    if len(entries) == 1:
        return entries[0].typecheck

    async def each(patch: PreparedPatch, timeout_s: float) -> CheckReply:
        deadline = Deadline(timeout_s)
        replies = [
            (e.workspace.language.name, await e.typecheck(patch, deadline.left())) for e in entries
        ]
        return merge_replies(replies)

    return each
