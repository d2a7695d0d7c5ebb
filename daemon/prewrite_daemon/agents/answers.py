"""Replies and errors as MCP tool results: a readable text for the model, the same facts as
structured content for programs.

The text is what most hosts show a model, so it carries everything needed to act: each
introduced diagnostic in compiler style, the rung that failed, the receipt, any late finding
(an earlier green found wrong since, ``prewrite.late``), each suppression comment the patch adds
with what it hides (``prewrite.suppression_text``), and the text of any
file whose ``content`` the formatter changed (that text, not the one sent, is what ``apply``
writes; an edited file's final text is in the structured ``files``). Structured
content is the reply's fields (``prewrite.reply_json``), the very object the CLI's ``--json``
prints, so the two never drift; a model reads the text as a user reads the CLI
(``prewrite.reply_text``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.types import CallToolResult, TextContent

from prewrite.late import late_finding_lines
from prewrite.reply_json import error_object, reply_fields
from prewrite.reply_text import diagnostic_lines, disk_lines, rungs_line, verdict_text
from prewrite.suppression_text import suppression_lines
from prewrite_daemon.agents.guide import ERROR_HINTS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from prewrite.errors import PrewriteError
    from prewrite.protocol import ApplyReply, CheckReply, Message, StatusReply

FORMATTED_TEXT_LIMIT = 20_000  # chars of one formatted file shown in the text (all in `files`)


def check_result(reply: CheckReply, sent: Mapping[str, str]) -> CallToolResult:
    """``sent``: the full ``content`` the patch gave per path, to tell what the formatter did."""
    return _result("\n".join(_check_lines(reply, sent)), reply)


def apply_result(reply: ApplyReply, sent: Mapping[str, str]) -> CallToolResult:
    lines = _check_lines(reply.check, sent)
    lines += [f"wrote {f.path} (sha256 {f.sha256})" if f.sha256 else f"deleted {f.path}"
              for f in reply.written]  # fmt: skip
    lines += disk_lines(reply.disk)
    if reply.rolled_back:
        lines.append("a disk rung failed: the previous bytes were put back")
    if not reply.written:
        lines.append("apply: nothing was written (the checks failed)")
    else:
        lines.append(f"apply: {'ok' if reply.ok else 'FAILED after the write'}")
    return _result("\n".join(lines), reply)


def status_result(reply: StatusReply) -> CallToolResult:
    lines = [f"prewrite daemon {reply.version}, pid {reply.pid}, up {reply.uptime_s:.0f}s"]
    lines += [
        f"  {w.root} [{w.language}, {w.checker or 'checker not started'}, "
        f"{'trusted' if w.trusted else 'untrusted'}] {w.backend_state}, "
        f"{w.checks} check(s), python {w.python}"
        for w in reply.workspaces
    ]
    if not reply.workspaces:
        lines.append("  no workspace checked yet")
    return _result("\n".join(lines), reply)


def error_result(error: PrewriteError) -> CallToolResult:
    """A tool error (``isError``) carrying the stable code, the message, the details and what
    to do; never a traceback."""
    hint = ERROR_HINTS.get(error.code, ERROR_HINTS["internal_error"])
    lines = [f"error {error.code}: {error.message}"]
    lines += [f"  {d.path}: {d.message}" if d.path else f"  {d.message}" for d in error.details]
    lines.append(f"what to do: {hint}")
    structured = error_object(error)  # the CLI's --json error, with what to do
    structured["error"]["hint"] = hint
    return CallToolResult(
        content=[TextContent(type="text", text="\n".join(lines))],
        structured_content=structured,
        is_error=True,
    )


def _result(text: str, reply: Message) -> CallToolResult:
    structured = reply_fields(reply)  # the CLI's --json: the fields, no wire tag at any depth
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=structured
    )


def _check_lines(reply: CheckReply, sent: Mapping[str, str]) -> list[str]:
    lines = [f"verdict: {verdict_text(reply)}"]
    lines += [line for d in reply.diagnostics for line in diagnostic_lines(d)]
    if reply.rungs:
        lines.append(f"rungs: {rungs_line(reply.rungs)}")
    if reply.verified:
        lines.append(f"verified: {'; '.join(reply.verified)}")
    lines += [f"not verified: {line}" for line in reply.not_verified]
    lines += late_finding_lines(reply.late_findings)
    lines += [line if line.startswith(" ") else f"suppression: {line}"
              for line in suppression_lines(reply.suppressions)]  # fmt: skip
    for f in reply.files:
        if f.sha256 is None:
            lines.append(f"file {f.path}: deleted")
            continue
        reformatted = f.content is not None and f.path in sent and sent[f.path] != f.content
        lines.append(
            f"file {f.path}: sha256 {f.sha256}" + (" (reformatted)" if reformatted else "")
        )
        if reformatted and f.content is not None:
            shown = f.content[:FORMATTED_TEXT_LIMIT]
            cut = "" if len(shown) == len(f.content) else "\n[... cut; whole text in `files`]"
            lines.append(f"--- {f.path} as it would be written ---\n{shown}{cut}\n---")
    return lines
