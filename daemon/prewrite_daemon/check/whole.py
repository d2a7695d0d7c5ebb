"""The warm check on a checker that answers for the whole program at once (dmypy).

No plan, no per-file pulls: the patch is laid on the shadow for one run of the warm checker,
which answers every file; the base is the same checker's answer on the tree as it is, kept until
the tree moves (``Workspace.cold_base``, emptied with every other cache). Everything the
patch introduced anywhere is reported, so nothing is pruned and nothing waits for an idle
re-check.

Files processed whole (``force``): mypy's "unused type: ignore" errors are complete only for
files it processes whole (``backends.dmypy``). The base is taken with every file holding an
ignore comment processed whole; a candidate with the patched files and, when the patch can
change what importers see (an interface, a module made or removed), every importer holding
one. A file left out of both cannot have gained an unused ignore: nothing it reads changed.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from prewrite.protocol import CheckReply, Diagnostic
from prewrite_daemon.check.diagnostics import has_error, introduced_by_patch, to_wire
from prewrite_daemon.checker import relocate

if TYPE_CHECKING:
    from collections.abc import Iterable

    from prewrite_daemon.backends.base import RawDiagnostic, WholeProgram
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.limits import Deadline
    from prewrite_daemon.shadow.tree import ShadowTree
    from prewrite_daemon.workspace import Workspace

Results = dict[str, list[Diagnostic]]
IGNORE_COMMENT = re.compile(r"#\s*type:\s*ignore")


async def run_whole_check(
    ws: Workspace, patch: PreparedPatch, backend: WholeProgram, deadline: Deadline
) -> CheckReply:
    """The patch judged by one warm run of ``backend`` against its base."""
    t0 = time.perf_counter()
    shadow, language = ws.shadow, ws.language
    if ws.cold_base is None:
        every = [rel for rel in shadow.files if language.is_source(rel)]
        force = _holding_ignores(shadow, every, {})
        raw = await backend.check_tree(shadow, {}, force, deadline.left())
        ws.cold_base = _results(raw, shadow)
    base = ws.cold_base
    t_base = time.perf_counter()
    laid = [e for e in patch.edits if language.is_source(e.path) and shadow.mirrors(_name(e.path))]
    overrides = {e.path: e.new_text for e in laid}
    reach = set(overrides)
    if any(_reaches_importers(ws, e.path, e.old_text, e.new_text) for e in laid):
        graph = ws.built_graph() or await ws.ready_graph()
        reach |= graph.importers(overrides) & set(shadow.files)
    force = _holding_ignores(shadow, reach, overrides)
    candidate = _results(
        await backend.check_tree(shadow, overrides, force, deadline.left()), shadow
    )
    t_cand = time.perf_counter()
    edits = {e.path: e for e in patch.edits}
    new = introduced_by_patch(base, candidate, edits, set(base) | set(candidate))
    files = {rel for rel in shadow.files if language.is_source(rel)}
    files = (files - {r for r, t in overrides.items() if t is None}) | {
        r for r, t in overrides.items() if t is not None
    }
    return CheckReply(
        ok=not has_error(new),
        diagnostics=new,
        checked_files=sorted(files),
        timings_ms={
            "base_ms": round((t_base - t0) * 1000, 1),
            "candidate_ms": round((t_cand - t_base) * 1000, 1),
        },
        verified=[f"typecheck: the whole program, by {ws.env.checker} (warm)"],
    )


def _name(rel: str) -> str:
    return rel.rsplit("/", 1)[-1]


def _reaches_importers(ws: Workspace, rel: str, old: str | None, new: str | None) -> bool:
    if old is None or new is None:
        return True  # a module made or removed: what imports resolve to changed
    return ws.language.interface_changed(rel, old, new)


def _holding_ignores(
    shadow: ShadowTree, rels: Iterable[str], overrides: dict[str, str | None]
) -> list[str]:
    """The files among ``rels`` whose text (the patch's, else the shadow's) has an ignore."""
    found: list[str] = []
    for rel in rels:
        text = overrides[rel] if rel in overrides else shadow.read_text(rel)
        if text is not None and IGNORE_COMMENT.search(text):
            found.append(rel)
    return sorted(found)


def _results(raw: dict[str, list[RawDiagnostic]], shadow: ShadowTree) -> Results:
    out: Results = {}
    prefix, real = str(shadow.shadow_root), str(shadow.root)
    for rel, raws in raw.items():
        for r in raws:
            d = to_wire(r, rel)
            if d is not None:
                out.setdefault(rel, []).append(relocate(d, prefix, real))
    return out
