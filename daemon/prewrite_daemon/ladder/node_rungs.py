"""The format and lint rungs over a patch's JS/TS files, with the workspace's own tools.

``node_tools.py`` runs one tool on one text; this module picks the files (the JS/TS family the
patch writes), runs the formatter as a mutation and the linters for new errors only, and writes
the receipt lines: which tool judged how many files, and which files no tool judged — not
configured, configured but not installed, or a workspace not trusted to run its own code.
"""

from __future__ import annotations

import asyncio
from contextlib import nullcontext
from typing import TYPE_CHECKING

from prewrite.protocol import Diagnostic
from prewrite_daemon.check.diagnostics import introduced
from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.node_tools import is_js_family
from prewrite_daemon.ladder.patched_view import patched_view

if TYPE_CHECKING:
    from prewrite_daemon.ladder.node_tools import NodeTools, Tool
    from prewrite_daemon.limits import Deadline


def js_targets(patch: PreparedPatch) -> list[FileEdit]:
    return [e for e in patch.edits if is_js_family(e.path) and e.new_text is not None]


def untrusted_note(patch: PreparedPatch) -> list[str]:
    """The receipt line for JS/TS files in a workspace whose own tools may not run."""
    n = len(js_targets(patch))
    if not n:
        return []
    return [
        f"format/lint: {n} JS/TS file(s) not formatted or linted: the workspace's prettier, "
        "eslint and biome run its own code, and it is not trusted (prewrite trust ROOT)"
    ]


Receipt = tuple[list[str], list[str]]  # (verified lines, not-verified lines)


def node_rungs_for(
    node: NodeTools | None, wanted: list[str], trusted: bool, patch: PreparedPatch
) -> tuple[list[str], list[str]]:
    """Of the ``wanted`` rungs, those the workspace's own JS/TS tools take part in for
    ``patch``, and the receipt lines when its tools may not run (an untrusted workspace)."""
    if node is None or not wanted or not js_targets(patch):
        return [], []
    if not trusted:
        return [], untrusted_note(patch)
    return wanted, []


async def node_step(
    node: NodeTools, rung: str, patch: PreparedPatch, deadline: Deadline
) -> tuple[PreparedPatch, list[Diagnostic], Receipt]:
    """The format rung (a mutation) or the lint rung over the patch's JS/TS files."""
    if rung == "format":
        return await format_js(node, patch, deadline)
    findings, receipt = await lint_js(node, patch, deadline)
    return patch, findings, receipt


async def format_js(
    node: NodeTools, patch: PreparedPatch, deadline: Deadline
) -> tuple[PreparedPatch, list[Diagnostic], Receipt]:
    """Each JS/TS file through its formatter: (the formatted patch, findings, receipt).

    A file the formatter cannot format is a finding, unless it could not format the base either
    (then the file stays as given and the receipt says so)."""
    jobs = [(e, node.formatter(e.path)) for e in js_targets(patch)]
    jobs = [(e, t) for e, t in jobs if t is not None]

    async def one(e: FileEdit, tool: Tool) -> tuple[str | None, bool]:
        text = await node.format(tool, e.path, e.new_text or "", deadline.left())
        if text is not None or e.old_text is None:
            return text, False
        return None, await node.format(tool, e.path, e.old_text, deadline.left()) is None

    results = await asyncio.gather(*(one(e, t) for e, t in jobs))
    final: dict[str, str] = {}
    findings: list[Diagnostic] = []
    odd: list[str] = []
    for (e, tool), (text, already) in zip(jobs, results, strict=True):
        if text is not None:
            final[e.path] = text
        elif already:
            odd.append(f"format: {tool.name} cannot format {e.path}, nor its base")
        else:
            message = f"{tool.name} cannot format this file (a syntax error?)"
            findings.append(Diagnostic(e.path, 1, 1, 1, 1, "error", "format", message, tool.name))
    edits = tuple(FileEdit(e.path, e.old_text, final.get(e.path, e.new_text)) for e in patch.edits)
    changed = [final.get(e.path, e.new_text) != e.new_text for e, _ in jobs]
    verified = _tool_lines("format", [t.name for _, t in jobs], changed)
    not_verified = odd + _not_judged("format", node, patch, {e.path for e, _ in jobs})
    return PreparedPatch(patch.root, edits), findings, (verified, not_verified)


async def lint_js(
    node: NodeTools, patch: PreparedPatch, deadline: Deadline
) -> tuple[list[Diagnostic], Receipt]:
    """New errors of every configured linter on each JS/TS file: (findings, receipt)."""
    jobs = [(e, t) for e in js_targets(patch) for t in node.linters(e.path)]
    needs_view = any(t.name == "biome" for _, t in jobs)
    with patched_view(patch) if needs_view else nullcontext(None) as view:

        async def one(e: FileEdit, tool: Tool) -> list[Diagnostic]:
            candidate = node.lint(tool, e.path, e.new_text or "", deadline.left(), view)
            if e.old_text is None:
                return await candidate
            base = node.lint_base(tool, e.path, e.old_text, deadline.left())
            before, after = await asyncio.gather(base, candidate)
            return introduced(before, after, e.old_text, e.new_text)

        found = await asyncio.gather(*(one(e, t) for e, t in jobs))
    verified = _tool_lines("lint", [t.name for _, t in jobs], None)
    not_verified = _not_judged("lint", node, patch, {e.path for e, _ in jobs})
    return [d for group in found for d in group], (verified, not_verified)


def _tool_lines(rung: str, tools: list[str], changed: list[bool] | None) -> list[str]:
    lines: list[str] = []
    for name in sorted(set(tools)):
        count = tools.count(name)
        line = f"{rung}: {name} on {count} JS/TS file(s)"
        if changed is not None:
            line += f", {sum(c for t, c in zip(tools, changed, strict=True) if t == name)} changed"
        lines.append(line)
    return lines


def _not_judged(rung: str, node: NodeTools, patch: PreparedPatch, judged: set[str]) -> list[str]:
    lines: list[str] = []
    for e in js_targets(patch):
        if e.path in judged:
            continue
        missing = node.configured_but_missing(e.path)
        what = "formatter" if rung == "format" else "linter"
        why = (
            f"configured but not installed ({', '.join(missing)}: npm ci?)"
            if missing
            else f"no {what} configured (prettier, eslint, biome)"
        )
        lines.append(f"{rung}: {e.path} not judged: {why}")
    return lines
