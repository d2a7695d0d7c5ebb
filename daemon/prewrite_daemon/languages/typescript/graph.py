"""Which TypeScript/JavaScript files may see a change to another: the reverse import graph.

It must over-approximate, never under: a missed importer is a wrong green. What each file
imports, whether it is a module and whether it reaches beyond its importers comes from its
syntax tree (``typescript/syntax.py``, where the modelled fragment is written down); a file the
parser does not fully understand depends on every file and reaches every file. A specifier resolves
to every path TypeScript *could* pick, without asking the file system: each extension substitution
(``./a.js`` may be ``a.ts``, ``a.d.ts`` beside ``a.js``), ``.json`` modules, index files and the
whole directory (its ``package.json`` may point anywhere inside), ``paths``, ``baseUrl``,
``rootDirs`` and ``moduleSuffixes``. A file that does not exist yet is therefore already a
candidate, and new and deleted files need no special case. The implicit imports count too: the
JSX runtime (``jsx: react-jsx``, ``jsxImportSource``) and ``tslib`` (``importHelpers``).

A bare specifier naming another package is external (``node_modules`` is outside the graph),
unless it is the project's own package (a self-reference through ``exports``), a ``#`` subpath
import (``package.json`` ``imports``) or a workspace package linked into ``node_modules`` from
inside the root. A self-reference or ``#`` import of the root package may reach any file: the
importer depends on every file. A workspace package or a nested package depends on its directory.

Global reach. A script (no module syntax), a declaration file, ``declare global``, ``declare
module``, ``export as namespace`` and triple-slash references act on the whole program: such a
file changed reaches every file (``reaches_everything``, asked of the patched texts). Such a file
*among the importers* of a change passes it on to every file when what it declares globally may
be built from what it imports (``declare global { var g: T }`` with ``T`` imported; a script's
``import("x")`` types; ``export as namespace``): ``importers`` then answers every file. A global
block that mentions nothing the module imports or declares does not
(``typescript/global_reach.py``).
"""

from __future__ import annotations

import posixpath
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.languages.base import PlanningBudgetExceeded
from prewrite_daemon.languages.typescript.packages import PackageIndex
from prewrite_daemon.languages.typescript.scope import SOURCE_SUFFIXES
from prewrite_daemon.languages.typescript.syntax import read_module, uses_tsx_grammar

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from prewrite_daemon.languages.typescript.tsconfig import TsConfig

_EXTENSIONS = (*SOURCE_SUFFIXES, ".json")
_STRIPPED = (".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs")
_STRIPPED_MORE = (".cjs", ".json")
_DECLARATION = (".d.ts", ".d.mts", ".d.cts")
_AUTOMATIC_JSX = ("react-jsx", "react-jsxdev")


def is_declaration(rel: str) -> bool:
    """``.d.ts`` and friends, ``a.d.css.ts`` (arbitrary extensions) included."""
    name = rel.rsplit("/", 1)[-1]
    return name.endswith(_DECLARATION) or (".d." in name and name.endswith(".ts"))


def reaches_everything(rel: str, text: str | None) -> bool:
    """Whether a change to ``rel`` can reach files with no import edge to it (errs on True).

    Declaration files, scripts (no module syntax: their declarations are global), ``declare
    global``/``declare module``, ``export as namespace`` and triple-slash references all act on
    the whole program, as does any text the parser does not fully understand. An unknown text
    (``None``) may be any of them.
    """
    if not rel.endswith(SOURCE_SUFFIXES):
        return False
    if is_declaration(rel) or text is None:
        return True
    return read_module(rel, text).reaches_everything


def package_name(specifier: str) -> str:
    """``@scope/name/sub`` -> ``@scope/name``; ``name/sub`` -> ``name``."""
    parts = specifier.split("/")
    return "/".join(parts[:2] if specifier.startswith("@") else parts[:1])


