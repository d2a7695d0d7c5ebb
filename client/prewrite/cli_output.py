"""What the ``prewrite`` commands print: the human text of each reply, or its one JSON object.

Text goes to stdout as a compiler prints it (``prewrite.reply_text``): the diagnostics first, one
per line, then ``prewrite:`` lines about the run, the verdict last. Errors go to stderr as
``prewrite: error [code]: message``; with ``--json`` the error is also the one JSON object on
stdout (``prewrite.reply_json``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from prewrite.late import late_finding_lines
from prewrite.reply_json import error_object, json_line, reply_fields
from prewrite.reply_text import diagnostic_lines, disk_lines, rungs_line, verdict_text
from prewrite.suppression_text import suppression_lines

if TYPE_CHECKING:
    from prewrite.errors import PrewriteError
    from prewrite.protocol import (
        ApplyReply,
        CheckReply,
        DiskResult,
        FinishReply,
        Message,
        StatsReply,
        StatusReply,
        WorkspaceStatus,
    )


def print_json(reply: Message) -> None:
    sys.stdout.write(json_line(reply_fields(reply)))


def print_error(error: PrewriteError, as_json: bool) -> None:
    print(f"prewrite: error [{error.code}]: {error}", file=sys.stderr)
    if as_json:
        print_json_error(error)


def print_json_error(error: PrewriteError) -> None:
    sys.stdout.write(json_line(error_object(error)))


def print_check(reply: CheckReply, elapsed_ms: float) -> None:
    for d in reply.diagnostics:
        print("\n".join(diagnostic_lines(d)))
    if reply.rungs:
        print(f"prewrite: rungs: {rungs_line(reply.rungs)}")
    for line in reply.not_verified:
        print(f"prewrite: not verified: {line}")
    for line in late_finding_lines(reply.late_findings):
        print(line if line.startswith(" ") else f"prewrite: {line}")
    for line in suppression_lines(reply.suppressions):
        print(line if line.startswith(" ") else f"prewrite: suppression: {line}")
    print(f"prewrite: {verdict_text(reply)}, {elapsed_ms:.0f} ms")


def print_apply(reply: ApplyReply, elapsed_ms: float) -> None:
    print_check(reply.check, elapsed_ms)
    for f in reply.written:
        print(f"prewrite: wrote {f.path}" if f.sha256 else f"prewrite: deleted {f.path}")
    print_disk(reply.disk)
    if reply.rolled_back:
        print("prewrite: a disk rung failed: the previous bytes were put back")
    if not reply.check.ok:
        print("prewrite: apply refused: nothing was written")
    elif reply.ok:
        print("prewrite: apply ok")
    elif not reply.rolled_back:
        print("prewrite: apply FAILED after the write: the files hold the patch")


def print_disk(results: list[DiskResult]) -> None:
    for line in disk_lines(results):
        print(line if line.startswith(" ") else f"prewrite: {line}")


def print_finish(reply: FinishReply) -> None:
    print_disk(reply.disk)
    print(f"prewrite: finish {'ok' if reply.ok else 'FAILED'} ({len(reply.disk)} rung(s))")


def print_stats(reply: StatsReply, root: str | None) -> None:
    print(f"{reply.verdicts} verdict(s)" + (f" for {root}" if root else ""))
    print(f"{'rung':<10} {'runs':>6} {'caught':>7} {'median':>10}")
    for r in reply.rungs:
        failed_open = f"  ({r.failed_open} failed open)" if r.failed_open else ""
        print(f"{r.rung:<10} {r.runs:>6} {r.caught:>7} {r.median_ms:>8.1f}ms{failed_open}")
    for outcome, count in sorted(reply.outcomes.items()):
        print(f"  {outcome}: {count}")
    for s in reply.suppressions:
        refused = f", {s.refused} refused" if s.refused else ""
        print(f"suppressions {s.kind}: {s.added} added, {s.hiding} hiding an error{refused}")
    if reply.narrowing_misses:
        print(f"narrowing misses: {len(reply.narrowing_misses)} (latest last)")
    for miss in reply.narrowing_misses:
        shown = miss.diagnostics[:3]
        print(
            f"  {miss.found_at} {miss.root} [{miss.language}]: the green of "
            f"{', '.join(miss.files)} ({miss.checked_at}) missed {len(miss.diagnostics)}"
        )
        for d in shown:
            print("\n".join(diagnostic_lines(d, "    ")))
        if len(miss.diagnostics) > len(shown):
            print(f"    ... and {len(miss.diagnostics) - len(shown)} more")


_COLUMNS = ("TRUST", "LANGUAGE", "CHECKER", "STATE", "CHECKS", "ROOT")


def print_status(reply: StatusReply) -> None:
    """The daemon, then one row per workspace (its root last: the one column of any width),
    each with a line of details below it."""
    print(f"daemon pid {reply.pid}, version {reply.version}, up {reply.uptime_s:.0f}s")
    if reply.memory_budget:
        held = sum(ws.rss_bytes for ws in reply.workspaces)
        print(f"warm checkers hold {_mib(held)} of a {_mib(reply.memory_budget)} memory budget")
    print(f"socket {reply.socket}")
    if not reply.workspaces:
        print("no workspaces yet")
        return
    rows = [_COLUMNS, *(_status_row(ws) for ws in reply.workspaces)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS) - 1)]
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
              + "  " + row[-1])  # fmt: skip
        if index:
            _print_workspace_details(reply.workspaces[index - 1])


def _mib(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n // 2**20} MiB"


def _status_row(ws: WorkspaceStatus) -> tuple[str, ...]:
    trust = "trusted" if ws.trusted else "untrusted"
    if ws.trust_pending:  # `prewrite trust` since it opened: the next check reopens it
        trust += " (next check: " + ("untrusted)" if ws.trusted else "trusted)")
    state = ws.backend_state + (" (busy)" if ws.busy else "")
    return (trust, ws.language, ws.checker or "-", state, str(ws.checks), ws.root)


def _print_workspace_details(ws: WorkspaceStatus) -> None:
    pid = f"checker pid {ws.server_pid} ({_mib(ws.rss_bytes)}), " if ws.server_pid else ""
    python = f", python {ws.python}" if ws.language == "python" else ""
    print(f"    {pid}generation {ws.generation}, environment {ws.environment or '-'}{python}")
    if ws.last_restart:
        print(f"    {ws.restarts} restart(s), last {ws.last_restart}: {ws.last_restart_reason}")
