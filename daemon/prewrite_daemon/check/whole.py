"""The check on a checker that answers for the whole program at once (dmypy warm; ty's and
pyrefly's CLI).

No plan, no per-file pulls: the patch is laid on the shadow for one run of the warm checker,
which answers every file; the base is the same checker's answer on the tree as it is, kept until
the tree moves (``Workspace.whole_base``, emptied with every other cache). Everything the patch
introduced anywhere is reported, so nothing is pruned and nothing waits for an idle re-check.

What the warm checker cannot be trusted with goes to the cold CLI instead (``why_cold``):
- "unused type: ignore" errors: dmypy's fine-grained mode drops them, even for an edited file
  (measured: ``backends/dmypy.py``; python/mypy#9655). The warm answer leaves that code out on
  both sides, so a
  patch that could make an ignore unused — one whose files hold an ignore comment, or one that
  changes what importers holding one see — is judged cold where the configuration can report
  them at all;
- a module added or deleted: dmypy's fine-grained mode can crash on a removal (``KeyError`` in
  ``direct_imports``, python/mypy#10539) or keep wrong state after it (a spurious ``no-redef``
  on httpx after ``_types.py`` was removed and put back); a new module's revert is a removal;
- a warm run that failed (a crash): the workspace starts a new dmypy, this patch is judged cold.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed
from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.check.diagnostics import has_error, introduced_by_patch, to_wire
from prewrite_daemon.checker import relocate

if TYPE_CHECKING:
    from prewrite_daemon.backends.base import RawDiagnostic, WholeProgram
    from prewrite_daemon.check.patch import FileEdit, PreparedPatch
    from prewrite_daemon.limits import Deadline
    from prewrite_daemon.shadow.tree import ShadowTree
    from prewrite_daemon.workspace import Workspace

Results = dict[str, list[Diagnostic]]
IGNORE_COMMENT = re.compile(r"#\s*type:\s*ignore")
UNRELIABLE_WARM = frozenset({"unused-ignore"})  # codes the warm answer cannot be trusted with
# Settings under which mypy reports unused ignores (``strict`` implies it); inline ``# mypy:``
# comments can turn it on in a file too.
_HOW = {
    False: "typecheck: the whole program, warm",
    True: "typecheck: the whole program, by the checker's CLI with the patch laid on the shadow",
}
_REPORTS_UNUSED = ("strict", "warn_unused_ignores", "warn-unused-ignores")


def laid_edits(ws: Workspace, patch: PreparedPatch) -> list[FileEdit]:
    """The patch's edits the warm checker reads: sources the shadow mirrors."""
    shadow, language = ws.shadow, ws.language
    return [e for e in patch.edits if language.is_source(e.path) and shadow.mirrors(_name(e.path))]


async def why_cold(ws: Workspace, patch: PreparedPatch) -> str | None:
    """Why this patch must be judged by the cold CLI rather than the warm checker (None: it
    need not)."""
    return why_cold_first(ws, patch) or await _why_cold_importers(ws, patch)


def why_cold_first(ws: Workspace, patch: PreparedPatch) -> str | None:
    """``why_cold``'s part that must be known before the patch is laid (a removal laid would
    upset dmypy) and costs nothing: what the patched files are and hold."""
    laid = laid_edits(ws, patch)
    if any(e.new_text is None or e.old_text is None for e in laid):
        # a deletion, or a new module whose revert is one at the next check
        return "a module is added or deleted (dmypy's incremental mode mishandles removals)"
    texts = [e.new_text for e in laid if e.new_text is not None]
    holders = [t for t in texts if IGNORE_COMMENT.search(t)]
    if holders and _reports_unused(_settings(ws), holders):
        return "the patched files hold type: ignore comments (only cold mypy reports unused ones)"
    return None


async def _why_cold_importers(ws: Workspace, patch: PreparedPatch) -> str | None:
    """``why_cold``'s costly part (the interfaces compared, the importers read: as long as
    dmypy's whole increment on httpx under load), which ``run_whole_unless_cold`` asks while
    the patch is laid: the importers' texts are read as they were before it (``old_text`` for
    a patched importer), so the answer is the one it would be before."""
    laid = laid_edits(ws, patch)
    if not any(_reaches_importers(ws, e) for e in laid):
        return None
    graph = ws.built_graph() or await ws.ready_graph()
    importers = graph.importers([e.path for e in laid]) & set(ws.shadow.files)
    before = {e.path: e.old_text for e in laid}
    texts = [before[r] if r in before else ws.shadow.read_text(r) for r in sorted(importers)]
    held = [t for t in texts if t is not None and IGNORE_COMMENT.search(t)]
    if held and _reports_unused(_settings(ws), held):
        return "importers of a changed interface hold type: ignore comments (only cold mypy " \
            "reports unused ones)"  # fmt: skip
    return None