def _strings(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [v for v in cast("list[object]", value) if isinstance(v, str)]


def _strip_extension(path: str) -> str:
    for suffix in _STRIPPED + _STRIPPED_MORE:
        if path.endswith(suffix):
            return path.removesuffix(suffix)
    return path


def _implicit_imports(options: dict[str, Any], jsx: bool) -> tuple[tuple[str, str], ...]:
    """Imports no statement spells: ``tslib`` under ``importHelpers``, and for a file that may
    hold JSX (``jsx``) the automatic JSX runtime."""
    found: list[tuple[str, str]] = [("module", "tslib")] if options.get("importHelpers") else []
    source = options.get("jsxImportSource")
    if jsx and (options.get("jsx") in _AUTOMATIC_JSX or isinstance(source, str)):
        base = source if isinstance(source, str) else "react"
        found += [("module", f"{base}/jsx-runtime"), ("module", f"{base}/jsx-dev-runtime")]
    return tuple(found)


@dataclass
class _Deps:
    exact: set[str] = field(default_factory=set[str])  # root-relative files
    prefixes: set[str] = field(default_factory=set[str])  # "dir/": every file below
    everything: bool = False


class TsImportGraph:
    """Reverse dependencies between the root's TS/JS files under one configuration."""

    def __init__(self, config: TsConfig | None, root: Path) -> None:
        self._root = root.as_posix()
        options = config.options if config else {}
        self._base_url = self._inside(config.base_url) if config and config.base_url else None
        self._paths = [
            (pattern, [t for t in targets if self._inside(t.replace("*", "x")) is not None])
            for pattern, targets in (config.paths if config else {}).items()
        ]
        self._root_dirs = self._inside_all(options.get("rootDirs"))
        self._type_roots = self._inside_all(options.get("typeRoots"))
        # moduleSuffixes [".ios", ""]: ./a may be a.ios.ts; the plain name is always kept.
        self._suffixes = list(dict.fromkeys(["", *_strings(options.get("moduleSuffixes"))]))
        self._packages = PackageIndex(self._root)
        self._deps: dict[str, _Deps] = {}
        self._by_exact: defaultdict[str, set[str]] = defaultdict(set)
        self._by_prefix: defaultdict[str, set[str]] = defaultdict(set)
        self._everything: set[str] = set()  # files that depend on every file
        self._global: set[str] = set()  # files a change to their imports passes to every file
        self._implicit = {jsx: _implicit_imports(options, jsx) for jsx in (False, True)}

    def update(self, rel: str, source: str | None) -> None:
        """Record (or, with ``None``, forget) what one file may depend on."""
        old = self._deps.pop(rel, None)
        if old is not None:
            for path in old.exact:
                self._by_exact[path].discard(rel)
            for prefix in old.prefixes:
                self._by_prefix[prefix].discard(rel)
            self._everything.discard(rel)
            self._global.discard(rel)
        if source is None:
            return
        deps = _Deps()
        if rel.endswith(SOURCE_SUFFIXES):
            facts = read_module(rel, source)
            deps.everything = not facts.complete
            implicit = self._implicit[uses_tsx_grammar(rel)]
            for kind, specifier in (*facts.specifiers, *implicit):
                self._resolve(rel, kind, specifier, deps)
            if facts.passes_on_everything:
                self._global.add(rel)
        self._deps[rel] = deps
        for path in deps.exact:
            self._by_exact[path].add(rel)
        for prefix in deps.prefixes:
            self._by_prefix[prefix].add(rel)
        if deps.everything:
            self._everything.add(rel)

    def files(self) -> set[str]:
        return set(self._deps)

    def order_sensitive(self) -> bool:
        return False  # tsc reports nothing that depends on which files are open

    def affected(
        self,
        changes: Sequence[tuple[str, str | None, str | None]],
        deadline: float | None = None,
    ) -> set[str]:
        """Every file that may import a changed one, at any depth (no narrowing by name)."""
        return self.importers((rel for rel, _, _ in changes), deadline=deadline)

    def importers(
        self, rels: Iterable[str], transitive: bool = True, deadline: float | None = None
    ) -> set[str]:
        """Files that may depend on any of ``rels`` (transitively), ``rels`` excluded.

        Transitively, a file with global reach among ``rels`` or their importers makes every
        file an importer: what it declares for all may be built from what it imports.
        """
        targets = set(rels)
        frontier = set(targets)
        found: set[str] = set()
        while frontier:
            if transitive and not frontier.isdisjoint(self._global):
                return set(self._deps) - targets
            if deadline is not None and time.monotonic() > deadline:
                raise PlanningBudgetExceeded("following TypeScript importers")
            reached = set(self._everything)
            for rel in frontier:
                reached |= self._by_exact.get(rel, set())
                parts = rel.split("/")
                for i in range(1, len(parts)):
                    reached |= self._by_prefix.get("/".join(parts[:i]) + "/", set())
            frontier = reached - found - targets
            found |= frontier
            if not transitive:
                break
        return found

    # --- resolution -----------------------------------------------------------------------

    def _inside(self, path: str) -> str | None:
        """The root-relative form of an absolute path, None outside the root ("" the root)."""
        rel = posixpath.relpath(posixpath.normpath(path), self._root)
        if rel == ".." or rel.startswith("../"):
            return None
        return "" if rel == "." else rel

    def _inside_all(self, value: object) -> list[str]:
        return [rel for p in _strings(value) if (rel := self._inside(p)) is not None]

    def _resolve(self, rel: str, kind: str, specifier: str, deps: _Deps) -> None:
        directory = posixpath.dirname(rel)
        if kind == "path" or specifier.startswith(("./", "../", "/")) or specifier in (".", ".."):
            self._relative(posixpath.join(self._root, directory, specifier), deps)
            return
        if kind == "types":
            for type_root in self._type_roots:
                self._add(posixpath.join(type_root, specifier), deps)
        self._bare(directory, specifier, deps)

    def _relative(self, path: str, deps: _Deps) -> None:
        target = self._inside(path)
        if target is None:
            return
        self._add(target, deps)
        for root_dir in self._root_dirs:  # rootDirs merge directories into one virtual one
            if target.startswith(root_dir + "/"):
                rest = target[len(root_dir) + 1 :]
                for other in self._root_dirs:
                    self._add(posixpath.join(other, rest), deps)

    def _bare(self, directory: str, specifier: str, deps: _Deps) -> None:
        mapped = False
        for pattern, targets in self._paths:
            head, star, tail = pattern.partition("*")
            if star and specifier.startswith(head) and specifier.endswith(tail):
                captured = specifier[len(head) : len(specifier) - len(tail)]
            elif not star and specifier == pattern:
                captured = ""
            else:
                continue
            for target in targets:
                rel = self._inside(target.replace("*", captured, 1))
                if rel is not None:
                    mapped = True
                    self._add(rel, deps)
        if self._base_url is not None:
            self._add(posixpath.normpath(posixpath.join(self._base_url, specifier)), deps)
        if mapped:
            return  # the project maps this name itself (a missing target falls through: a gap)
        if specifier.startswith("#"):
            deps.everything = True
            return
        package = self._packages.own_package(directory, package_name(specifier))
        if package is None:
            package = self._packages.linked_package(directory, package_name(specifier))
        if package == "":
            deps.everything = True
        elif package is not None:
            deps.prefixes.add(package + "/")

    def _add(self, path: str, deps: _Deps) -> None:
        """Every file TypeScript could resolve ``path`` (root-relative, unresolved) to."""
        if path in ("", ".", "..") or path.startswith("../"):
            deps.everything = deps.everything or path in ("", ".")
            return
        deps.prefixes.add(path + "/")  # index files, or package.json "types"/"main"
        deps.exact.add(path)
        for stem in {path, _strip_extension(path)}:
            for suffix in self._suffixes:
                deps.exact.update(stem + suffix + ext for ext in _EXTENSIONS)
        head, dot, extension = path.rpartition(".")
        if dot and "/" not in extension:  # allowArbitraryExtensions: a.css -> a.d.css.ts
            deps.exact.add(f"{head}.d.{extension}.ts")
