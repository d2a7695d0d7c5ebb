"""Where a rung and CI part ways: the seed's "the loop's command and CI's resolve to the same
configuration", checked.

A mismatch is a reason the ladder's verdict can differ from CI's: CI runs the tool at another
version (a pin, a hook's ``rev``; or, unpinned, the workspace's installed one prewrite does not
run); CI runs a type checker prewrite does not judge with, or prewrite judges with one CI does
not run; a rung is off that CI runs; CI names a configuration file other than the one prewrite
reads; CI's mypy targets differ; CI passes settings on the command line (``--strict``), which
prewrite never does — its tools read the repository's configuration files alone.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import msgspec

from prewrite_daemon.doctor.report import Mismatch, RungTool

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from prewrite_daemon.ci.runs import CiPin, CiRun

# CI's tool -> (the rung, the rung's tool that answers for it; "" when none does)
RUNG_OF = {
    "ruff format": ("format", "ruff format"),
    "ruff check": ("lint", "ruff check"),
    "mypy": ("typecheck", "mypy"),
    "pyright": ("typecheck", "pyright"),
    "basedpyright": ("typecheck", "basedpyright"),
    "ty": ("typecheck", "ty"),
    "pyrefly": ("typecheck", "pyrefly"),
    "tsc": ("typecheck", "typescript"),
    "pytest": ("tests", "pytest"),
}
PACKAGE_OF = {
    "ruff format": "ruff",
    "ruff check": "ruff",
    "mypy": "mypy",
    "pyright": "pyright",
    "basedpyright": "basedpyright",
    "ty": "ty",
    "pyrefly": "pyrefly",
    "typescript": "typescript",
    "pytest": "pytest",
}
PYTHON_CHECKERS = ("mypy", "pyright", "basedpyright", "ty", "pyrefly")
WHERE = "{where}"  # in a message: the places of CI it was found at (``merged``)


def mismatches(
    root: Path, rungs: list[RungTool], runs: list[CiRun], pins: list[CiPin]
) -> list[Mismatch]:
    """Every way ``rungs`` differ from what CI runs (``runs``) and installs (``pins``)."""
    found = [*_versions(rungs, pins), *_checkers(rungs, runs), *_rungs_off(rungs, runs)]
    found += _extra_targets(rungs, runs)
    for run in runs:
        tool_name = RUNG_OF[run.tool][1]
        tool = next((t for t in rungs if t.tool == tool_name and _on(t)), None)
        if tool is not None:
            found += _config(root, tool, run) + _targets(tool, run) + _flags(tool, run)
    return merged(found)


def merged(found: list[Mismatch]) -> list[Mismatch]:
    """One mismatch per difference: the same one found at several places of CI is said once,
    naming every place (a message's ``{where}``)."""
    groups: dict[tuple[str, str, str, str], list[Mismatch]] = {}
    for m in found:
        groups.setdefault((m.rung, m.kind, m.tool, m.message), []).append(m)
    result: list[Mismatch] = []
    for group in groups.values():
        places = list(dict.fromkeys(m.where for m in group if m.where))
        message = group[0].message.replace(WHERE, ", ".join(places))
        result.append(msgspec.structs.replace(group[0], message=message))
    return result


def _on(tool: RungTool) -> bool:
    return tool.state.startswith("on")


def _versions(rungs: list[RungTool], pins: list[CiPin]) -> Iterator[Mismatch]:
    for tool in rungs:
        package = PACKAGE_OF.get(tool.tool)
        if package is None or not _on(tool) or tool.version is None:
            continue
        pinned = [p for p in pins if p.package == package]
        seen: set[str] = set()
        for pin in pinned:
            if pin.version == tool.version or pin.version in seen:
                continue
            seen.add(pin.version)
            more = sum(p.version == pin.version for p in pinned) - 1
            also = f" and {more} more place(s)" if more else ""
            yield Mismatch(
                tool.rung,
                "version",
                f"CI runs {package} {pin.version} ({pin.where}"
                f"{also}); prewrite runs {tool.version} ({tool.origin})",
                pin.where,
                tool.tool,
            )
        if not pinned and tool.workspace_version is not None:
            yield Mismatch(
                tool.rung,
                "version",
                f"the workspace has {package} "
                f"{tool.workspace_version} installed; prewrite runs {tool.version} "
                f"({tool.origin}): `prewrite trust` lets it run the workspace's own",
                None,
                tool.tool,
            )


def _checkers(rungs: list[RungTool], runs: list[CiRun]) -> Iterator[Mismatch]:
    """Type checkers CI runs that do not judge, and judges CI does not run."""
    judges = {t.tool: t for t in rungs if t.rung == "typecheck" and _on(t)}
    ci_python = [r for r in runs if r.tool in PYTHON_CHECKERS]
    for run in ci_python + [r for r in runs if r.tool == "tsc"]:
        name = "typescript" if run.tool == "tsc" else run.tool
        if name in judges or not judges:
            continue  # judged, or the rung is off (``_rungs_off`` says so)
        if run.tool == "tsc":
            why = (
                "prewrite judges TypeScript where tsconfig.json or jsconfig.json is at the "
                "root: run it with the directory CI checks as the root"
            )
        else:
            chosen = ", ".join(f"{t.tool} ({t.chosen_by})" for t in judges.values())
            why = (
                f"prewrite judges with {chosen}: configure {run.tool} in the repository "
                f"([tool.{run.tool}]) or name it in [tool.prewrite] typecheck"
            )
        yield Mismatch("typecheck", "checker", f"CI runs {run.tool} ({WHERE}); {why}", run.where)
    ran = {r.tool for r in ci_python}
    if not ran or not ran <= set(judges):
        return  # nothing to compare with, or said above: CI's checker does not judge
    for name, tool in judges.items():
        if name in PYTHON_CHECKERS and name not in ran:
            yield Mismatch(
                "typecheck",
                "checker",
                f"prewrite judges with {name} "
                f"({tool.chosen_by}), which CI does not run (CI runs "
                f"{', '.join(sorted(ran))}): its errors are errors CI never reports",
                None,
                name,
            )


def _rungs_off(rungs: list[RungTool], runs: list[CiRun]) -> Iterator[Mismatch]:
    """A rung that is off while CI runs its tool (the tests rung aside: it is off by trust)."""
    for rung in ("format", "lint", "typecheck"):
        tools = [t for t in rungs if t.rung == rung]
        if not tools or any(_on(t) for t in tools):
            continue
        ran = [r for r in runs if RUNG_OF[r.tool][0] == rung]
        if ran:
            for run in ran:
                yield Mismatch(
                    rung,
                    "rung",
                    f"the {rung} rung is {tools[0].state}, but CI runs {run.tool} ({WHERE})",
                    run.where,
                )


def _config(root: Path, tool: RungTool, run: CiRun) -> list[Mismatch]:
    if run.config is None:
        if tool.tool == "ruff check" and tool.config is None and not run.flags:
            return [
                Mismatch(
                    "lint",
                    "config",
                    f"CI's ruff check ({WHERE}) runs ruff's own "
                    "defaults; with no ruff configuration prewrite selects only the "
                    "breakage rules: add a [tool.ruff] table so both read it",
                    run.where,
                    tool.tool,
                )
            ]
        return []
    theirs = _project_file(root, run.config, tool.tool)
    if theirs == tool.config:
        return []
    mine = tool.config or "no configuration file (the tool's defaults)"
    return [
        Mismatch(
            tool.rung,
            "config",
            f"CI's {run.tool} reads {run.config} ({WHERE}); prewrite's reads {mine}",
            run.where,
            tool.tool,
        )
    ]


def _project_file(root: Path, named: str, tool: str) -> str:
    """The file a ``-p DIR`` (pyright, tsc) or ``--project DIR`` (ty) reads; a file as named."""
    if named in (".", "") or os.path.isdir(root / named):
        base = "" if named in (".", "") else named + "/"
        if tool == "typescript":
            return base + "tsconfig.json"
        if tool in ("pyright", "basedpyright"):
            found = "pyrightconfig.json" if (root / base / "pyrightconfig.json").is_file() else ""
            return base + (found or "pyproject.toml")
        if tool == "ty":
            return base + ("ty.toml" if (root / base / "ty.toml").is_file() else "pyproject.toml")
    return named


def _targets(tool: RungTool, run: CiRun) -> list[Mismatch]:
    """What one CI mypy run checks and prewrite's targets do not cover (a break there would be
    answered green). prewrite checks every CI run's targets at once (``mypy_ci``), so checking
    more than one run names is no mismatch; what no run names is ``_extra_targets``'."""
    if tool.targets is None or not run.targets or "." in run.targets:
        return []  # not mypy; targets unknown or given by the configuration; the whole root
    missing = [t for t in run.targets if not _covered(t, tool.targets)]
    if not missing:
        return []
    mine = ", ".join(tool.targets) or "the files its configuration names"
    return [
        Mismatch(
            "typecheck",
            "targets",
            f"CI's mypy checks {', '.join(missing)} ({WHERE}); prewrite's checks {mine}",
            run.where,
            "mypy",
        )
    ]


def _extra_targets(rungs: list[RungTool], runs: list[CiRun]) -> list[Mismatch]:
    """prewrite's mypy targets no CI mypy run names (its reds there are not CI's)."""
    tool = next((t for t in rungs if t.tool == "mypy" and _on(t)), None)
    named = [r for r in runs if r.tool == "mypy" and r.targets]
    if tool is None or tool.targets is None or not named:
        return []
    ci = [t for r in named for t in r.targets or ()]
    extra = [t for t in tool.targets if not _covered(t, ci)]
    if not extra:
        return []
    places = ", ".join(dict.fromkeys(r.where for r in named if r.where))
    return [
        Mismatch(
            "typecheck",
            "targets",
            f"prewrite's mypy checks {', '.join(extra)}, which no CI mypy run checks ({places})",
            "",
            "mypy",
        )
    ]


def _covered(target: str, within: list[str]) -> bool:
    """``target`` is one of ``within`` or lies under one of them (``.``: the whole root)."""
    t = target.rstrip("/")
    return any(w in (".", "") or t == w.rstrip("/") or t.startswith(w.rstrip("/") + "/")
               for w in within)  # fmt: skip


def _flags(tool: RungTool, run: CiRun) -> list[Mismatch]:
    """CI's command-line settings prewrite's command does not carry (mypy follows some:
    ``languages.python.mypy_ci``)."""
    missing = [f for f in run.flags if not _carried(f, tool.command)]
    if not missing or run.tool == "pytest":
        return []
    home = tool.config or "a configuration file"
    return [
        Mismatch(
            tool.rung,
            "flags",
            f"CI passes {' '.join(missing)} on {run.tool}'s "
            f"command line ({WHERE}); prewrite does not pass them, its "
            f"{tool.tool} reads {home} for them: put them there so both read them",
            run.where,
            tool.tool,
        )
    ]


def _carried(flag: str, command: list[str]) -> bool:
    """``flag`` (``--name value``) is on ``command``, as two words or as ``--name=value``."""
    words = flag.split(" ")
    joined = "=".join(words) if len(words) == 2 else None
    return joined in command or any(
        command[i : i + len(words)] == words for i in range(len(command))
    )