async def run_whole_unless_cold(
    ws: Workspace, patch: PreparedPatch, backend: WholeProgram, deadline: Deadline
) -> CheckReply | str:
    """The warm verdict, or why the cold CLI must judge instead. ``why_cold_first`` must have
    said None; the rest of ``why_cold`` is worked out while the warm checker runs (in its own
    process), and a reason found there wins over the warm answer, as when asked first. A
    failed warm run is a reason too (the workspace starts a new checker at its next check).
    A checker that answers as its CLI (``answers_as_cli``) needs no reason at all."""

    async def warm() -> CheckReply | str:
        try:
            return await run_whole_check(ws, patch, backend, deadline)
        except BackendFailed as exc:
            return f"the warm checker failed ({exc.message[:200]})"

    try:
        async with asyncio.TaskGroup() as tg:
            answer = tg.create_task(warm())
            why = _no_reason() if backend.answers_as_cli else _why_cold_importers(ws, patch)
            reason = tg.create_task(why)
    except ExceptionGroup as group:  # neither creates a group of its own: one leaf, unwrapped
        raise group.exceptions[0] from None
    return reason.result() or answer.result()


async def _no_reason() -> str | None:
    return None


def _settings(ws: Workspace) -> str:
    return repr(ws.layout.config if ws.layout is not None else "")


def _reports_unused(settings: str, texts: list[str]) -> bool:
    return any(k in settings for k in _REPORTS_UNUSED) or any("mypy:" in t for t in texts)


async def run_whole_check(
    ws: Workspace, patch: PreparedPatch, backend: WholeProgram, deadline: Deadline
) -> CheckReply:
    """The patch judged by one warm run of ``backend`` against its base."""
    t0 = time.perf_counter()
    shadow = ws.shadow
    if ws.whole_base is None:
        found = await backend.check_tree(shadow, {}, deadline.left())
        ws.whole_base = _results(found, shadow, backend.answers_as_cli)
    base = ws.whole_base
    t_base = time.perf_counter()
    overrides = {e.path: e.new_text for e in laid_edits(ws, patch)}
    raw = await backend.check_tree(shadow, overrides, deadline.left())
    candidate = _results(raw, shadow, backend.answers_as_cli)
    t_cand = time.perf_counter()
    edits = {e.path: e for e in patch.edits}
    new = introduced_by_patch(base, candidate, edits, set(base) | set(candidate))
    files = {rel for rel in shadow.files if ws.language.is_source(rel)}
    files |= {rel for rel, text in overrides.items() if text is not None}
    return CheckReply(
        ok=not has_error(new),
        diagnostics=new,
        checked_files=sorted(files),
        timings_ms={
            "base_ms": round((t_base - t0) * 1000, 1),
            "candidate_ms": round((t_cand - t_base) * 1000, 1),
        },
        verified=[_HOW[backend.answers_as_cli]],
    )


def _name(rel: str) -> str:
    return rel.rsplit("/", 1)[-1]


def _reaches_importers(ws: Workspace, e: FileEdit) -> bool:
    if e.old_text is None or e.new_text is None:
        return True  # a module made or removed: what imports resolve to changed
    return ws.language.interface_changed(e.path, e.old_text, e.new_text)


def _results(raw: dict[str, list[RawDiagnostic]], shadow: ShadowTree, exact: bool) -> Results:
    """Wire diagnostics per path, the codes the warm answer cannot be trusted with left out
    (none from an ``exact`` answer: the CLI's own)."""
    out: Results = {}
    prefix, real = str(shadow.shadow_root), str(shadow.root)
    for rel, raws in raw.items():
        for r in raws:
            d = to_wire(r, rel) if exact or r.rule not in UNRELIABLE_WARM else None
            if d is not None:
                out.setdefault(rel, []).append(relocate(d, prefix, real))
    return out
