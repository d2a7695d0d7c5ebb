"""The format and lint rungs for the JS/TS family: the workspace's own prettier, eslint, biome.

A tool judges a file only where CI would run it: the workspace *configures* it (a config file in
the file's directory or above, up to the root) and *installs* it (``node_modules/.bin`` in the
file's directory or above: the version CI pins). Nothing is ever downloaded or taken from the
daemon: without the repository's own tool, the file is not formatted or linted, and the receipt
says so. These tools run the workspace's code (``node_modules``, JavaScript config files), so they
run only in a workspace trusted to run its own code (``prewrite trust``).

Each runs by stdin with the file's real absolute path, so it resolves the same configuration,
overrides and ignore files as CI's run over the tree:

- format, a mutation (the formatted text is what later rungs check and what is written):
  ``prettier --stdin-filepath PATH`` (when a prettier config exists), else
  ``biome format --stdin-file-path=PATH`` (when ``biome.json``/``biome.jsonc`` exists). A file
  the formatter cannot format is a finding, unless it could not format the base either.
- lint, new errors only (the base is linted too, cached by content; warnings do not fail CI, so
  they do not fail the rung): ``eslint --stdin --stdin-filename PATH --format json`` (a flat
  ``eslint.config.*``) and ``biome lint --reporter=json`` (biome lints only files: the candidate
  is written into a patched view of the workspace, ``patched_view``; the base is the file on
  disk). Both run when both are configured, as a CI running both would.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prewrite.errors import BackendFailed
from prewrite.files import read_or_none
from prewrite.protocol import Diagnostic
from prewrite_daemon.backends.process import run_captured

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

JS_FAMILY = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_PRETTIER_CONFIGS = (
    ".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml",
    ".prettierrc.json5", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs",
    ".prettierrc.ts", ".prettierrc.cts", ".prettierrc.mts", ".prettierrc.toml",
    "prettier.config.js", "prettier.config.cjs", "prettier.config.mjs", "prettier.config.ts",
    "prettier.config.cts", "prettier.config.mts",
)  # fmt: skip
_ESLINT_CONFIGS = tuple(f"eslint.config.{x}" for x in ("js", "mjs", "cjs", "ts", "mts", "cts"))
_BIOME_CONFIGS = ("biome.json", "biome.jsonc")
CONCURRENCY = 2  # node starts are heavy; two cores


def is_js_family(path: str) -> bool:
    return path.lower().endswith(JS_FAMILY)


@dataclass(frozen=True)
class Tool:
    """One configured, installed tool for a file: its name and the executable CI would run."""

    name: str  # "prettier", "eslint", "biome"
    exe: Path


class NodeTools:
    """The JS/TS tools of one workspace, resolved per file (configs can be nested)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._base_lint: dict[tuple[str, str, str], list[Diagnostic]] = {}
        self._limit = asyncio.Semaphore(CONCURRENCY)

    # --- which tools --------------------------------------------------------------------------

    def formatter(self, rel: str) -> Tool | None:
        """prettier where configured, else biome; None when neither is configured and installed."""
        if self._configured(rel, _PRETTIER_CONFIGS, "prettier"):
            return self._installed(rel, "prettier")
        if self._configured(rel, _BIOME_CONFIGS, None):
            return self._installed(rel, "biome")
        return None

    def linters(self, rel: str) -> list[Tool]:
        """eslint (flat config) and biome, each where configured and installed."""
        found: list[Tool | None] = []
        if self._configured(rel, _ESLINT_CONFIGS, None):
            found.append(self._installed(rel, "eslint"))
        if self._configured(rel, _BIOME_CONFIGS, None):
            found.append(self._installed(rel, "biome"))
        return [t for t in found if t is not None]

    def configured_but_missing(self, rel: str) -> list[str]:
        """Tools the workspace configures for ``rel`` but does not install (receipt lines)."""
        wanted = [
            ("prettier", self._configured(rel, _PRETTIER_CONFIGS, "prettier")),
            ("eslint", self._configured(rel, _ESLINT_CONFIGS, None)),
            ("biome", self._configured(rel, _BIOME_CONFIGS, None)),
        ]
        return [name for name, on in wanted if on and self._installed(rel, name) is None]

    def _dirs(self, rel: str) -> list[Path]:
        """The file's directory and every one above it, up to the root."""
        here = (self.root / rel).parent
        dirs = [here]
        while here != self.root and self.root in here.parents:
            here = here.parent
            dirs.append(here)
        return dirs

    def _configured(self, rel: str, names: Sequence[str], package_key: str | None) -> bool:
        for d in self._dirs(rel):
            if any((d / n).is_file() for n in names):
                return True
            if package_key is not None and _package_json_has(d / "package.json", package_key):
                return True
        return False

    def _installed(self, rel: str, name: str) -> Tool | None:
        for d in self._dirs(rel):
            exe = d / "node_modules" / ".bin" / name
            if exe.is_file() and os.access(exe, os.X_OK):
                return Tool(name, exe)
        return None

    # --- running them ----------------------------------------------------------------------------

    async def format(self, tool: Tool, rel: str, text: str, timeout_s: float) -> str | None:
        """The formatted text, or None when the tool cannot format it (a syntax error)."""
        path = str(self.root / rel)
        if tool.name == "prettier":
            argv = [str(tool.exe), "--stdin-filepath", path]
        else:
            argv = [str(tool.exe), "format", f"--stdin-file-path={path}"]
        code, out, _err = await self._run(argv, text, self.root, timeout_s, tool.name)
        return out if code == 0 else None

    async def lint(
        self, tool: Tool, rel: str, text: str, timeout_s: float, view: Path | None = None
    ) -> list[Diagnostic]:
        """Errors ``tool`` reports on ``text`` at ``rel`` (biome: the file at ``view``/rel, or
        the file on disk when ``view`` is None — then ``text`` must be the disk's text)."""
        if tool.name == "eslint":
            path = str(self.root / rel)
            argv = [str(tool.exe), "--stdin", "--stdin-filename", path, "--format", "json"]
            code, out, err = await self._run(argv, text, self.root, timeout_s, "eslint")
            if code not in (0, 1):
                raise BackendFailed(f"eslint failed on {rel}: {err.strip()[-500:]}")
            return _eslint_errors(rel, out)
        where = view or self.root
        argv = [str(tool.exe), "lint", "--reporter=json", "--colors=off", str(where / rel)]
        code, out, err = await self._run(argv, None, where, timeout_s, "biome")
        if code not in (0, 1):
            raise BackendFailed(f"biome lint failed on {rel}: {err.strip()[-500:]}")
        return _biome_errors(rel, out)

    async def lint_base(
        self, tool: Tool, rel: str, text: str, timeout_s: float
    ) -> list[Diagnostic]:
        key = (tool.name, rel, hashlib.sha256(text.encode()).hexdigest())
        if key not in self._base_lint:
            self._base_lint[key] = await self.lint(tool, rel, text, timeout_s)
        return self._base_lint[key]

    async def _run(
        self, argv: list[str], text: str | None, cwd: Path, timeout_s: float, what: str
    ) -> tuple[int, str, str]:
        async with self._limit:
            return await run_captured(argv, cwd, text, timeout_s, what)


