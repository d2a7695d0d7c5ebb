"""What the suppressions a patch adds hide: each rung that honours them, run again without them.

A ``# type: ignore`` on the patch's own type error, a ``# noqa`` on its own lint finding, a
``// @ts-expect-error`` over its own TypeScript error: each leaves the verdict green while the
error is still there. So once every rung has passed, the directives the patch adds
(``suppressions.added_in``) are taken out of its files (``suppressions.strip``) and each rung
that honours them runs again on that text — the lint rung's ruff for ``noqa``, the workspace's
eslint/biome for theirs, the type check (pyright, TypeScript) for ``type: ignore``,
``pyright: ignore``, ``# pyright:`` relaxations and ``@ts-*`` — under the same judges as before
(ruff's configuration before and after a patch that changes it; the type check's own
before/after when the checker's settings change, ``check/config_change.py``). What a run introduces
without the directives and did not introduce with them is what they hide, each finding given to
the directive that covers it (its line, its next code line, its file); a finding no directive
covers (an artefact of the stripped text, or an effect beyond a directive's reach) is only
counted, in the step's detail. A patch that adds none pays for the lexer only (none at all for a
file without a directive's mark): nothing runs again.

Directives no rung here honours are still listed, with why what they hide is not known (mypy's:
prewrite does not run mypy; a rung that is off, or a file no linter or checker judged). A run
that fails or outlives its share of the deadline leaves what it hides unknown, said so; it
never turns a verdict red. With ``suppressions = "refuse"`` (``suppression_mode``) every listed
directive is a finding of the ``suppressions`` step, and what it hides is listed with it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import CheckTimeout, PrewriteError
from prewrite.protocol import Diagnostic, Suppression
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.suppression_mode import SUPPRESSIONS
from prewrite_daemon.ladder.suppressions import Added, added_in, strip

if TYPE_CHECKING:
    from prewrite_daemon.ladder.suppression_mode import SuppressionMode
    from prewrite_daemon.ladder.suppression_reruns import Rerun
    from prewrite_daemon.limits import Deadline

SHARE = 0.9  # of the time left that the runs again may take: the rest answers
TOOL_RUNG = {"pyright": "typecheck", "typescript": "typecheck", "ruff": "lint",
             "eslint": "lint", "biome": "lint"}  # fmt: skip


@dataclass(frozen=True)
class Judged:
    """The step's answer: the suppressions for the reply, the refusal's findings (empty:
    green stays green), receipt lines, and the detail of its rung report ("" when nothing ran)."""

    suppressions: list[Suppression]
    refusal: list[Diagnostic]
    not_verified: list[str]
    detail: str = ""


def find_added(patch: PreparedPatch) -> tuple[list[Added], list[str]]:
    """Every directive the patch adds, and a receipt line per file not wholly read."""
    added: list[Added] = []
    notes: list[str] = []
    for edit in patch.edits:
        found = added_in(edit)
        added += found.added
        if found.unreadable is not None:
            notes.append(f"suppressions: {edit.path} was read up to an error ({found.unreadable})")
    return added, notes


def listed(patch: PreparedPatch, failed_rung: str) -> list[Suppression]:
    """A red verdict's suppressions: listed, what they hide not computed."""
    note = f"what it hides was not computed: the check stopped at the {failed_rung} rung"
    added, _notes = find_added(patch)
    return [_suppression(a, [], False, note) for a in added if not a.carried]


async def judge(
    patch: PreparedPatch, reruns: list[Rerun], mode: SuppressionMode, deadline: Deadline
) -> Judged:
    """Run each rung of ``reruns`` again without the directives the patch adds (within
    ``SHARE`` of what ``deadline`` leaves) and give each directive what it hides."""
    added, notes = find_added(patch)
    if not added:
        return Judged([], [], notes)
    jobs = [(r, mine) for r in reruns if (mine := [a for a in added if _honours(r, a)])]
    results = await _run_all(patch, jobs, deadline) if jobs else []
    hidden: dict[Added, list[Diagnostic]] = {}
    judged: dict[Added, str] = {}  # "": judged; else why what it hides is not known
    strays = 0
    for (rerun, mine), result in zip(jobs, results, strict=True):
        for a in mine:
            judged.setdefault(a, "" if isinstance(result, list) else f"{rerun.rung}: {result}")
        if isinstance(result, list):
            for d in result:
                owner = _owner(d, mine)
                if owner is None:
                    strays += 1
                else:
                    hidden.setdefault(owner, []).append(d)
    out: list[Suppression] = []
    for a in added:
        found = hidden.get(a, [])
        if a.carried and not found:
            continue  # the base's directive on a rewritten line, hiding nothing new
        why = judged.get(a)
        if why is None:
            note = _unjudged(a)
        else:
            note = f"what it hides is not known: {why}" if why else ""
        out.append(_suppression(a, found, why == "", note))
    ran = sorted({r.rung for r, _ in jobs})
    detail = _detail(out, ran, strays)
    refusal = _refusal(out) if mode == "refuse" else []
    return Judged(out, refusal, notes, detail if out or ran else "")


