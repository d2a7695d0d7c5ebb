"""How a late finding reads, wherever a reply is shown (the CLI, the hook, the MCP answer).

A late finding (``protocol.LateFinding``) is about an *earlier* patch, not the one just checked:
its green was wrong, and if it was written its errors are in the tree now and no later check
will report them (they are part of the base). So it is told plainly, with the diagnostics in
compiler style, apart from the current verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.reply_text import diagnostic_lines

if TYPE_CHECKING:
    from prewrite.protocol import LateFinding

SHOWN = 20  # diagnostics listed per finding (all of them are in ``--json``)


def late_finding_lines(findings: list[LateFinding]) -> list[str]:
    lines: list[str] = []
    for f in findings:
        lines.append(
            f"LATE FINDING: the check of {', '.join(f.files)} at {f.checked_at} answered no new "
            f"error, but re-checking the importers it had skipped found {len(f.diagnostics)} "
            f"diagnostic(s) that patch introduced (found {f.found_at}); if it was written, they "
            "are in the tree now and later checks will not report them:"
        )
        for d in f.diagnostics[:SHOWN]:
            lines += diagnostic_lines(d, "  ")
        if len(f.diagnostics) > SHOWN:
            lines.append(f"  ... and {len(f.diagnostics) - SHOWN} more")
    return lines
