"""The commands in composed YAML: a GitHub workflow's ``run:`` lines and its ruff and pyright
actions, and a pre-commit configuration's hooks.

Only the paths that hold commands are walked (``jobs.*.steps[*]``, ``repos[*].hooks[*]``), node
by node, so a document of aliases costs no more than its text. Lines are the nodes' own marks:
a ``run: |`` block's commands are numbered from the line after the ``|``; a folded (``>``)
block is one command at its first line.
"""

from __future__ import annotations

import re
import shlex

import msgspec
import yaml

from prewrite_daemon.ci.commands import invocation, pins_in, recognise
from prewrite_daemon.ci.runs import CiPin, CiRun

# pre-commit hook repositories prewrite knows: (part of the repo URL, {hook id: tool}, package)
KNOWN_HOOKS = (
    (
        "ruff-pre-commit",
        {"ruff": "ruff check", "ruff-check": "ruff check", "ruff-format": "ruff format"},
        "ruff",
    ),
    ("mirrors-mypy", {"mypy": "mypy"}, "mypy"),
    ("pyright-python", {"pyright": "pyright"}, "pyright"),
    ("basedpyright", {"basedpyright": "basedpyright"}, "basedpyright"),
    ("astral-sh/ty-pre-commit", {"ty": "ty"}, "ty"),
    (
        "pyrefly-pre-commit",  # facebook/pyrefly-pre-commit: `pyrefly-check` since 0.42.0
        {
            "pyrefly-check": "pyrefly",
            "pyrefly-typecheck-system": "pyrefly",
            "pyrefly-typecheck-specific-version": "pyrefly",
        },
        "pyrefly",
    ),
)
# Hooks whose ``rev`` is the hook's own version, not the tool's: pyrefly-pre-commit 0.0.1's (the
# system one runs the pyrefly on PATH, the other the one in its additional_dependencies).
REV_IS_NOT_THE_TOOLS = {"pyrefly-typecheck-system", "pyrefly-typecheck-specific-version"}
# Hooks whose ``args`` go to a wrapper, not to the tool: ty-pre-commit's entry is
# `uv check --ty-version=X`, its args are uv's (`--isolated`, `--group`), never ty's settings.
ARGS_ARE_NOT_THE_TOOLS = {"ty"}
# mirrors-mypy's hook passes these when the configuration gives no ``args`` (its README).
MIRROR_MYPY_ARGS: tuple[str, ...] = ("--ignore-missing-imports",)
_VERSION = re.compile(r"^v?(\d+(?:\.\d+)+[\w.+-]*)$")

Lines = list[tuple[int, str, str]]  # (line, command, root-relative working directory)


def _map(node: yaml.Node | None) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
    return {k.value: v for k, v in pairs if isinstance(k, yaml.ScalarNode)}


def _seq(node: yaml.Node | None) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _scalar(node: yaml.Node | None) -> str | None:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else None


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def exact_version(text: str | None) -> str | None:
    """``v0.6.9`` -> ``0.6.9``; None for a range, a branch, a SHA or ``latest``."""
    found = _VERSION.match(text.strip()) if text else None
    return found.group(1) if found else None


def _workdir(table: dict[str, yaml.Node], inherited: str = "") -> str:
    """``defaults.run.working-directory`` (or a step's own), unless it is an expression."""
    named = _scalar(table.get("working-directory"))
    named = named or _scalar(_map(_map(table.get("defaults")).get("run")).get("working-directory"))
    return named if named and "$" not in named else inherited


def _steps(node: yaml.Node | None) -> list[tuple[dict[str, yaml.Node], str]]:
    """Every step of every job, with the working directory it runs in."""
    top = _map(node)
    steps: list[tuple[dict[str, yaml.Node], str]] = []
    for job in _map(top.get("jobs")).values():
        table = _map(job)
        workdir = _workdir(table, _workdir(top))
        steps += [(_map(step), workdir) for step in _seq(table.get("steps"))]
    return steps


def run_lines(node: yaml.Node | None) -> Lines:
    """The commands of every ``run:`` step, one per logical line (``\\`` continuations joined)."""
    found: Lines = []
    for step, workdir in _steps(node):
        run = step.get("run")
        if not isinstance(run, yaml.ScalarNode):
            continue
        workdir = _workdir(step, workdir)
        block = run.style in ("|", ">")
        first = _line(run) + (1 if block else 0)
        if run.style == ">":
            found.append((first, str(run.value), workdir))
            continue
        lines = str(run.value).splitlines()
        i = 0
        while i < len(lines):
            start, text = i, lines[i]
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i]
            i += 1
            if text.strip():
                found.append((first + start, text, workdir))
    return found


