"""How a reply reads as text, wherever it is shown (the CLI, the MCP answer, late findings,
suppressions): as a compiler prints it.

- A diagnostic is one line, ``path:line:col: severity: message [rule]``, so editors and ``grep``
  read it; the further lines of a multi-line message (pyright's explanation, mypy's notes) follow
  it, indented, and are never mistaken for diagnostics of their own.
- The rungs are one line of ``rung outcome [ms]``; why a rung did not run is the receipt's
  (``not_verified``), said once, not repeated beside the outcome.
- A disk rung (the tests, a finish command) is its outcome, its time and its command, or, when
  it was skipped, why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prewrite.protocol import CheckReply, Diagnostic, DiskResult, RungReport

CONTINUATION = "  "  # a message's further lines, below its diagnostic
OUTPUT_TAIL = 20  # lines of a failing disk rung's output shown (all of it is in ``--json``)


def diagnostic_lines(d: Diagnostic, indent: str = "") -> list[str]:
    """``d`` as a compiler prints it: the head line with the rule, then the message's further
    lines indented below it (their own indentation kept, blank ones left out)."""
    first, *rest = d.message.splitlines() or [""]
    rule = f" [{d.rule}]" if d.rule else ""
    head = f"{indent}{d.path}:{d.line}:{d.column}: {d.severity}: {first}{rule}"
    return [head, *(f"{indent}{CONTINUATION}{line}" for line in rest if line.strip())]


def rung_text(r: RungReport) -> str:
    """``lint pass 4ms``, ``format off``, ``tests skipped (not requested)``."""
    if r.outcome in ("pass", "fail"):
        return f"{r.rung} {r.outcome} {r.ms:.0f}ms"
    return f"{r.rung} {r.outcome}" + (
        " (not requested)" if r.detail.startswith("not requested") else ""
    )


def rungs_line(rungs: list[RungReport]) -> str:
    return ", ".join(rung_text(r) for r in rungs)


def verdict_text(reply: CheckReply) -> str:
    """``ok: 0 new error(s), ...`` or ``FAILED at lint: 1 new error(s), ...``."""
    errors = sum(1 for d in reply.diagnostics if d.severity == "error")
    others = len(reply.diagnostics) - errors
    verdict = "ok" if reply.ok else f"FAILED at {reply.failed_rung or 'typecheck'}"
    return (
        f"{verdict}: {errors} new error(s), {others} new warning(s) in "
        f"{len(reply.checked_files)} type-checked file(s)"
    )


def disk_lines(results: list[DiskResult]) -> list[str]:
    """Each disk rung: ``tests: fail in 812 ms (python -m pytest ...)``, the failed tests and
    the output's tail; or ``tests: skipped: <why>``."""
    lines: list[str] = []
    for d in results:
        if d.outcome == "skipped":
            lines.append(f"{d.rung}: skipped: {d.output or 'no reason given'}")
            continue
        lines.append(f"{d.rung}: {d.outcome} in {d.ms:.0f} ms ({' '.join(d.command)})")
        lines += [f"  failed: {test}" for test in d.failed]
        if d.outcome in ("fail", "timeout"):
            lines += ["  | " + line for line in d.output.splitlines()[-OUTPUT_TAIL:]]
    return lines
