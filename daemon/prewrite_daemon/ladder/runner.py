"""Run the ladder on one patch: policy, anchor, parse, format, lint, type check — in that order.

Every rung works on the candidate strings, never on disk, and the first failure ends the ladder
with one actionable answer: policy and anchoring failures are typed errors (the patch cannot be
checked at all); parse, format, lint and type-check failures are verdicts naming the rung and
its findings. The format rung is a mutation: the formatted text is what later rungs check and
what the answer returns as the files to write.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite.errors import PrewriteError
from prewrite.protocol import (
    CandidateFile,
    CheckReply,
    CheckRequest,
    Diagnostic,
    Outcome,
    RungReport,
)
from prewrite_daemon.checker import Deadline
from prewrite_daemon.diagnostics import introduced
from prewrite_daemon.ladder.parse import parse_patch
from prewrite_daemon.ladder.policy import check_content, check_path
from prewrite_daemon.patch import FileEdit, PreparedPatch, normalize_path, prepare_patch

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.ladder.config import LadderConfig
    from prewrite_daemon.ladder.record import VerdictRecord
    from prewrite_daemon.ladder.ruff import Ruff

log = logging.getLogger(__name__)

TypeCheck = Callable[[PreparedPatch, float], Awaitable[CheckReply]]


@dataclass
class Ladder:
    """One run: the rung reports so far, and how the run ends."""

    root: Path
    config: LadderConfig
    ruff: Ruff
    typecheck: TypeCheck
    protected: tuple[Path, ...]
    reports: list[RungReport] = field(default_factory=lambda: [])
    final: PreparedPatch | None = None  # the patch as it would be written (formatted)
    verified: list[str] = field(default_factory=lambda: [])
    not_verified: list[str] = field(default_factory=lambda: [])

    def _report(self, rung: str, outcome: Outcome, started: float, detail: str = "") -> None:
        ms = round((time.perf_counter() - started) * 1000, 1)
        self.reports.append(RungReport(rung, outcome, ms, detail))

    def _skip_rest(self, after: str) -> None:
        order = ["policy", "anchor", "parse", "format", "lint", "typecheck"]
        for rung in order[order.index(after) + 1 :]:
            outcome: Outcome = "skipped" if self.config.enabled(rung) else "off"
            self.reports.append(RungReport(rung, outcome))
            self.not_verified.append(f"{rung}: not run ({outcome})")

    async def run(self, request: CheckRequest) -> CheckReply:
        deadline = Deadline(request.timeout_s)
        rung, t = "policy", time.perf_counter()
        try:
            for change in request.changes:
                check_path(normalize_path(self.root, change.path), self.root, self.config,
                           self.protected)  # fmt: skip
            self._report("policy", "pass", t)
            rung, t = "anchor", time.perf_counter()
            patch = prepare_patch(self.root, request.changes)
            check_content(patch, self.config)  # pyproject tables: needs the anchored text
            anchored = sum(len(c.edits or []) for c in request.changes)
            self._report("anchor", "pass", t, f"{anchored} edit(s) anchored")
            self.verified.append(
                f"policy: {len(request.changes)} path(s) allowed ({self.config.source})"
            )
        except PrewriteError:
            self._report(rung, "fail", t)
            self._skip_rest(rung)
            raise
        return await self._string_rungs(patch, deadline)

    async def _string_rungs(self, patch: PreparedPatch, deadline: Deadline) -> CheckReply:
        t = time.perf_counter()
        errors, broken = parse_patch(patch)
        self.not_verified += [f"{p}: did not parse before the patch either" for p in broken]
        if errors:
            self._report("parse", "fail", t)
            return self._verdict("parse", errors, patch)
        self._report("parse", "pass", t)
        self.verified.append(f"parse: {sum(e.new_text is not None for e in patch.edits)} file(s)")
        for rung, step in (("format", self._format), ("lint", self._lint)):
            if not self.config.enabled(rung):
                self.reports.append(RungReport(rung, "off"))
                self.not_verified.append(f"{rung}: off")
                continue
            t = time.perf_counter()
            patch, findings = await step(patch, deadline)
            if findings:
                self._report(rung, "fail", t)
                return self._verdict(rung, findings, patch)
            self._report(rung, "pass", t)
        if not self.config.enabled("typecheck"):
            self.reports.append(RungReport("typecheck", "off"))
            self.not_verified.append("typecheck: off")
            return self._verdict(None, [], patch)
        t = time.perf_counter()
        reply = await self.typecheck(patch, deadline.left())
        self._report("typecheck", "pass" if reply.ok else "fail", t)
        self.verified.append(f"typecheck: {len(reply.checked_files)} file(s) compared")
        return self._verdict(None if reply.ok else "typecheck", reply.diagnostics, patch, reply)

    async def _format(
        self, patch: PreparedPatch, deadline: Deadline
    ) -> tuple[PreparedPatch, list[Diagnostic]]:
        targets = [e for e in patch.edits if e.is_python and e.new_text is not None]
        results = await asyncio.gather(
            *(self.ruff.format(e.path, e.new_text or "", deadline.left()) for e in targets)
        )
        formatted = {e.path: text for e, (text, _err) in zip(targets, results, strict=True)}
        failures = [
            Diagnostic(e.path, 1, 1, 1, 1, "error", "format", err, "ruff")
            for e, (text, err) in zip(targets, results, strict=True)
            if text is None
        ]
        edits = tuple(
            FileEdit(e.path, e.old_text, formatted.get(e.path) or e.new_text) for e in patch.edits
        )
        changed = sum(formatted.get(e.path) not in (None, e.new_text) for e in targets)
        self.verified.append(f"format: ruff format on {len(targets)} file(s), {changed} changed")
        return PreparedPatch(patch.root, edits), failures

    async def _lint(
        self, patch: PreparedPatch, deadline: Deadline
    ) -> tuple[PreparedPatch, list[Diagnostic]]:
        targets = [e for e in patch.edits if e.is_python and e.new_text is not None]

        async def new_findings(e: FileEdit) -> list[Diagnostic]:
            candidate = self.ruff.lint(e.path, e.new_text or "", deadline.left())
            if e.old_text is None:
                return await candidate
            base = self.ruff.lint_base(e.path, e.old_text, deadline.left())
            before, after = await asyncio.gather(base, candidate)
            return introduced(before, after, e.old_text, e.new_text)

        found = await asyncio.gather(*(new_findings(e) for e in targets))
        self.verified.append(f"lint: ruff check on {len(targets)} file(s)")
        return patch, [d for group in found for d in group]

    def _verdict(
        self,
        failed: str | None,
        diagnostics: list[Diagnostic],
        patch: PreparedPatch,
        typed: CheckReply | None = None,
    ) -> CheckReply:
        if failed is not None and failed != "typecheck":
            self._skip_rest(failed)
        self.final = patch
        files = [_candidate(e) for e in patch.edits]
        timings = {f"{r.rung}_ms": r.ms for r in self.reports if r.outcome in ("pass", "fail")}
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
            rungs=list(self.reports),
            files=files,
            verified=self.verified,
            not_verified=self.not_verified,
        )


def _candidate(edit: FileEdit) -> CandidateFile:
    if edit.new_text is None:
        return CandidateFile(edit.path, None)
    digest = hashlib.sha256(edit.new_text.encode()).hexdigest()
    return CandidateFile(edit.path, digest, edit.new_text)


def record_verdict(
    record: VerdictRecord, root: Path, reply: CheckReply | None, error: PrewriteError | None,
    reports: list[RungReport], files: list[str], total_ms: float,
) -> None:  # fmt: skip
    """Append a verdict (or a refusal) to the record and log which rung caught it."""
    if reply is not None:
        outcome = "ok" if reply.ok else f"failed:{reply.failed_rung}"
        failed = reply.failed_rung
    else:
        assert error is not None
        outcome = error.code
        failed = next((r.rung for r in reports if r.outcome == "fail"), None)
    if outcome != "ok":
        log.info("%s: %s caught by %s", root, outcome, failed or "-")
    record.add(str(root), outcome, failed, total_ms, files, reports)
