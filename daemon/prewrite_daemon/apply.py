"""``apply``: validate everything, then write anything — then the disk rungs.

The whole pre-write ladder runs first; only if every rung passed is the patch written, all
files in one journalled transaction (``writer/``), against the exact bytes the ladder
validated. Success is decided before the write: a reply that could not be delivered (over the
frame limit, disk results' room kept) refuses the apply with nothing written. Then the checker's
view is synced and the disk rungs run: the affected tests, and with ``finish`` the workspace's
"once at the end" rungs — only in a workspace the user trusts to run its own code (otherwise
they are reported as skipped, and ``finish`` is ``untrusted_workspace``). A workspace may opt
into rolling the write back when a disk rung fails.
One writer per workspace at a time.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from typing import TYPE_CHECKING

from prewrite.errors import ErrorDetail, PrewriteError, UntrustedWorkspace
from prewrite.protocol import (
    ApplyReply,
    ApplyRequest,
    CandidateFile,
    CheckRequest,
    DiskResult,
    FinishReply,
    RungReport,
)
from prewrite_daemon.ladder.config import LadderConfig, load_config
from prewrite_daemon.ladder.disk import affected_tests, run_finish, run_tests
from prewrite_daemon.writer.journal import recover, revert
from prewrite_daemon.writer.transaction import Transaction

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.entry import Entry
    from prewrite_daemon.ladder.runner import Ladder


def _report(result: DiskResult) -> RungReport:
    """A disk rung as a rung report: a timeout fails; a skipped rung's detail is why."""
    outcome = "fail" if result.outcome in ("fail", "timeout") else result.outcome
    detail = result.output if outcome == "skipped" else result.outcome
    return RungReport(result.rung, outcome, result.ms, detail)


async def apply_patch(
    entry: Entry, request: ApplyRequest, ladder: Ladder, journal_dir: Path
) -> ApplyReply:
    """Run under the entry's write lock. Errors propagate (the caller records them)."""
    await asyncio.to_thread(recover, journal_dir)
    check = CheckRequest(
        request.root, request.changes, request.python, request.timeout_s,
        return_contents=request.return_contents, rungs=request.rungs, intent=request.intent,
    )  # fmt: skip
    reply = await entry.run_ladder(ladder, check)
    if not reply.ok or ladder.final is None:
        return ApplyReply(False, reply, [], [])
    # Encoding and hashing up to 128 MiB a file: off the loop, as the ladder reads it.
    changes, bases, planned = await asyncio.to_thread(_encoded, ladder.final)
    limits = entry.limits
    limits.check_fits(ApplyReply(True, reply, planned, [], True), limits.disk_bytes, "the reply")
    txn = Transaction(ladder.root, journal_dir, changes, bases)
    started = time.perf_counter()
    try:
        plan = await asyncio.to_thread(txn.run)
    except PrewriteError:
        ladder.reports.append(RungReport("write", "fail", _ms(started)))
        raise
    ladder.reports.append(RungReport("write", "pass", _ms(started)))
    written = [CandidateFile(e.path, e.after) for e in plan.entries]
    try:
        await entry.sync()
        disk = limits.fit_disk(
            await _disk_rungs(entry, ladder.config, list(changes), request.finish)
        )
        ladder.reports.extend(_report(d) for d in disk)
        failed = any(d.outcome in ("fail", "timeout") for d in disk)
        rolled_back = False
        if failed and ladder.config.rollback_on_fail:
            await asyncio.to_thread(revert, plan)
            await entry.sync()
            rolled_back = True
    finally:
        await asyncio.to_thread(txn.cleanup, plan)
    return ApplyReply(not failed, reply, written, disk, rolled_back)


def _encoded(
    patch: PreparedPatch,
) -> tuple[dict[str, bytes | None], dict[str, bytes | None], list[CandidateFile]]:
    """The bytes to write and the bases to check, by path; the files planned, with their hashes."""
    changes = {e.path: None if e.new_text is None else e.new_text.encode() for e in patch.edits}
    bases = {e.path: None if e.old_text is None else e.old_text.encode() for e in patch.edits}
    planned = [CandidateFile(p, None if b is None else _sha(b)) for p, b in changes.items()]
    return changes, bases, planned


async def _disk_rungs(
    entry: Entry, config: LadderConfig, changed: list[str], finish: bool
) -> list[DiskResult]:
    ws = entry.workspace
    if not ws.trusted:
        return [_untrusted("tests")] + (
            [_untrusted(r.name) for r in config.finish] if finish else []
        )
    results: list[DiskResult] = []
    python = ws.run_python  # None: another repository's interpreter (interpreter_trust)
    if config.tests and python is None:
        note = "the interpreter given is another repository's code, read but never run"
        results.append(DiskResult("tests", "skipped", 0.0, [], [], note))
    elif config.tests and python is not None:
        tests = affected_tests(ws.graph, changed, set(ws.shadow.files))
        with ws.activity.step(f"written; running the {len(tests)} test file(s) it affects"):
            results.append(await run_tests(python, ws.root, tests, config.test_timeout_s))
    elif "tests" in config.not_requested:
        results.append(DiskResult("tests", "skipped", 0.0, [], [], "not requested (rungs)"))
    if finish:
        with ws.activity.step("written; running the finish rungs"):
            results += await finish_rungs(ws.root, config)
    return results


async def finish_rungs(root: Path, config: LadderConfig) -> list[DiskResult]:
    return [await run_finish(r.name, list(r.command), root, r.timeout_s) for r in config.finish]


def _untrusted(rung: str) -> DiskResult:
    note = "the workspace is not trusted (prewrite trust ROOT)"
    return DiskResult(rung, "skipped", 0.0, [], [], note)


async def finish(root: Path, trusted: bool) -> FinishReply:
    """The workspace's "once at the end" rungs: its own commands, so only when trusted."""
    if not trusted:
        raise UntrustedWorkspace(
            f"{root} is not trusted to run its own commands; `prewrite trust {root}` first",
            [ErrorDetail("finish runs [tool.prewrite] finish commands", "pyproject.toml")],
        )
    results = await finish_rungs(root, load_config(root))
    return FinishReply(all(r.outcome == "pass" for r in results), results)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
