"""A TypeScript workspace's setup: its tsconfig chain, its TypeScript, its ``node_modules``.

The fingerprint covers what can change a TypeScript verdict without a source file changing:
``tsconfig.json``/``jsconfig.json`` and every file of its ``extends`` chain (inside or outside the
root), ``package.json`` and the lockfiles, the installed packages (each top-level package's
``package.json`` stamp, ``@scope`` packages included, and npm's own ``.package-lock.json``: an
install, removal or upgrade moves them), node, and the TypeScript that judges (the workspace's
own, or prewrite's pinned one for an untrusted workspace: ``typescript.pinned``) and its version.

The shadow's ``tsconfig.json`` is the workspace's with ``extends`` and ``references`` that leave
the root made absolute, so they still name the real files from the shadow's place.

Every file is read bounded, regular files only (``prewrite.files``): a fingerprinted file that
is a FIFO, a device or huge is ``UnreadableFile`` before anything digests it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from prewrite.files import SOURCE_LIMIT, read_or_none, regular_stat
from prewrite_daemon.backends.node import node_executable
from prewrite_daemon.languages import jsonc
from prewrite_daemon.languages.fingerprint import Fingerprint, digest_files, digest_trees
from prewrite_daemon.languages.readers import disk_reader
from prewrite_daemon.languages.typescript.pinned import TsChoice, choose_typescript
from prewrite_daemon.languages.typescript.scope import TsScope
from prewrite_daemon.languages.typescript.tsconfig import TsConfig, load_tsconfig

if TYPE_CHECKING:
    from collections.abc import Callable

    from prewrite_daemon.backends.typescript import TypeScript

TSCONFIG = "tsconfig.json"
JSCONFIG = "jsconfig.json"
LOCKFILES = ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock")
GRAPH_FILES = frozenset({"package.json", TSCONFIG, JSCONFIG, *LOCKFILES})


def is_ts_graph_file(rel: str) -> bool:
    """Root files whose change can move a TypeScript program (fingerprinted)."""
    name = rel.rsplit("/", 1)[-1]
    return rel in GRAPH_FILES or (name.startswith("tsconfig") and name.endswith(".json"))


@dataclass(frozen=True)
class TsLayout:
    root: Path
    config: TsConfig | None
    scope: TsScope
    outside: tuple[Path, ...]  # directories outside the root holding chain configs
    config_text: str | None  # the shadow's tsconfig.json (None: the root has none)

    def with_config(self, root: Path, read: Callable[[str], str | None]) -> TsLayout:
        return load_layout(root, read)


def load_layout(root: Path, read: Callable[[str], str | None]) -> TsLayout:
    config = load_tsconfig(root, read)
    chain = config.chain if config is not None else ()
    outside = tuple(
        dict.fromkeys(p.parent for p in chain if root not in p.parents and p.parent != root)
    )
    text = read(TSCONFIG)
    shadow_text = None if text is None else _absolute_outside(text, root)
    return TsLayout(root, config, TsScope(config, root), outside, shadow_text)


def _absolute_outside(text: str, root: Path) -> str:
    """The root tsconfig with relative ``extends``/``references`` that leave the root made
    absolute; unchanged (verbatim, comments kept) when none does or it cannot be parsed."""
    try:
        data = jsonc.loads(text)
    except ValueError:
        return text
    if not isinstance(data, dict):
        return text
    config = cast("dict[str, Any]", data)
    changed = False

    def fix(value: object) -> object:
        nonlocal changed
        if isinstance(value, str) and value.startswith((".", "..")):
            target = os.path.normpath(root / value)
            if not (target == str(root) or target.startswith(f"{root}{os.sep}")):
                changed = True
                return target
        return value

    extends = config.get("extends")
    if isinstance(extends, list):
        config["extends"] = [fix(v) for v in cast("list[object]", extends)]
    elif extends is not None:
        config["extends"] = fix(extends)
    refs = config.get("references")
    if isinstance(refs, list):
        for ref in cast("list[object]", refs):
            if isinstance(ref, dict):
                entry = cast("dict[str, object]", ref)
                entry["path"] = fix(entry.get("path"))
    return json.dumps(config, indent=2) if changed else text


def digest_node_modules(node_modules: Path | None) -> str:
    """Installed packages: every top-level (and ``@scope``) package's manifest stamp."""
    h = hashlib.sha256()
    if node_modules is None:
        return "none"
    for directory in (node_modules, *_scopes(node_modules)):
        try:
            names = sorted(e.name for e in os.scandir(directory) if not e.name.startswith("@"))
        except OSError:
            h.update(f"{directory}: unreadable\n".encode())
            continue
        for name in names:
            manifest = directory / name / ("" if name.startswith(".") else "package.json")
            try:
                st = manifest.stat()
            except OSError:
                st = None
            stamp = f"{st.st_mtime_ns}:{st.st_size}:{st.st_ino}" if st else "-"
            h.update(f"{directory.name}/{name}:{stamp}\n".encode())
    return h.hexdigest()[:16]


