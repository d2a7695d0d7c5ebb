"""Run the ladder on one patch: policy, anchor, parse, format, lint, type check, review — in that
order.

Every rung works on the candidate strings, never on disk, and the first failure ends the ladder
with one actionable answer: policy and anchoring failures are typed errors (the patch cannot be
checked at all); parse, format, lint and type-check failures are verdicts naming the rung and
its findings (the reply: ``verdict.py``). The format rung is a mutation: the formatted text is
what later rungs check and what the answer returns as the files to write. The review rung (off
unless the workspace names a reviewer, ``review.py``) comes last, on the formatted patch, only
when everything before passed.

A patch that changes ruff's configuration is judged by ruff twice: under the configuration before
the patch (the workspace as it is) and under the patch's new one (a patched view of it, see
``ruff.py``). A finding the patch's code introduced under either is red and says under which it
was found, so a patch that relaxes the linter to hide its own finding is caught and told so —
unless the workspace on disk sets ``allow_relaxation``: then only the new configuration judges.

Once every rung before the reviewer has passed, the suppression comments the patch adds
(``# type: ignore``, ``# noqa``, ``// @ts-expect-error``, ...) are taken out and the rungs that
honour them run again (``suppression_rung.py``): the reply lists each with what it hides, and
``[tool.prewrite] suppressions = "refuse"`` makes one red. A red verdict lists them too, what
they hide not computed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prewrite.errors import PrewriteError
from prewrite.protocol import (
    CheckReply,
    CheckRequest,
    Diagnostic,
    FileChange,
    Outcome,
    RungReport,
    Suppression,
)
from prewrite.trust import is_trusted
from prewrite_daemon.check.patch import PreparedPatch, normalize_path, prepare_patch
from prewrite_daemon.ladder.config import RUNGS, no_tool_reason
from prewrite_daemon.ladder.node_rungs import node_rungs_for, node_step
from prewrite_daemon.ladder.parse import parse_patch
from prewrite_daemon.ladder.policy import as_given, check_content, check_path, named_as_given
from prewrite_daemon.ladder.protect import check_protected
from prewrite_daemon.ladder.review import finding, review_patch
from prewrite_daemon.ladder.ruff_rungs import format_files, judges_for, lint_files
from prewrite_daemon.ladder.suppression_mode import SUPPRESSIONS, suppression_mode
from prewrite_daemon.ladder.suppression_reruns import reruns_for
from prewrite_daemon.ladder.suppression_rung import judge, listed
from prewrite_daemon.ladder.verdict import verdict_reply
from prewrite_daemon.limits import Deadline

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.ladder.config import LadderConfig
    from prewrite_daemon.ladder.node_tools import NodeTools
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
    formatted: set[str] = field(default_factory=lambda: set[str]())  # the format rung changed
    verified: list[str] = field(default_factory=lambda: [])
    not_verified: list[str] = field(default_factory=lambda: [])
    # Whether the root may run its own code (the reviewer is its command); the user's list.
    trusted: Callable[[Path], bool] = is_trusted
    intent: str | None = None  # the caller's stated intent, for the reviewer
    node: NodeTools | None = None  # the workspace's prettier/eslint/biome for JS/TS files
    suppressions: list[Suppression] | None = None  # the patch adds, once judged

    def _report(self, rung: str, outcome: Outcome, started: float, detail: str = "") -> None:
        ms = round((time.perf_counter() - started) * 1000, 1)
        self.reports.append(RungReport(rung, outcome, ms, detail))

    def _skip_rest(self, after: str) -> None:
        after = "typecheck" if after == SUPPRESSIONS else after  # the step after the type check
        for rung in RUNGS[RUNGS.index(after) + 1 :]:
            if self.config.enabled(rung):
                self.reports.append(RungReport(rung, "skipped"))
                self.not_verified.append(f"{rung}: not run (skipped)")
            else:
                self._not_run(rung)

    def _not_run(self, rung: str, no_tool: str = "", said: bool = False) -> None:
        outcome, why = ("off", no_tool) if no_tool else self.config.why_not_run(rung)
        self.reports.append(RungReport(rung, outcome, detail=why))
        if not said and (rung != "review" or self.config.reviewer is not None):  # opt-in: no gap
            self.not_verified.append(f"{rung}: {why}")

    async def run(self, request: CheckRequest) -> CheckReply:
        deadline = Deadline(request.timeout_s)
        self.intent = request.intent
        rung, t = "policy", time.perf_counter()
        try:
            self.config = self.config.restricted(request.rungs)
            given = self._check_paths(request.changes)
            self._report("policy", "pass", t)
            rung, t = "anchor", time.perf_counter()
            # Reading, hashing and anchoring a base of up to 128 MiB: off the loop (hashlib and
            # file reads let the loop run meanwhile), so a big file never stalls other clients.
            patch = await asyncio.to_thread(prepare_patch, self.root, request.changes)
            # judge configs parsed (json5 up to 64 KiB each), protected snippets: off the loop
            await asyncio.to_thread(self._check_contents, patch, given)
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

    def _check_contents(self, patch: PreparedPatch, given: dict[str, str]) -> None:
        for edit in patch.edits:  # pyproject tables: needs the anchored text
            with named_as_given(given.get(edit.path, edit.path), edit.path):
                check_content(PreparedPatch(patch.root, (edit,)), self.config)
        check_protected(patch, self.config.protect)  # [tool.prewrite] protect

    def _check_paths(self, changes: list[FileChange]) -> dict[str, str]:
        """The policy on every path; returns each real path -> the path as the client gave it."""
        given: dict[str, str] = {}
        for change in changes:
            real = normalize_path(self.root, change.path)
            given.setdefault(real, as_given(change.path))
            with named_as_given(given[real], real):
                check_path(real, self.root, self.config, self.protected)
        return given

    async def _string_rungs(self, patch: PreparedPatch, deadline: Deadline) -> CheckReply:
        if not self.config.enabled("parse"):
            self._not_run("parse")
            return await self._after_parse(patch, deadline)
        t = time.perf_counter()
        errors, broken = await asyncio.to_thread(parse_patch, patch)  # as prepare_patch
        self.not_verified += [f"{p}: did not parse before the patch either" for p in broken]
        if errors:
            self._report("parse", "fail", t)
            return self._verdict("parse", errors, patch)
        self._report("parse", "pass", t)
        self.verified.append(f"parse: {sum(e.new_text is not None for e in patch.edits)} file(s)")
        return await self._after_parse(patch, deadline)

    async def _after_parse(self, patch: PreparedPatch, deadline: Deadline) -> CheckReply:
        patch, verdict = await self._ruff_rungs(patch, deadline)
        if verdict is not None:
            return verdict
        typed: CheckReply | None = None
        if not self.config.enabled("typecheck"):
            self._not_run("typecheck")
        else:
            t = time.perf_counter()
            typed = await self.typecheck(patch, deadline.left())
            self._report("typecheck", "pass" if typed.ok else "fail", t)
            self.verified.append(f"typecheck: {len(typed.checked_files)} file(s) compared")
            if not typed.ok:
                return self._verdict("typecheck", typed.diagnostics, patch, typed)
        refused = await self._suppressions(patch, deadline, typed)
        return refused or await self._review(patch, deadline, typed)

    async def _suppressions(
        self, patch: PreparedPatch, deadline: Deadline, typed: CheckReply | None
    ) -> CheckReply | None:
        """The suppressions the patch adds, and what they hide: the rungs that passed, again
        without them. A red verdict when the workspace refuses them."""
        t = time.perf_counter()
        js = self.config.enabled_for_js("lint") and self.trusted(self.root)
        reruns = reruns_for(
            patch, deadline, ruff=self.ruff if self.config.enabled("lint") else None,
            allow_relaxation=self.config.allow_relaxation, node=self.node if js else None,
            check=self.typecheck, typed=typed,
        )  # fmt: skip
        step = await judge(patch, reruns, suppression_mode(self.config), deadline)
        self.suppressions = step.suppressions
        self.not_verified += step.not_verified
        if not step.detail:
            return None
        self._report(SUPPRESSIONS, "fail" if step.refusal else "pass", t, step.detail)
        self.verified.append(f"suppressions: {step.detail}")
        if step.refusal:
            warnings = typed.diagnostics if typed else []
            return self._verdict(SUPPRESSIONS, [*step.refusal, *warnings], patch, typed)
        return None

    async def _review(
        self, patch: PreparedPatch, deadline: Deadline, typed: CheckReply | None
    ) -> CheckReply:
        """The reviewer rung, last: the workspace's own command, so only in a trusted root."""
        warnings = typed.diagnostics if typed else []
        reviewer = self.config.reviewer
        if reviewer is None or not self.config.enabled("review"):
            self._not_run("review")
            return self._verdict(None, warnings, patch, typed)
        if not self.trusted(self.root):
            why = "not run: the workspace is not trusted to run its own code (prewrite trust ROOT)"
            self.reports.append(RungReport("review", "skipped", detail=why))
            self.not_verified.append(f"review: {why}")
            return self._verdict(None, warnings, patch, typed)
        t = time.perf_counter()
        review = await review_patch(reviewer, self.root, patch, self.intent, deadline)
        self._report("review", review.outcome, t, review.detail)
        self.verified.extend(review.notes)
        if review.verdict is None:
            self.not_verified.append(f"review: {review.detail}")
        elif review.verdict.verdict == "refute":
            return self._verdict(
                "review", [finding(review.verdict, patch), *warnings], patch, typed
            )
        else:
            self.verified.append(f"review: approved by {' '.join(reviewer.command)}")
        return self._verdict(None, warnings, patch, typed)

    async def _ruff_rungs(
        self, patch: PreparedPatch, deadline: Deadline
    ) -> tuple[PreparedPatch, CheckReply | None]:
        """The format and lint rungs, under every ruff configuration that judges the patch."""
        on = [rung for rung in ("format", "lint") if self.config.enabled(rung)]
        wanted = [r for r in ("format", "lint") if self.config.enabled_for_js(r)]
        node_on, notes = node_rungs_for(self.node, wanted, self.trusted(self.root), patch)
        self.not_verified += notes
        python = any(e.is_python and e.new_text is not None for e in patch.edits)
        with judges_for(patch, self.config.allow_relaxation, bool(on)) as judges:
            for rung in ("format", "lint"):
                if rung not in node_on and (rung not in on or not (python or judges.changed)):
                    why = no_tool_reason(rung, bool(notes)) if rung in on else ""
                    self._not_run(rung, why, said=bool(why and notes))  # JS/TS: the notes say it
                    continue
                t = time.perf_counter()
                given = {e.path: e.new_text for e in patch.edits}
                findings: list[Diagnostic] = []
                if rung == "format" and rung in on:
                    patch, findings, note = await format_files(self.ruff, patch, deadline, judges)
                    self.verified.append(note)
                elif rung in on:
                    findings, note = await lint_files(self.ruff, patch, deadline, judges)
                    self.verified.append(note)
                if rung in node_on and not findings and self.node is not None:
                    patch, findings, (ok, gaps) = await node_step(self.node, rung, patch, deadline)
                    self.verified, self.not_verified = self.verified + ok, self.not_verified + gaps
                if rung == "format":
                    self.formatted = {e.path for e in patch.edits if e.new_text != given[e.path]}
                if findings:
                    self._report(rung, "fail", t, judges.detail(findings))
                    return patch, self._verdict(rung, findings, patch)
                self._report(rung, "pass", t, judges.detail([]))
        if judges.changed and "lint" in on:
            how = "both" if len(judges.views) == 2 else "the new one only (allow_relaxation)"
            self.verified.append(f"ruff configuration changed by the patch: judged under {how}")
            self.not_verified.append(
                "lint: files the patch does not touch were not re-linted under its new ruff "
                f"configuration ({', '.join(judges.changed)})"
            )
        return patch, None

    def _verdict(
        self,
        failed: str | None,
        diagnostics: list[Diagnostic],
        patch: PreparedPatch,
        typed: CheckReply | None = None,
    ) -> CheckReply:
        if failed is not None:
            self._skip_rest(failed)
        if self.suppressions is None:
            self.suppressions = listed(patch, failed) if failed is not None else []
        self.final = patch
        return verdict_reply(
            failed,
            diagnostics,
            patch,
            typed,
            reports=self.reports,
            formatted=self.formatted,
            verified=self.verified,
            not_verified=self.not_verified,
            suppressions=self.suppressions,
        )