async def _run_all(
    patch: PreparedPatch, jobs: list[tuple[Rerun, list[Added]]], deadline: Deadline
) -> list[list[Diagnostic] | str]:
    """Every job's answer, or why there is none; never beyond the share of the deadline (the
    verdict is already known: running out of time here must not turn it into a timeout)."""
    try:
        budget_s = deadline.left() * SHARE
    except CheckTimeout:
        return ["no time was left in the request's timeout"] * len(jobs)
    try:
        async with asyncio.timeout(budget_s):
            return list(await asyncio.gather(*(_hidden(patch, r, mine) for r, mine in jobs)))
    except TimeoutError:
        return [f"no answer within {budget_s:.1f}s"] * len(jobs)


def _honours(rerun: Rerun, added: Added) -> bool:
    return added.site.tool in rerun.tools and rerun.judged(added.path, added.site.tool)


async def _hidden(patch: PreparedPatch, rerun: Rerun, mine: list[Added]) -> list[Diagnostic] | str:
    """What ``rerun`` introduces without ``mine`` and not with them; or why it cannot say."""
    stripped: dict[str, FileEdit] = {}
    for edit in patch.edits:
        sites = [a.site for a in mine if a.path == edit.path]
        if sites and edit.new_text is not None:
            stripped[edit.path] = FileEdit(edit.path, edit.old_text, strip(edit.new_text, sites))
    if rerun.whole:
        edits = tuple(stripped.get(e.path, e) for e in patch.edits)
    else:
        edits = tuple(stripped.values())
    try:
        found = await rerun.run(PreparedPatch(patch.root, edits))
    except PrewriteError as exc:
        return f"{exc.code}: {exc.message}"
    before = Counter(_identity(d) for d in rerun.before)
    new: list[Diagnostic] = []
    for d in found:
        if before[_identity(d)] > 0:
            before[_identity(d)] -= 1
        else:
            new.append(d)
    return new


def _identity(d: Diagnostic) -> tuple[object, ...]:
    return (d.path, d.line, d.column, d.end_line, d.end_column, d.severity, d.rule, d.message)


def _owner(d: Diagnostic, mine: list[Added]) -> Added | None:
    """The directive that covers ``d``: one on a line of its range first, else its file's."""
    here = [a for a in mine if a.path == d.path]
    for a in here:
        if a.site.scope != "file" and d.line <= a.site.target <= max(d.line, d.end_line):
            return a
    return next((a for a in here if a.site.scope == "file"), None)


def _unjudged(added: Added) -> str:
    tool = added.site.tool
    if tool == "mypy":
        return "mypy's: prewrite does not run mypy, so what it hides is not known"
    rung = TOOL_RUNG.get(tool, "lint")
    return f"what it hides is not known: no {tool} run of the {rung} rung judged {added.path}"


def _suppression(a: Added, hidden: list[Diagnostic], judged: bool, note: str) -> Suppression:
    s = a.site
    return Suppression(a.path, s.line, s.kind, s.text, s.column, s.scope, s.tool, hidden,
                       judged, note)  # fmt: skip


def _detail(out: list[Suppression], ran: list[str], strays: int) -> str:
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(Counter(s.kind for s in out).items()))
    hiding = sum(bool(s.hidden) for s in out)
    text = f"{len(out)} added ({kinds or 'none'}), {hiding} hiding what the patch introduces"
    if ran:
        text += f"; run again without them: {', '.join(ran)}"
    if strays:
        text += f"; {strays} finding(s) of those runs on no suppressed line, not counted"
    return text


def _refusal(out: list[Suppression]) -> list[Diagnostic]:
    """``suppressions = "refuse"``: each directive a finding, then what it hides."""
    found: list[Diagnostic] = []
    for s in out:
        hides = f"; it hides {len(s.hidden)} diagnostic(s), listed" if s.hidden else ""
        message = (
            f'this patch adds `{s.text}`; [tool.prewrite] suppressions = "refuse": remove it '
            f"and fix what it silences{hides}"
        )
        end = s.column + len(s.text.split("\n", 1)[0])
        found.append(Diagnostic(s.path, s.line, s.column, s.line, end, "error", SUPPRESSIONS,
                                message, "prewrite"))  # fmt: skip
    seen: set[tuple[object, ...]] = set()
    for s in out:
        for d in s.hidden:
            if _identity(d) not in seen:
                seen.add(_identity(d))
                found.append(d)
    return found