def action_runs(rel: str, node: yaml.Node | None) -> tuple[list[CiRun], list[CiPin]]:
    """Steps that use a ruff action (``astral-sh/ruff-action``: ``args``, ``src``, ``version``)
    or a pyright action (``jakebailey/pyright-action``: ``version``, ``project``)."""
    runs: list[CiRun] = []
    pins: list[CiPin] = []
    for step, workdir in _steps(node):
        uses = step.get("uses")
        name = _scalar(uses) or ""
        if uses is None or not ("ruff-action" in name or "pyright-action" in name):
            continue
        given = _map(step.get("with"))
        where = f"{rel}:{_line(uses)}"
        version = exact_version(_scalar(given.get("version")))
        if "ruff-action" in name:
            words = ["ruff", *_split(_scalar(given.get("args")) or "check")]
            words += _split(_scalar(given.get("src")) or "")
            package = "ruff"
        else:
            project = _scalar(given.get("project"))
            words = ["pyright", *(["-p", project] if project else [])]
            package = "pyright"
        run = recognise(words, where, _workdir(step, workdir))
        if run is not None:
            runs.append(msgspec.structs.replace(run, command=f"uses: {name}", version=version))
        pins += [CiPin(package, version, where)] if version else []
    return runs, pins


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def hook_runs(rel: str, node: yaml.Node | None) -> tuple[list[CiRun], list[CiPin]]:
    """pre-commit hooks that run a known tool: a known hook repository's (its ``rev`` is the
    version, unless the hook says ``language: system``: then the tool on PATH runs), or a
    ``local`` hook whose ``entry`` runs one. A hook is given the changed files unless
    ``pass_filenames: false``, so its targets are unknown then. A pin of the hook's own tool in
    its ``additional_dependencies`` is the version it runs (other packages there are only
    installed beside it, never run by CI: not pins)."""
    runs: list[CiRun] = []
    pins: list[CiPin] = []
    for repo in _seq(_map(node).get("repos")):
        table = _map(repo)
        url = _scalar(table.get("repo")) or ""
        rev = exact_version(_scalar(table.get("rev")))
        known = next(((ids, pkg) for part, ids, pkg in KNOWN_HOOKS if part in url), None)
        for hook in _seq(table.get("hooks")):
            run, pinned = _hook_run(rel, hook, url, rev, known)
            runs += [run] if run is not None else []
            pins += pinned
    return runs, pins


def _hook_run(
    rel: str,
    hook: yaml.Node,
    url: str,
    rev: str | None,
    known: tuple[dict[str, str], str] | None,
) -> tuple[CiRun | None, list[CiPin]]:
    table = _map(hook)
    hook_id = _scalar(table.get("id")) or ""
    where = f"{rel}:{_line(hook)}"
    given = [a for a in (_scalar(n) for n in _seq(table.get("args"))) if a is not None]
    deps = [_scalar(n) or "" for n in _seq(table.get("additional_dependencies"))]
    installed = pins_in(deps, where)
    if known is not None and hook_id in known[0]:
        tool, package = known[0][hook_id], known[1]
        pinned = [p for p in installed if p.package == package]
        system = _scalar(table.get("language")) == "system" or hook_id in REV_IS_NOT_THE_TOOLS
        version = pinned[0].version if pinned else None if system else rev
        args = given if "args" in table or tool != "mypy" else list(MIRROR_MYPY_ARGS)
        text = f"pre-commit hook {hook_id} ({url}@{rev or '?'}) {shlex.join(args)}".strip()
        args = [] if hook_id in ARGS_ARE_NOT_THE_TOOLS else args
        run = invocation(tool, args, where, text, version, "", targets_known=False)
        return run, pinned or ([CiPin(package, version, where)] if version else [])
    entry = _scalar(table.get("entry"))
    run = recognise([*_split(entry), *given], where) if entry else None
    if run is None:
        return None, []
    package = "typescript" if run.tool == "tsc" else run.tool.split()[0]
    pinned = [p for p in installed if p.package == package]
    version = run.version or (pinned[0].version if pinned else None)
    targets = run.targets if _scalar(table.get("pass_filenames")) == "false" else None
    return msgspec.structs.replace(run, version=version, targets=targets), pinned
