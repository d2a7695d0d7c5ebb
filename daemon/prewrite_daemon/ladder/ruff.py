"""The format and lint rungs: ``ruff format`` and ``ruff check`` on the candidate, by stdin.

Each runs with ``--stdin-filename`` set to the file's real (absolute) path in the workspace and
the workspace as working directory, so ruff resolves the same configuration (and exclusions, via
``--force-exclude``) as CI's ``ruff`` on the tree. The ruff is the workspace interpreter's own
when it has one (the version CI pins), else the daemon's — always the daemon's in a workspace
not trusted to run its own code (``prewrite.trust``). Files run concurrently; base-text lint
results are cached by content, so a patch pays for its candidate files only.

A patch that changes ruff's own configuration (``ruff.toml`` / ``.ruff.toml`` anywhere, the
``[tool.ruff]`` table or ``requires-python`` of any ``pyproject.toml``) is also judged under its
new configuration. ruff then runs in a *patched view* (``patched_view.py``): a temporary tree
that reads like the workspace with the patch written, so ruff's own discovery (nested configs,
``extend``, relative ``exclude`` and ``per-file-ignores`` patterns, ``src`` lookups, configs
above the root) resolves exactly what it would in the patched tree, and the user's repository is
never written. (A ``--config FILE`` run
would not: it drops nested configs and resolves the file's relative paths against the working
directory.)

Lint matches CI: where ruff finds no project configuration for a file (no ``ruff.toml``,
``.ruff.toml`` or ``pyproject.toml`` with ``[tool.ruff]`` in its directory or above), the
repository never adopted ruff, and ruff's defaults (hundreds of style rules: isort, pyupgrade,
simplify, ...) would be false reds its CI never raises. There the lint rung selects only the
rules that prove breakage — syntax errors, undefined names, invalid comparisons, misplaced
statements: ``E9,F63,F7,F82``, the set CI templates run to "stop the build". With a
configuration, exactly what ``ruff check`` resolves from it.

Before ruff runs, the configurations it may open are refused when they are not regular files of
sane size, and its complaints lose the lines they quote from outside the root
(``ruff_configs.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import tomllib
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from prewrite.errors import BackendFailed
from prewrite.files import read_text
from prewrite.protocol import Diagnostic
from prewrite_daemon.backends.node import find_program
from prewrite_daemon.backends.process import run_captured
from prewrite_daemon.ladder.ruff_configs import (
    RUFF_CONFIG_FILES,
    guard_configs,
    ruff_configured,
    scrubbed,
)
from prewrite_daemon.ladder.ruff_trust import dig, extended_config
from prewrite_daemon.ladder.ruff_warm import WarmRuff

if TYPE_CHECKING:
    from prewrite_daemon.check.patch import PreparedPatch
    from prewrite_daemon.ladder.ruff_server import Finding

CONCURRENCY = 4
CONFIG_REJECTED = "config"  # the rule of the finding "ruff rejects the patch's configuration"
BREAKAGE_RULES = "E9,F63,F7,F82"  # without a ruff configuration: only what proves breakage


def ruff_executable(python: str | None) -> str:
    """The workspace's ruff (next to its interpreter) if installed, else the daemon's.

    ``python`` None: the workspace is not trusted to run its own code; the daemon's ruff lints.
    """
    mine = Path(sys.executable).parent / "ruff"
    for candidate in ([Path(python).parent / "ruff"] if python else []) + [mine]:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = find_program("ruff")  # never a repository's (node_modules/.bin, a venv's bin)
    if found is None:
        raise BackendFailed("ruff is not installed (pip install 'prewrite[daemon]')")
    return found


async def _run(argv: list[str], text: str, cwd: Path, timeout_s: float) -> tuple[int, str, str]:
    return await run_captured(argv, cwd, text, timeout_s, argv[1])


def _ruff_settings(name: str, text: str | None) -> object:
    """What ruff reads from one file (parsed), or the raw text when it does not parse."""
    if name != "pyproject.toml" and text is None:
        return None  # no file is not an empty file: an empty ruff.toml stops the discovery
    try:
        data = tomllib.loads(text or "")
    except tomllib.TOMLDecodeError:
        return text
    if name == "pyproject.toml":
        # ruff infers its target version from requires-python when the config names none.
        return dig(data, "tool", "ruff"), dig(data, "project", "requires-python")
    return data


def _extended_files(patch: PreparedPatch) -> set[Path]:
    """Every file an ``extend`` chain reaches, before or after the patch, from a configuration
    ruff may apply to the patch's files (any in their directories or above them)."""
    texts = {patch.root / e.path: (e.old_text, e.new_text) for e in patch.edits}

    def versions(path: Path) -> tuple[str | None, ...]:
        if path in texts:
            return texts[path]
        try:
            return (read_text(path, name=str(path)),)
        except UnicodeDecodeError:
            return ()

    dirs = {d for e in patch.edits for d in (patch.root / e.path).parents}
    todo = [d / name for d in dirs for name in (*RUFF_CONFIG_FILES, "pyproject.toml")]
    seen: set[Path] = set()
    reached: set[Path] = set()
    while todo and len(seen) < 1000:  # a cycle of extends is ruff's error to report
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for text in versions(path):
            target = extended_config(path, text)
            if target is not None:
                reached.add(target)
                todo.append(target)
    return reached


