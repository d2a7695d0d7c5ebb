"""A patch that changes the checker's settings is judged under the settings before it and after.

Otherwise a patch could relax the checker (``ignore = ["**"]``, a lower ``typeCheckingMode``)
and hide its own error: seed 000's rule is that the agent never blinds its own measurement. The
patch's code is checked by the warm checker under the settings on disk (the configuration edits
left out) and by a cold run under the candidate settings; an error under either is red. The
diagnostics found only under the settings before say so. A workspace that means to let patches
relax its checker says ``allow_relaxation = true`` in ``[tool.prewrite]`` on disk: then only the
candidate settings judge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.check.diagnostics import has_error
from prewrite_daemon.check.patch import PreparedPatch
from prewrite_daemon.ladder.config import load_config

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from prewrite_daemon.languages.base import Language

BEFORE_NOTE = " (under the checker settings before this patch; the patch's settings hide it)"


def _mark(d: Diagnostic) -> Diagnostic:
    return msgspec.structs.replace(d, message=d.message + BEFORE_NOTE)


async def judge_both(
    root: Path,
    language: Language,
    patch: PreparedPatch,
    before: Callable[[PreparedPatch], Awaitable[CheckReply]],
    after: Callable[[], Awaitable[CheckReply]],
) -> CheckReply:
    """Combine the verdict under the settings on disk (``before``) and the patch's (``after``)."""
    relaxed_ok = load_config(root).allow_relaxation
    cold = await after()
    note = "typecheck: the patch changes the checker's settings; judged under the new settings"
    if relaxed_ok:
        return _with_note(cold, note + " only (allow_relaxation)")
    rest = PreparedPatch(
        patch.root, tuple(e for e in patch.edits if not language.is_checker_config(e.path))
    )
    if not any(language.is_source(e.path) for e in rest.edits):
        return _with_note(cold, note + " (no code changed to judge under the old ones)")
    warm = await before(rest)
    seen = {(d.path, d.line, d.column, d.rule, d.message) for d in cold.diagnostics}
    hidden = [
        _mark(d) for d in warm.diagnostics
        if (d.path, d.line, d.column, d.rule, d.message) not in seen
    ]  # fmt: skip
    diagnostics = [*cold.diagnostics, *hidden]
    checked = sorted(set(cold.checked_files) | set(warm.checked_files))
    return CheckReply(
        ok=not has_error(diagnostics),
        diagnostics=diagnostics,
        checked_files=checked,
        timings_ms={**{f"before.{k}": v for k, v in warm.timings_ms.items()}, **cold.timings_ms},
        verified=[note + " and under the settings before it"],
        not_verified=[*warm.not_verified, *cold.not_verified],
    )


def _with_note(reply: CheckReply, verified: str) -> CheckReply:
    return msgspec.structs.replace(reply, verified=[*reply.verified, verified])