def _package_json_has(path: Path, key: str) -> bool:
    """Whether ``package.json`` names ``key`` (bounded, regular files only: a hint, so an
    unreadable one names nothing)."""
    try:
        data: object = json.loads(read_or_none(path) or b"null")
    except ValueError:
        return False
    return isinstance(data, dict) and key in data


def _eslint_errors(rel: str, out: str) -> list[Diagnostic]:
    try:
        results: list[dict[str, Any]] = json.loads(out or "[]")
    except ValueError as exc:
        raise BackendFailed(f"eslint gave no JSON for {rel}") from exc
    found: list[Diagnostic] = []
    for result in results:
        for m in result.get("messages", []):
            if m.get("severity") != 2:
                continue  # warnings do not fail CI's eslint run
            line, column = int(m.get("line") or 1), int(m.get("column") or 1)
            end_line = int(m.get("endLine") or line)
            end_column = int(m.get("endColumn") or column)
            rule = str(m.get("ruleId") or "syntax")
            found.append(
                Diagnostic(rel, line, column, end_line, end_column, "error", rule,
                           str(m.get("message", "")), "eslint")
            )  # fmt: skip
    return found


def _biome_errors(rel: str, out: str) -> list[Diagnostic]:
    try:
        report: dict[str, Any] = json.loads(out or "{}")
    except ValueError as exc:
        raise BackendFailed(f"biome gave no JSON for {rel}") from exc
    found: list[Diagnostic] = []
    for d in report.get("diagnostics", []):
        if d.get("severity") not in ("error", "fatal"):
            continue
        location: dict[str, Any] = d.get("location") or {}
        start: dict[str, Any] = location.get("start") or {}
        end: dict[str, Any] = location.get("end") or start
        line, column = int(start.get("line") or 1), int(start.get("column") or 1)
        found.append(
            Diagnostic(rel, line, column, int(end.get("line") or line),
                       int(end.get("column") or column), "error",
                       str(d.get("category") or "biome"), str(d.get("message", "")), "biome")
        )  # fmt: skip
    return found
