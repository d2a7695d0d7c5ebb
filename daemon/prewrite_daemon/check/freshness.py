"""A verdict only from the state it was computed on: one workspace's check, admitted and answered.

At admission the environment fingerprint is taken and the checker (re)started if it moved, the
shadow is synced with the disk (what moved is told to the checker) and the patch's base texts
are compared with the shadow's. The verdict (``judge``) is sent only if, when it is done, the
fingerprint is the same and a re-scan of the workspace finds nothing moved; otherwise it is
computed again, and after ``MAX_ATTEMPTS`` the answer is ``stale_environment``. A green whose
plan pruned importers is remembered for the idle re-check (``recheck/pending.py``); one planned
before the graph was built, once it is (``Workspace.recheck_later``). Once a check has answered, a
graph it did not need is built (``check/graph_keeper.py``).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import msgspec

from prewrite.errors import ErrorDetail, StaleBase, StaleEnvironment
from prewrite_daemon.check.judge import judge
from prewrite_daemon.recheck.pending import PendingRecheck, now

if TYPE_CHECKING:
    from prewrite.protocol import CheckReply
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.languages.fingerprint import Fingerprint
    from prewrite_daemon.workspace import Workspace

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3


async def check_fresh(ws: Workspace, patch: PreparedPatch, timeout_s: float) -> CheckReply:
    """Type-check a validated patch on ``ws``. Must be called under the workspace lock."""
    with ws.activity.step("type checking"):
        return await _check_fresh(ws, patch, timeout_s)


async def _check_fresh(ws: Workspace, patch: PreparedPatch, timeout_s: float) -> CheckReply:
    t0 = time.perf_counter()
    moved: list[str] = []
    for _attempt in range(MAX_ATTEMPTS):
        env = ws.environment()
        backend = await ws.ensure_backend(env)
        ws.editor_layer.clear(backend)  # an agent sees the disk and its patch, no buffers
        ws.sync(backend)
        _verify_same_base(ws, patch)
        generation = ws.generation
        reply, plan = await judge(ws, patch, backend, timeout_s)
        if ws.before_answer is not None:
            ws.before_answer()
        moved = _moved_since(ws, env)
        if not moved:
            ws.checks += 1
            if reply.ok and plan is not None and (plan.pruned or plan.pruned_later):
                edits = (*plan.source_edits, *plan.data_edits)
                item = PendingRecheck(edits, plan.pruned, generation, now())
                if plan.pruned_later:
                    ws.recheck_later(item)
                else:
                    ws.rechecks.add(item)
            ws.build_graph()  # answered: a graph left pending (not needed yet) is built now
            timings = dict(reply.timings_ms, total_ms=round((time.perf_counter() - t0) * 1000, 1))
            return msgspec.structs.replace(
                reply, timings_ms=timings, generation=generation, environment=env.digest,
                verified=[*reply.verified, *_narrowing_notes(ws)],
                not_verified=[*reply.not_verified, *_trust_notes(ws)],
            )  # fmt: skip
        log.info("%s moved while checking (%s); recomputing", ws.root, ", ".join(moved))
        ws.activity.begin(f"checking again: {', '.join(moved)} moved during the check")
    raise StaleEnvironment(
        f"the workspace kept changing during {MAX_ATTEMPTS} attempts; retry",
        [ErrorDetail(f"{m} moved during the check") for m in moved],
    )


def _trust_notes(ws: Workspace) -> list[str]:
    if ws.trusted:
        return []
    return [
        f"untrusted workspace: nothing in it was run ({ws.env.untrusted_note()}); "
        f"`prewrite trust {ws.root}` for CI parity"
    ]


def _narrowing_notes(ws: Workspace) -> list[str]:
    if ws.narrowing or ws.narrowing_note is None:
        return []
    return [f"typecheck: {ws.narrowing_note}"]


def _moved_since(ws: Workspace, env: Fingerprint) -> list[str]:
    moved = env.moved(ws.environment())
    if ws.shadow.pending():
        moved.append("files")
    return moved


def _verify_same_base(ws: Workspace, patch: PreparedPatch) -> None:
    """The shadow must hold exactly the bytes the patch was validated against."""
    moved = [
        ErrorDetail("changed on disk while the check started", e.path)
        for e in patch.edits
        if ws.language.is_source(e.path)
        # a file the shadow leaves out (a dot dir, a venv) has nothing to compare with
        and (e.path in ws.shadow.files or e.old_text is None)
        and ws.shadow.read_text(e.path) != e.old_text
    ]
    if moved:
        raise StaleBase("the workspace changed while the check started; retry", moved)
