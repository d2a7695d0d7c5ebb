"""One verdict from the checkers that judge a patch.

Which languages judge it is the languages' call (``languages.registry.languages_for``); a patch
across Python and TypeScript is judged by both, one after the other, and is red if either finds
a new error.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import msgspec

from prewrite.protocol import CheckReply
from prewrite_daemon.languages.checkers import KNOWN, choose
from prewrite_daemon.limits import Deadline

if TYPE_CHECKING:
    from collections.abc import Generator

    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.entry import Entry
    from prewrite_daemon.ladder.runner import TypeCheck


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


def receipt(entry: Entry) -> str:
    """Which checker judged, its version and origin, and what chose it (``languages.checkers``)."""
    ws = entry.workspace
    name = "pyright" if ws.language.name == "python" else ws.language.name
    why = [c for c in choose(ws.root) if c.name == name] if name in KNOWN else []
    chosen = "; ".join(c.chosen_by for c in why)
    return f"typecheck: judged by {ws.env.checker}" + (f", chosen by {chosen}" if chosen else "")


def typecheck_all(entries: list[Entry]) -> TypeCheck:
    """The type-check rung over every language the patch touches, one after the other; each
    reply names the checker that judged it."""

    async def each(patch: PreparedPatch, timeout_s: float) -> CheckReply:
        deadline = Deadline(timeout_s)
        replies: list[tuple[str, CheckReply]] = []
        for e in entries:
            reply = await e.typecheck(patch, deadline.left())
            named = [receipt(e), *reply.verified]
            replies.append(
                (e.workspace.language.name, msgspec.structs.replace(reply, verified=named))
            )
        return merge_replies(replies)

    return each
