"""TypeScript's checkers: the workspace's own ``typescript`` package, warm and cold.

Like an editor, prewrite uses the TypeScript a trusted workspace installed
(``node_modules/typescript``, found where node would find it: the root or an ancestor), so a
verdict never differs from what the repository's CI runs; an untrusted workspace is checked with
prewrite's own (``languages/ts_pinned.py``). TypeScript 7 and later is native and speaks LSP:
``tsc --lsp --stdio``, pull diagnostics announced in its initialize result, new unsaved modules
resolved from open documents. TypeScript 5.x and 6.x have no LSP server: their ``tsserver`` is
driven directly (``tsserver.py``), which is synchronous per request, so no answer can predate the
overlays sent before it. A trusted workspace without its own TypeScript gets an error naming the
fix.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prewrite.errors import BackendFailed, InvalidWorkspace
from prewrite.files import read_text
from prewrite_daemon.backends.lsp_process import LspProcess
from prewrite_daemon.backends.lsp_types import ServerQuirks
from prewrite_daemon.backends.node import node_executable
from prewrite_daemon.backends.process import run_captured
from prewrite_daemon.backends.tsc_output import parse_tsc_output

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite_daemon.backends.base import Backend, RawDiagnostic

_LANGUAGE_IDS = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescriptreact",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascriptreact",
}


def _language_id(path: str) -> str:
    return _LANGUAGE_IDS.get(os.path.splitext(path)[1], "typescript")


# tsc --lsp announces pull diagnostics in its initialize result and pushes nothing we need.
TSC_LSP_QUIRKS = ServerQuirks(language_id=_language_id, pull="static")
# Like an editor, tsc --lsp shows style checks (noUnusedLocals, noImplicitReturns, ...) as
# warnings unless told otherwise; tsc reports them as errors, and so must a verdict.
_AS_TSC = {"reportStyleChecksAsWarnings": False}


def _tsc_lsp_settings(section: str | None) -> object:
    return _AS_TSC if section in ("js/ts", "typescript", "javascript") else None


@dataclass(frozen=True)
class TypeScript:
    """One installed ``typescript`` package."""

    package: Path  # the package directory (symlinks resolved)
    version: str
    pinned: bool = False  # prewrite's own (``typescript.pinned``), not the workspace's

    @property
    def major(self) -> int:
        head = self.version.split(".", 1)[0]
        return int(head) if head.isdigit() else 0

    @property
    def native(self) -> bool:
        """TypeScript 7+: a native binary with ``--lsp``."""
        return self.major >= 7

    @property
    def label(self) -> str:
        engine = "tsc --lsp" if self.native else "tsserver"
        owner = ", prewrite's own" if self.pinned else ""
        return f"typescript {self.version} ({engine}{owner})"

    def programs(self) -> list[Path]:
        """Every file the daemon would execute for this package, warm or cold (unresolved)."""
        if self.native:
            return [self.native_exe()]
        return [self.package / "lib" / "tsserver.js", self.package / "lib" / "tsc.js"]

    def native_exe(self) -> Path:
        """The platform binary the ``tsc`` shim runs (``@typescript/typescript-<os>-<arch>``)."""
        arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(
            platform.machine().lower(), platform.machine().lower()
        )
        name = f"typescript-{sys.platform}-{arch}"
        for base in (self.package, *self.package.parents):
            exe = base / "node_modules" / "@typescript" / name / "lib" / "tsc"
            if exe.is_file():
                return exe
        raise BackendFailed(
            f"TypeScript {self.version}'s native compiler @typescript/{name} is not installed "
            f"next to {self.package}; run `npm install` in the workspace"
        )

    def cold_argv(self, project: str) -> list[str]:
        """``tsc --noEmit`` of the project file ``project``, plain output (the oracle)."""
        flags = ["--noEmit", "-p", project, "--pretty", "false"]
        if self.native:
            return [str(self.native_exe()), *flags]
        return [node_executable(), str(self.package / "lib" / "tsc.js"), *flags]


def find_typescript(root: Path) -> TypeScript:
    """The workspace's own TypeScript: ``node_modules/typescript`` of the root or an ancestor."""
    for base in (root, *root.parents):
        manifest = base / "node_modules" / "typescript" / "package.json"
        if manifest.is_file():
            try:
                version = str(json.loads(read_text(manifest) or "")["version"])
            except (OSError, ValueError, KeyError) as exc:
                raise InvalidWorkspace(f"unreadable {manifest}: {exc}") from exc
            return TypeScript(manifest.parent.resolve(), version)
    raise InvalidWorkspace(
        f"{root} has a tsconfig.json but no TypeScript installed: run `npm install` there "
        "(its package.json should list typescript), so prewrite checks with the version the "
        "repository's CI uses"
    )


def nearest_node_modules(root: Path) -> Path | None:
    """Where node resolves packages from ``root``: its own ``node_modules`` or an ancestor's."""
    for base in (root, *root.parents):
        candidate = base / "node_modules"
        if candidate.is_dir():
            return candidate
    return None


def make_typescript_backend(ts: TypeScript, shadow_root: Path) -> Backend:
    """A warm checker over the shadow: ``tsc --lsp`` (7+) or ``tsserver`` (5.x, 6.x)."""
    env = dict(os.environ, NODE_OPTIONS="--max-old-space-size=4096")
    if ts.native:
        argv = [str(ts.native_exe()), "--lsp", "--stdio"]
        return LspProcess(argv, shadow_root, _tsc_lsp_settings, env, TSC_LSP_QUIRKS)
    from prewrite_daemon.backends.tsserver import TsServerProcess
    from prewrite_daemon.backends.tsserver_wire import tsserver_argv

    return TsServerProcess(tsserver_argv(ts.package), shadow_root, env)


async def cold_tsc(
    ts: TypeScript, tree: Path, project: str, timeout_s: float
) -> dict[str, list[RawDiagnostic]]:
    """Cold ``tsc --noEmit -p project`` on ``tree``: diagnostics per tree-relative path."""
    code, out, err = await run_captured(
        ts.cold_argv(project), tree, None, timeout_s, "the cold tsc run"
    )
    if code not in (0, 1, 2):  # 1/2: diagnostics were reported; anything else is a crash
        raise BackendFailed(f"tsc exited {code}: {(err or out)[-500:]}")
    return parse_tsc_output(out, tree)
