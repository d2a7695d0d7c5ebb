"""The doctor's report as text: the setup, then one section per rung — what prewrite runs, what
CI runs, ``✗`` for each way they differ — then what stops a rung, then a one-line verdict."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from prewrite_daemon.doctor.compare import RUNG_OF

if TYPE_CHECKING:
    from prewrite_daemon.doctor.report import CiRun, Report, RungTool, Setup

RUNGS = ("format", "lint", "typecheck", "tests")
MARK = "✗"


def render(report: Report) -> str:
    lines = [f"prewrite doctor: {report.root}", "", *_setup(report.setup, report.root), ""]
    if report.ci_files:
        lines.append(f"CI files read: {', '.join(report.ci_files)}")
    else:
        lines.append(
            "CI files read: none found (workflows, pre-commit, tox, nox, Makefile, "
            "package.json): nothing to compare with"
        )
    lines += [f"  not read: {why}" for why in report.unread]
    for rung in RUNGS:
        lines += ["", *_rung(rung, report)]
    if report.problems:
        lines += ["", "problems"]
        lines += [f"  {MARK} " + p.replace("\n", "\n    ") for p in report.problems]
    lines += ["", _verdict(report)]
    return "\n".join(lines) + "\n"


def _setup(setup: Setup, root: str) -> list[str]:
    if setup.trusted:
        trust = "trusted: checks run its interpreter and its own ruff and mypy, apply its tests"
    else:
        trust = (
            "not trusted: checks run nothing of the workspace's own (prewrite's ruff, mypy "
            f"and TypeScript; no tests); `prewrite trust {root}` to trust it"
        )
        if setup.untrusted_why:
            trust += f" ({setup.untrusted_why})"
    python = f"{setup.python or 'none'}: {setup.python_note}"
    daemon = setup.daemon.note
    if setup.daemon.running:
        daemon = f"running (pid {setup.daemon.pid}, version {setup.daemon.version})"
    on_path = setup.prewrite_on_path or "not on PATH: put the venv's bin on PATH (agents call it)"
    return [
        "setup",
        f"  trust        {trust}",
        f"               the list: {setup.trust_file}",
        f"  interpreter  {python}",
        f"  daemon       {daemon}",
        f"  prewrite     {on_path}",
    ]


def _rung(rung: str, report: Report) -> list[str]:
    tools = [t for t in report.rungs if t.rung == rung]
    lines: list[str] = []
    shown_runs: set[int] = set()
    for tool in tools:
        lines += _tool(tool)
        runs = [r for r in report.ci if RUNG_OF[r.tool] == (rung, tool.tool)]
        shown_runs |= {id(r) for r in runs}
        lines += _ci_lines(runs)
        lines += [
            f"  {MARK} {m.kind}: {m.message}"
            for m in report.mismatches
            if m.rung == rung and m.tool == tool.tool
        ]
    others = [r for r in report.ci if RUNG_OF[r.tool][0] == rung and id(r) not in shown_runs]
    if others:
        lines.append(f"{rung}: CI also runs")
        lines += _ci_lines(others)
    known = {t.tool for t in tools}
    lines += [
        f"  {MARK} {m.kind}: {m.message}"
        for m in report.mismatches
        if m.rung == rung and m.tool not in known
    ]
    return lines or [f"{rung}: no tool"]


def _tool(tool: RungTool) -> list[str]:
    head = f"{tool.rung}: {tool.tool} — {tool.state}"
    version = tool.version or "version unknown"
    lines = [head, f"  prewrite   {tool.tool.split()[0]} {version} ({tool.origin or '?'})"]
    if tool.chosen_by:
        lines.append(f"  chosen by  {tool.chosen_by}")
    if tool.tool != "pytest":  # pytest finds its own configuration from the root, as in CI
        lines.append(f"  config     {tool.config or 'none (the tool defaults)'}")
    if tool.targets is not None:
        lines.append(f"  targets    {' '.join(tool.targets) or '(the configuration files)'}")
    if tool.command:
        lines.append(f"  command    {shlex.join(tool.command)}")
    lines += [f"  note       {note}" for note in tool.notes]
    return lines


def _ci_lines(runs: list[CiRun]) -> list[str]:
    if not runs:
        return ["  CI         not found in the CI files"]
    lines: list[str] = []
    for run in runs:
        version = f" [{run.version}]" if run.version else ""
        lines.append(f"  CI         {run.where}{version}: {run.command}")
    return lines


def _verdict(report: Report) -> str:
    count = len(report.mismatches)
    if report.ok:
        if not report.ci_files:
            return "prewrite doctor: no mismatch (no CI files to compare with)"
        return "prewrite doctor: ok — every rung runs what CI runs, as far as its files say"
    parts = [f"{count} mismatch(es) with CI"] if count else []
    parts += [f"{len(report.problems)} problem(s)"] if report.problems else []
    return f"prewrite doctor: {MARK} {', '.join(parts)}"