def _scopes(node_modules: Path) -> list[Path]:
    try:
        return sorted(Path(e.path) for e in os.scandir(node_modules) if e.name.startswith("@"))
    except OSError:
        return []


def _read(path: Path) -> bytes | None:
    """A cache key's bytes: a file that cannot be read keys as absent (the loader refuses it)."""
    return read_or_none(path)


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


@dataclass
class TsEnvironment:
    root: Path
    choice: TsChoice  # chosen again at every fingerprint, under the same trust
    node_modules: Path | None
    trusted: bool
    # The layout last read and the stamps it was read under: re-parsing a JSONC chain twice
    # per check cost more than the check of a body edit.
    _cached: tuple[tuple[object, ...], TsLayout] | None = None

    @property
    def ts(self) -> TypeScript:
        """The TypeScript that judges (never the repository's own when untrusted)."""
        return self.choice.ts

    @property
    def checker(self) -> str:
        return self.ts.label

    @property
    def site_dirs(self) -> list[Path]:
        return []  # node_modules is stamped per package, not watched file by file

    def layout(self) -> TsLayout:
        """The layout on disk now; re-read only when a file it came from (or could come from:
        the root's config names, the installed packages' directory) was touched."""
        if self._cached is not None:
            key, layout = self._cached
            if key == self._layout_key(layout):
                return layout
        layout = load_layout(self.root, disk_reader(self.root))
        self._cached = (self._layout_key(layout), layout)
        return layout

    def _layout_key(self, layout: TsLayout) -> tuple[object, ...]:
        """The configs' bytes (a rewrite within one mtime tick still counts) and the stamps of
        the installed packages' directory (an ``extends`` may name a package)."""
        chain = layout.config.chain if layout.config is not None else ()
        configs = [self.root / TSCONFIG, self.root / JSCONFIG, *chain]
        key: list[object] = [(str(p), _read(p)) for p in configs]
        if self.node_modules is not None:
            key += [_stamp(self.node_modules), _stamp(self.node_modules / ".package-lock.json")]
        return tuple(key)

    def fingerprint(self, outside: list[Path], libraries: int) -> Fingerprint:
        # An upgrade in place: the next checker uses it (chosen again: the same trust rules).
        self.choice = choose_typescript(self.root, self.trusted)
        layout = self.layout()
        graph = sorted(p for p in self.root.iterdir() if p.is_file() and is_ts_graph_file(p.name))
        chain = list(layout.config.chain) if layout.config is not None else []
        for path in [*graph, *chain]:  # digested whole below (a lockfile can be tens of MB)
            regular_stat(path, SOURCE_LIMIT, name=path.name)
        try:
            node = os.path.realpath(node_executable())
            st = os.stat(node)
            interpreter = f"{node}:{st.st_mtime_ns}:{st.st_size}"
        except OSError as exc:
            interpreter = f"node: {exc}"
        return Fingerprint(
            (
                ("config", digest_files([*graph, *chain])),
                ("interpreter", interpreter),
                ("packages", digest_node_modules(self.node_modules)),
                ("checker", f"{self.ts.label} at {self.ts.package}"),
                ("outside", digest_trees(outside)),
                ("libraries", str(libraries)),
            )
        )

    def links(self) -> dict[str, Path]:
        return {"node_modules": self.node_modules} if self.node_modules else {}

    def untrusted_note(self) -> str:
        return self.choice.note or f"{self.ts.label} at {self.ts.package}"
