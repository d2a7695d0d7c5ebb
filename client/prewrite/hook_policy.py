"""What the hook refuses: the workspace's ``[tool.prewrite.hook]`` and the verdict it applies.

A multi-step refactor passes through broken states (rename a function, then fix its callers),
so by default the hook refuses only what an edit breaks *in the file it edits*, and reports the
breaks it causes elsewhere as feedback the model reads while the edit goes through:

    [tool.prewrite.hook]
    block = "edited-file"   # default; "any-file": any new error refuses; "never": only report
    timeout = 60            # seconds for the check (the daemon's own deadline)

``block = "never"`` is about verdicts only: a refused path, an edit that does not anchor, or a
check that could not be done still refuses (the hook fails closed). The table is read from the
disk, like the rest of ``[tool.prewrite]``, and a patch may not change it (``forbidden_path``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from prewrite.errors import BadRequest, ErrorDetail
from prewrite.files import read_text

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import CheckReply, Diagnostic

Block = Literal["edited-file", "any-file", "never"]
BLOCK_MODES: tuple[Block, ...] = ("edited-file", "any-file", "never")
# Claude Code kills a hook after 60 s by default, and a killed hook lets the edit through: the
# README's settings give the hook 120 s, room for a cold start plus this check.
DEFAULT_TIMEOUT_S = 60.0
MAX_LISTED = 20  # diagnostics quoted per answer; the rest are counted


@dataclass(frozen=True)
class HookConfig:
    block: Block = "edited-file"
    timeout_s: float = DEFAULT_TIMEOUT_S


@dataclass(frozen=True)
class Judgement:
    """``refuse`` the edit with ``reason``, or let it through with ``feedback`` for the model."""

    refuse: bool
    reason: str = ""
    feedback: list[str] = field(default_factory=lambda: [])


def load_hook_config(root: Path) -> HookConfig:
    """``[tool.prewrite.hook]`` of ``root/pyproject.toml``; a bad value refuses (never ignored),
    and so does a ``pyproject.toml`` that is not a regular file of sane size (``UnreadableFile``:
    read bounded, never waited on)."""
    try:
        data = tomllib.loads(read_text(root / "pyproject.toml", name="pyproject.toml") or "")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        # As the daemon's ladder does: defaults, so the edit that repairs the file can pass
        return HookConfig()
    hook = _sub(_sub(data, "tool"), "prewrite").get("hook")
    if hook is None:
        return HookConfig()
    if not isinstance(hook, dict):
        raise _bad("[tool.prewrite.hook] must be a table", f"hook = {hook!r}")
    table = cast("dict[str, Any]", hook)
    unknown = sorted(set(table) - {"block", "timeout"})
    if unknown:
        raise _bad(
            "unknown keys in [tool.prewrite.hook]: " + ", ".join(unknown), "known: block, timeout"
        )
    block = table.get("block", "edited-file")
    if block not in BLOCK_MODES:
        raise _bad(
            "[tool.prewrite.hook] block must be one of " + ", ".join(BLOCK_MODES),
            f"block = {block!r}",
        )
    timeout = table.get("timeout", DEFAULT_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise _bad(
            "[tool.prewrite.hook] timeout must be a positive number of seconds",
            f"timeout = {timeout!r}",
        )
    return HookConfig(block, float(timeout))


def _sub(table: dict[str, Any], key: str) -> dict[str, Any]:
    value = table.get(key)
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def _bad(message: str, detail: str) -> BadRequest:
    return BadRequest(message, [ErrorDetail(detail, "pyproject.toml")])


def judge(reply: CheckReply, edited: str, block: Block) -> Judgement:
    """Refuse or let through, per ``block``; breaks that do not refuse become feedback."""
    errors = [d for d in reply.diagnostics if d.severity == "error"]
    here = [d for d in errors if d.path == edited]
    # parse and lint judge only the patch's own file: a failure there is the edited file's
    own_rung = reply.failed_rung not in (None, "typecheck")
    blocking = {"edited-file": here, "any-file": errors, "never": []}[block]
    if block != "never" and (blocking or own_rung):
        shown = blocking or here or errors
        reason = [
            f"it introduces {_count(shown, edited)} (caught by the "
            f"{reply.failed_rung or 'typecheck'} rung). Nothing was written; fix the edit and "
            "retry.",
            *_listed(shown),
        ]
        rest = [d for d in errors if d not in shown]
        if rest:
            reason += [f"It also introduces {_count(rest, edited)}:", *_listed(rest)]
        return Judgement(True, "\n".join(reason))
    feedback: list[str] = []
    if errors:
        feedback += [
            f"prewrite: this edit of {edited} is allowed, but it introduces "
            f"{_count(errors, edited)} (a multi-step change may pass through this; fix them "
            "next):",
            *_listed(errors),
        ]
    others = [d for d in reply.diagnostics if d.severity != "error"]
    if others:
        feedback += [f"prewrite: {len(others)} new warning(s):", *_listed(others)]
    return Judgement(False, feedback=feedback)


def _count(diagnostics: list[Diagnostic], edited: str) -> str:
    files = {d.path for d in diagnostics}
    if files == {edited}:
        where = "the file it edits"
    elif edited in files:
        where = f"{len(files)} files"
    else:
        where = f"{len(files)} other file(s)"
    return f"{len(diagnostics)} error(s) in {where}"


def _listed(diagnostics: list[Diagnostic]) -> list[str]:
    lines = [
        f"  {d.path}:{d.line}:{d.column}: {d.severity}: {d.message}"
        + (f" [{d.rule}]" if d.rule else "")
        for d in diagnostics[:MAX_LISTED]
    ]
    if len(diagnostics) > MAX_LISTED:
        lines.append(f"  ... and {len(diagnostics) - MAX_LISTED} more")
    return lines
