"""The format and lint rungs over a patch: every ruff configuration that judges it, and what
each found. ``ruff.py`` runs ruff on one text; this module decides which texts, under which
configurations (the workspace's, and the patch's new one when it changes ruff's settings), and
what counts as a finding (new findings only; a file ruff cannot format). ``judges_for`` makes
the judges of a patch, for the rungs and for ``suppression_rung``'s run without its ``noqa``.
"""

from __future__ import annotations

import asyncio
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from prewrite.protocol import Diagnostic
from prewrite_daemon.check.diagnostics import introduced
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.patched_view import patched_view
from prewrite_daemon.ladder.ruff import BREAKAGE_RULES, CONFIG_REJECTED, linter_config_changes

if TYPE_CHECKING:
    from collections.abc import Generator
    from pathlib import Path

    from prewrite_daemon.ladder.ruff import Ruff
    from prewrite_daemon.limits import Deadline

BEFORE = "before the patch's config change"
AFTER = "under the patch's new config"


@dataclass(frozen=True)
class Judges:
    """The ruff configurations a patch is judged under: (label, view) — view None is the
    workspace as it is; a patched view carries the patch's new configuration."""

    changed: tuple[str, ...]  # the patch's ruff configuration files, if it changes any
    views: tuple[tuple[str, Path | None], ...]

    def labelled(self, found: list[list[Diagnostic]]) -> list[Diagnostic]:
        """One list per judge -> each finding once, naming the judges that found it."""
        if not self.changed:
            return found[0]
        seen: dict[tuple[str, int, int, str], tuple[Diagnostic, list[str]]] = {}
        for (label, _view), group in zip(self.views, found, strict=True):
            for d in group:
                seen.setdefault((d.path, d.line, d.column, d.rule), (d, []))[1].append(label)
        return [
            msgspec.structs.replace(d, message=f"{d.message} [ruff config: {' and '.join(ls)}]")
            for d, ls in seen.values()
        ]

    def detail(self, findings: list[Diagnostic]) -> str:
        if not self.changed:
            return ""
        text = f"the patch changes ruff's configuration ({', '.join(self.changed)}): judged "
        text += " and ".join(label for label, _ in self.views)
        hidden = sum(d.message.endswith(f"[ruff config: {BEFORE}]") for d in findings)
        if hidden:
            text += (
                f"; {hidden} finding(s) only {BEFORE}: the patch's new config hides them "
                "(allow_relaxation = true in [tool.prewrite] on disk permits it)"
            )
        return text


ONLY_THE_WORKSPACE = Judges((), ((BEFORE, None),))  # a patch that leaves ruff's config alone


@contextmanager
def judges_for(patch: PreparedPatch, allow_relaxation: bool, on: bool = True) -> Generator[Judges]:
    """The judges of ``patch``: the workspace's configuration and, when the patch changes
    ruff's, its new one in a patched view (alone with ``allow_relaxation``); ``on`` False: no
    ruff rung runs, so no view is made."""
    changed = tuple(linter_config_changes(patch)) if on else ()
    with patched_view(patch) if changed else nullcontext(None) as view:
        views: list[tuple[str, Path | None]] = []
        if not changed or not allow_relaxation:
            views.append((BEFORE, None))
        if view is not None:
            views.append((AFTER, view))
        yield Judges(changed, tuple(views))


async def format_files(
    ruff: Ruff, patch: PreparedPatch, deadline: Deadline, judges: Judges = ONLY_THE_WORKSPACE
) -> tuple[PreparedPatch, list[Diagnostic], str]:
    """Format under every judge; the last one's text (the configuration the files will live
    under) is what later rungs check. Only a file ruff cannot format is a finding. Returns the
    formatted patch, the findings and the receipt line."""
    targets = [e for e in patch.edits if e.is_python and e.new_text is not None]

    async def formatted(view: Path | None) -> list[tuple[str | None, str]]:
        left = deadline.left()
        return await asyncio.gather(
            *(ruff.format(e.path, e.new_text or "", left, view) for e in targets)
        )

    results = await asyncio.gather(*(formatted(view) for _label, view in judges.views))
    final = {e.path: text for e, (text, _err) in zip(targets, results[-1], strict=True)}
    failures = [
        [
            Diagnostic(e.path, 1, 1, 1, 1, "error", "format", err, "ruff")
            for e, (text, err) in zip(targets, group, strict=True)
            if text is None
        ]
        for group in results
    ]
    edits = tuple(
        FileEdit(e.path, e.old_text, final.get(e.path) or e.new_text) for e in patch.edits
    )
    changed = sum(final.get(e.path) not in (None, e.new_text) for e in targets)
    note = f"format: ruff format on {len(targets)} file(s), {changed} changed"
    if len(results) == 2:
        differ = sum(a != b for (a, _), (b, _) in zip(*results, strict=True))
        note += f" {AFTER} ({differ} formatted differently {BEFORE})"
    return PreparedPatch(patch.root, edits), judges.labelled(failures), note


async def lint_files(
    ruff: Ruff, patch: PreparedPatch, deadline: Deadline, judges: Judges = ONLY_THE_WORKSPACE
) -> tuple[list[Diagnostic], str]:
    """What the patch's code introduced, per judge: each judge lints base and candidate.
    Returns the findings and the receipt line."""
    targets = [e for e in patch.edits if e.is_python and e.new_text is not None]

    async def new_findings(e: FileEdit, view: Path | None) -> list[Diagnostic]:
        candidate = ruff.lint(e.path, e.new_text or "", deadline.left(), view)
        if e.old_text is None:
            return await candidate
        if view is None:
            base = ruff.lint_base(e.path, e.old_text, deadline.left())
        else:  # the base text under the new configuration: never cached
            base = ruff.lint(e.path, e.old_text, deadline.left(), view)
        before, after = await asyncio.gather(base, candidate)
        rejected = [d for d in after if d.rule == CONFIG_REJECTED]
        return rejected or introduced(before, after, e.old_text, e.new_text)

    async def judged(view: Path | None) -> list[Diagnostic]:
        found = await asyncio.gather(*(new_findings(e, view) for e in targets))
        return [d for group in found for d in group]

    found = await asyncio.gather(*(judged(view) for _label, view in judges.views))
    return judges.labelled(list(found)), _lint_receipt(ruff, [e.path for e in targets])


def _lint_receipt(ruff: Ruff, paths: list[str]) -> str:
    """Which rules judged: the workspace's ruff configuration, or only breakage."""
    bare = sum(not ruff.configured(p) for p in paths)
    parts = (
        [f"{len(paths) - bare} under the workspace's ruff configuration"]
        if bare < len(paths)
        else []
    )
    if bare:
        parts.append(f"{bare} with {BREAKAGE_RULES} only (no ruff configuration)")
    return f"lint: ruff check on {len(paths)} file(s)" + (f": {'; '.join(parts)}" if paths else "")
