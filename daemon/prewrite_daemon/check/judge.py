"""One workspace's verdict on a patch: the warm overlay check, or the cold CLI where it decides.

A patch that leaves the checker's settings alone is judged warm (``checker.run_check``), unless
what the warm checker found depends on the whole program in a way it cannot show
(``Language.needs_cold``): then the cold CLI on the patched tree judges. A patch that changes the
settings is judged twice (``check.config_change.judge_both``): warm under the settings before, cold
under its own. These run on the workspace's behalf, under its lock; the cold base it keeps
(``Workspace.cold_base``) is filled here and emptied whenever its view moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from prewrite_daemon.backends.base import WholeProgram
from prewrite_daemon.check.coldcheck import cold_base, run_cold_check
from prewrite_daemon.check.config_change import judge_both
from prewrite_daemon.check.whole import run_whole_unless_cold, why_cold_first
from prewrite_daemon.checker import CheckContext, run_check
from prewrite_daemon.languages.readers import disk_reader, patched_reader
from prewrite_daemon.limits import Deadline

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import CheckReply
    from prewrite_daemon.backends.base import Backend
    from prewrite_daemon.check.coldcheck import ColdRun
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.check.planning import CheckPlan
    from prewrite_daemon.languages.base import CheckerLayout
    from prewrite_daemon.workspace import Workspace


async def judge(
    ws: Workspace, patch: PreparedPatch, backend: Backend, timeout_s: float
) -> tuple[CheckReply, CheckPlan | None]:
    """The verdict, and the warm check's plan when it alone judged (what it pruned is
    re-checked when the workspace is idle, ``recheck/pending.py``)."""
    assert ws.layout is not None
    ctx = CheckContext(
        ws.language, ws.shadow, ws.built_graph(), backend, ws.base_cache, ws.layout.scope,
        narrowing=ws.narrowing, planning_budget_s=ws.planning_budget_s,
        graph_ready=ws.ready_graph, activity=ws.activity, env=ws.env,
    )  # fmt: skip
    candidate = candidate_layout(ws, patch)
    deadline = Deadline(timeout_s)
    if isinstance(backend, WholeProgram):
        return await _judge_whole(ws, patch, backend, candidate, deadline), None
    if candidate is None:
        warm = await run_check(ctx, patch, timeout_s)
        if not ws.language.needs_cold(warm.diagnostics):
            return warm, ctx.plan
        # The program as a whole decides (tsc reports no semantic error anywhere once
        # any file has a syntax error): the cold CLI on the patched tree judges.
        return await _cold(ws, patch, ws.layout, deadline), None

    async def before(rest: PreparedPatch) -> CheckReply:
        return await run_check(ctx, rest, deadline.left())

    async def after() -> CheckReply:
        return await _cold(ws, patch, candidate, deadline)

    return await judge_both(ws.root, ws.language, patch, before, after), None


async def _judge_whole(
    ws: Workspace,
    patch: PreparedPatch,
    backend: WholeProgram,
    candidate: CheckerLayout | None,
    deadline: Deadline,
) -> CheckReply:
    """A whole-program checker (dmypy) judges warm unless it cannot be trusted with this patch
    (``check.whole.why_cold``) or fails; a patch to its settings, warm under the settings before
    and cold under its own, as every checker's."""
    assert ws.layout is not None
    layout = ws.layout

    async def warm_or_cold(rest: PreparedPatch) -> CheckReply:
        reason = None if backend.answers_as_cli else why_cold_first(ws, rest)
        if reason is None:
            with ws.activity.step(f"{ws.env.checker}: checking the program with the patch"):
                answer = await run_whole_unless_cold(ws, rest, backend, deadline)
            if not isinstance(answer, str):
                return answer
            reason = answer
        reply = await _cold(ws, rest, layout, deadline)
        note = f"typecheck: judged by the cold CLI: {reason}"
        return msgspec.structs.replace(reply, verified=[*reply.verified, note])

    if candidate is None:
        return await warm_or_cold(patch)

    async def after() -> CheckReply:
        return await _cold(ws, patch, candidate, deadline)

    return await judge_both(ws.root, ws.language, patch, warm_or_cold, after)


def candidate_layout(ws: Workspace, patch: PreparedPatch) -> CheckerLayout | None:
    """The layout under the patch's checker settings, or None if it leaves them alone."""
    assert ws.layout is not None
    if not any(ws.language.is_checker_config(e.path) for e in patch.edits):
        return None
    read = patched_reader(disk_reader(ws.root), patch)
    candidate = ws.layout.with_config(ws.root, read)
    return None if candidate.config == ws.layout.config else candidate


async def _cold(
    ws: Workspace, patch: PreparedPatch, layout: CheckerLayout, deadline: Deadline
) -> CheckReply:
    def cli(tree: Path, timeout_s: float) -> ColdRun:
        return ws.language.cold_check(tree, ws.env, ws.run_python, timeout_s)

    checker = ws.env.checker
    if ws.cold_base is None:
        with ws.activity.step(f"{checker}: a cold run on the workspace as it is (once)"):
            ws.cold_base = await cold_base(ws.shadow, cli, deadline.left())
    ws.activity.begin(f"{checker}: a cold run on the patched tree")
    return await run_cold_check(
        ws.shadow, patch, cli, ws.cold_base, deadline,
        (layout.config_text, layout.scope), ws.language.is_source,
    )  # fmt: skip
