"""The reply a ladder run ends with (``runner``): the verdict, the candidate files as they would
be written (each marked when the format rung changed it), every rung's report and timing with
the type check's own, and the receipt — the ladder's ``verified`` / ``not_verified`` lines, then
the type check's, each once.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from prewrite.protocol import CandidateFile, CheckReply

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic, RungReport, Suppression
    from prewrite_daemon.check.patch import FileEdit, PreparedPatch


def verdict_reply(
    failed: str | None,
    diagnostics: list[Diagnostic],
    patch: PreparedPatch,
    typed: CheckReply | None,
    *,
    reports: list[RungReport],
    formatted: set[str],
    verified: list[str],
    not_verified: list[str],
    suppressions: list[Suppression],
) -> CheckReply:
    """The reply to a run that ``failed`` at that rung (None: passed), with the ``diagnostics``
    of the verdict, on the ``patch`` as it would be written; ``typed``: the type check's reply,
    if it ran."""
    files = [_candidate(e, e.path in formatted) for e in patch.edits]
    timings = {f"{r.rung}_ms": r.ms for r in reports if r.outcome in ("pass", "fail")}
    if typed is not None:
        timings.update({f"typecheck.{k}": v for k, v in typed.timings_ms.items()})
    return CheckReply(
        ok=failed is None,
        diagnostics=diagnostics,
        checked_files=typed.checked_files if typed else [],
        timings_ms=timings,
        generation=typed.generation if typed else 0,
        environment=typed.environment if typed else "",
        failed_rung=failed,
        rungs=list(reports),
        files=files,
        verified=_merged(verified, typed.verified if typed else []),
        not_verified=_merged(not_verified, typed.not_verified if typed else []),
        suppressions=suppressions,
    )


def _merged(ours: list[str], theirs: list[str]) -> list[str]:
    """The ladder's receipt lines, then the type check's own; each once, in order."""
    return list(dict.fromkeys([*ours, *theirs]))


def _candidate(edit: FileEdit, formatted: bool) -> CandidateFile:
    if edit.new_text is None:
        return CandidateFile(edit.path, None)
    digest = hashlib.sha256(edit.new_text.encode()).hexdigest()
    return CandidateFile(edit.path, digest, edit.new_text, formatted=formatted)
