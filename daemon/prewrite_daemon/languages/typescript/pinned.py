"""Which TypeScript judges a workspace, and prewrite's own pinned one for the untrusted.

A trusted workspace is checked with its own ``node_modules/typescript``, as its CI is. For an
untrusted one, anything node would find from the root is the repository's code: the root's
``node_modules``, an ancestor's (the monorepo layout: ``repo/node_modules`` beside
``repo/web/tsconfig.json``), or a symlink (an ``npm`` ``file:``/``link:`` dependency) that
resolves into the repository's tree. Running its ``tsserver.js`` or ``tsc`` would run the
repository. So an untrusted workspace is checked with prewrite's own TypeScript, pinned in
``prewrite_daemon/toolchain`` and installed by ``make install``, located from this package and
never from the repository; the receipt says so (``TsChoice.note``). Without the pinned one, a
TypeScript installed outside the repository's reach (a global install) still runs, as an
interpreter outside the root does; the repository's own is refused.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from prewrite.errors import ErrorDetail, InvalidWorkspace, PrewriteError, UntrustedWorkspace
from prewrite.files import read_or_none
from prewrite_daemon.backends.typescript import TypeScript, find_typescript

TOOLCHAIN = Path(__file__).resolve().parents[2] / "toolchain"
PINNED_VERSION = "5.9.3"  # the version toolchain/package.json pins (the lockfile holds it)
_MANIFEST_LIMIT = 64 * 1024


@dataclass(frozen=True)
class TsChoice:
    """The TypeScript that judges a workspace, and the receipt's line when it is not the
    workspace's own (None for a trusted workspace)."""

    ts: TypeScript
    note: str | None = None


def pinned_typescript(toolchain: Path = TOOLCHAIN) -> TypeScript | None:
    """prewrite's own TypeScript, or None when ``make install`` has not installed it (or
    installed another version than the pin)."""
    package = toolchain / "node_modules" / "typescript"
    try:
        data: object = json.loads(read_or_none(package / "package.json", _MANIFEST_LIMIT) or b"0")
    except (PrewriteError, ValueError):
        return None
    manifest = cast("dict[str, object]", data) if isinstance(data, dict) else {}
    if manifest.get("version") != PINNED_VERSION:
        return None
    ts = TypeScript(Path(os.path.realpath(package)), PINNED_VERSION, pinned=True)
    return ts if all(p.is_file() for p in ts.programs()) else None


def repository_reach(root: Path) -> Path:
    """Everything the repository holding ``root`` can have put on disk lies below this.

    Its top is unknown — ``root`` may be one package of a monorepo whose ``node_modules`` or
    ``file:`` dependency sits anywhere above it — but it is ``root`` or an ancestor, and never
    ``/``: so the highest ancestor short of ``/`` (``/home``, ``/tmp``, ``/srv``). Too wide on
    purpose: a TypeScript counted as the repository's only costs the pinned one judging.
    """
    real = Path(os.path.realpath(root))
    return Path(real.anchor, *real.parts[1:2])


def is_repository_code(ts: TypeScript, root: Path) -> bool:
    """Whether running ``ts`` could run what the repository of ``root`` put on disk: its
    package or any program of it, symlinks resolved, lies within ``repository_reach``."""
    reach = repository_reach(root)
    try:
        programs = ts.programs()
    except PrewriteError:  # a native TypeScript without its binary: its package decides
        programs = []
    for path in (ts.package, *programs):
        real = Path(os.path.realpath(path))
        if real == reach or reach in real.parents:
            return True
    return False


def choose_typescript(root: Path, trusted: bool, toolchain: Path = TOOLCHAIN) -> TsChoice:
    """The TypeScript that judges ``root``: its own when trusted; prewrite's pinned one when
    not; without the pinned one, only an install outside the repository's reach."""
    if trusted:
        return TsChoice(find_typescript(root))
    pinned = pinned_typescript(toolchain)
    try:
        own: TypeScript | None = find_typescript(root)
    except InvalidWorkspace:  # none installed, or unreadable: the pinned one needs neither
        own = None
    if pinned is not None:
        return TsChoice(pinned, _pinned_note(pinned, own))
    if own is None:
        raise UntrustedWorkspace(
            f"{root} is untrusted and prewrite's own TypeScript is not installed: run "
            f"`make install` in prewrite's checkout (or `prewrite trust {root}`)",
            [ErrorDetail(f"{TOOLCHAIN / 'node_modules' / 'typescript'} is missing")],
        )
    if is_repository_code(own, root):
        raise UntrustedWorkspace(
            f"{root} is checked with its own TypeScript ({own.package}), which is code of the "
            f"repository, and prewrite's own TypeScript is not installed: run `make install` "
            f"in prewrite's checkout to check it with that, or `prewrite trust {root}` to run "
            "the workspace's own (an untrusted workspace runs nothing of its own)",
            [ErrorDetail("node_modules/typescript is in or above the root", "tsconfig.json")],
        )
    return TsChoice(own, f"{own.label} is installed outside the repository, at {own.package}")


def _pinned_note(pinned: TypeScript, own: TypeScript | None) -> str:
    head = f"typecheck: prewrite's own TypeScript {pinned.version} judged"
    if own is None:
        return f"{head}; the workspace has no TypeScript installed"
    return f"{head}; the workspace's typescript {own.version} at {own.package} was not run"