def linter_config_changes(patch: PreparedPatch) -> list[str]:
    """The patch's paths whose change alters ruff's configuration: created, changed, deleted —
    ``ruff.toml`` / ``.ruff.toml``, a ``pyproject.toml``'s ruff settings, a file ``extend``ed."""
    changed: list[str] = []
    extended: set[Path] | None = None
    for edit in patch.edits:
        name = PurePosixPath(edit.path).name
        if name not in (*RUFF_CONFIG_FILES, "pyproject.toml"):
            if not edit.path.endswith(".toml"):
                continue
            extended = _extended_files(patch) if extended is None else extended
            if patch.root / edit.path not in extended:
                continue
            name = "ruff.toml"  # an extended file is read as ruff settings
        if _ruff_settings(name, edit.old_text) != _ruff_settings(name, edit.new_text):
            changed.append(edit.path)
    return changed


class Ruff:
    """Format and lint texts as if they were at their path in ``root`` (or in a patched view
    of it: ``view``, where a configuration ruff rejects is a finding, not a backend failure)."""

    def __init__(self, root: Path, python: str | None, warm: bool = True) -> None:
        self.root = root
        self.exe = ruff_executable(python)
        # A warm ``ruff server`` answers for the workspace itself (never a patched view) when
        # it can; the CLI below is the reference it falls back to.
        self.warm = WarmRuff(self.exe, root, BREAKAGE_RULES) if warm else None
        self._base_lint: dict[tuple[str, str, bool], list[Diagnostic]] = {}
        self._limit = asyncio.Semaphore(CONCURRENCY)

    def format_command(self, rel: str, view: Path | None = None) -> list[str]:
        return [self.exe, "format", *self._place(rel, view)]

    def lint_command(self, rel: str, view: Path | None = None) -> list[str]:
        rules = [] if self.configured(rel, view) else ["--select", BREAKAGE_RULES]
        argv = [self.exe, "check", "--no-fix", "--output-format", "json", *rules]
        return [*argv, *self._place(rel, view)]

    def configured(self, rel: str, view: Path | None = None) -> bool:
        """Whether the workspace (or the patched view) configures ruff for ``rel``."""
        return ruff_configured((view or self.root) / rel)

    def _place(self, rel: str, view: Path | None) -> list[str]:
        # The file's absolute path: with a relative one, ruff's stdin mode never looks for a
        # configuration above the working directory, which CI's `ruff check` does (a project
        # inside a monorepo configured at its top). In a view, no cache: it would land in the
        # workspace's .ruff_cache through a link.
        where = ["--no-cache"] if view else []
        return [*where, "--force-exclude", "--stdin-filename", str((view or self.root) / rel), "-"]

    def _error(self, err: str, view: Path | None) -> str:
        """ruff's complaint, with the view's paths named as the real ones and no source lines
        quoted from a file outside the root (``_scrubbed``)."""
        text = err.strip()
        if view is not None:
            temporary = str(view).removesuffix(str(self.root))  # the view is this + the real path
            text = text.replace(temporary + "/", "/")
        return scrubbed(text, self.root)[-500:]

    async def format(
        self, rel: str, text: str, timeout_s: float, view: Path | None = None
    ) -> tuple[str | None, str]:
        """(formatted text, "") or (None, ruff's error) when ruff cannot format it."""
        guard_configs((view or self.root) / rel)
        if view is None and self.warm is not None:
            out = await self.warm.format(self.root / rel, text, timeout_s)
            if out is not None:
                return out, ""
        argv = self.format_command(rel, view)
        async with self._limit:
            code, out, err = await _run(argv, text, view or self.root, timeout_s)
        if code != 0:
            return None, self._error(err, view) or f"ruff format exited {code}"
        return out, ""

    async def lint(
        self, rel: str, text: str, timeout_s: float, view: Path | None = None
    ) -> list[Diagnostic]:
        guard_configs((view or self.root) / rel)
        if view is None and self.warm is not None:
            configured = self.configured(rel)
            found = await self.warm.lint(self.root / rel, text, timeout_s, configured)
            if found is not None:
                return _in_order([_from_server(rel, f) for f in found])
        argv = self.lint_command(rel, view)
        async with self._limit:
            code, out, err = await _run(argv, text, view or self.root, timeout_s)
        if code not in (0, 1) and view is not None:
            message = "ruff rejects the configuration after the patch: " + self._error(err, view)
            return [Diagnostic(rel, 1, 1, 1, 1, "error", CONFIG_REJECTED, message, "ruff")]
        if code not in (0, 1):
            raise BackendFailed(f"ruff check failed on {rel}: {self._error(err, None)}")
        try:
            items: list[dict[str, Any]] = json.loads(out or "[]")
        except ValueError as exc:
            raise BackendFailed(f"ruff check gave no JSON for {rel}") from exc
        return _in_order([_diagnostic(rel, item) for item in items])

    async def stop(self) -> None:
        """Stop the warm server, if one runs (the workspace is released or the daemon stops)."""
        if self.warm is not None:
            await self.warm.stop()

    async def lint_base(self, rel: str, text: str, timeout_s: float) -> list[Diagnostic]:
        key = (rel, hashlib.sha256(text.encode()).hexdigest(), self.configured(rel))
        if key not in self._base_lint:
            self._base_lint[key] = await self.lint(rel, text, timeout_s)
        return self._base_lint[key]


def _diagnostic(rel: str, item: dict[str, Any]) -> Diagnostic:
    start = item.get("location") or {"row": 1, "column": 1}
    end = item.get("end_location") or start
    return Diagnostic(
        path=rel,
        line=int(start["row"]),
        column=int(start["column"]),
        end_line=int(end["row"]),
        end_column=int(end["column"]),
        severity="error",
        rule=str(item.get("code") or "syntax"),
        message=str(item.get("message", "")),
        source="ruff",
    )


def _in_order(found: list[Diagnostic]) -> list[Diagnostic]:
    """One order for both paths: ruff's own leaves findings at one position in the order its
    checks ran, which differs between ``ruff check`` and ``ruff server``."""
    return sorted(found, key=lambda d: (d.line, d.column, d.end_line, d.end_column, d.rule))


def _from_server(rel: str, found: Finding) -> Diagnostic:
    """A server finding as the CLI words it: the CLI's JSON keeps the help line apart."""
    message = found.message.split("\n\nhelp: ", 1)[0]
    return Diagnostic(
        path=rel,
        line=found.line,
        column=found.column,
        end_line=found.end_line,
        end_column=found.end_column,
        severity="error",
        rule=found.rule or "syntax",
        message=message,
        source="ruff",
    )
