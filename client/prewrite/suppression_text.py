"""How a suppression the patch adds reads, wherever a reply is shown (the CLI, the hook, MCP).

A ``# type: ignore`` or ``# noqa`` that silences the patch's own error leaves the verdict green
(unless the workspace refuses suppressions), so the reader is told each one the patch adds: where
it is, what it silences, and what it hides — the diagnostics the rung that honours it finds once
it is taken out, in compiler style — or, when no rung could say, why not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prewrite.reply_text import diagnostic_lines

if TYPE_CHECKING:
    from prewrite.protocol import Suppression

SHOWN = 10  # hidden diagnostics listed per suppression (all of them are in ``--json``)


def suppression_lines(suppressions: list[Suppression]) -> list[str]:
    """One head line per suppression, then what it hides (indented)."""
    lines: list[str] = []
    for s in suppressions:
        head = f"{s.path}:{s.line}:{s.column}: the patch adds `{s.text}` ({_silences(s)})"
        if s.hidden:
            lines.append(f"{head}, which hides {len(s.hidden)} diagnostic(s) it introduces:")
        elif s.judged:
            lines.append(f"{head}; it hides nothing this patch introduces")
        else:
            lines.append(f"{head}; {s.note or 'what it hides is not known'}")
        for d in s.hidden[:SHOWN]:
            lines += diagnostic_lines(d, "  ")
        if len(s.hidden) > SHOWN:
            lines.append(f"  ... and {len(s.hidden) - SHOWN} more")
    return lines


def _silences(s: Suppression) -> str:
    where = {"line": "on its line", "next-line": "on the next line", "file": "in the whole file"}
    return f"silences {s.tool or 'a tool'} {where.get(s.scope, s.scope)}"
