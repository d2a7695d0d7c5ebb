"""The levels of a Protocol scan (``protocols.scan``): roots read and cached together.

A **level** is one or more roots with a key: a typeshed directory (its ``stdlib`` and every
``stubs/<dist>``, installed or not) keyed by the checker's version, or a tree (a site dir,
another directory outside the root, a file linked into it) keyed by the stamp of its listing
(``protocols.files``). A level persists its facts under the cache dir, valid while its key holds
and the model is the same (``model_version``: a changed rule never reuses facts read by the old
one).

Facts are kept per **group** (``protocols.answer``): a typeshed's ``stubs/<dist>/<module>`` files
by top-level module, since the checker sees them only when something imports that module;
everything else is ``CORE``. The top-level modules each group's files import are read once per
key, in the first pass over the files (``protocols.imports``: a regex over bytes already read).

Only files that spell a name the closure needs are parsed (``search``): a file that spells no
alias of Protocol can declare no Protocol and bind no alias (``protocols.names``: a call's result
joins only where it is bound).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.languages.python.protocols.answer import CORE, facts_from_json, facts_to_json
from prewrite_daemon.languages.python.protocols.files import (
    list_sources,
    read_bounded,
    write_atomic,
)
from prewrite_daemon.languages.python.protocols.imports import imported_top_levels, stub_module
from prewrite_daemon.languages.python.protocols.names import (
    ProtocolFacts,
    facts_of,
    merge,
    opaque_facts,
    prune,
)
from prewrite_daemon.languages.python.syntax import locked
from prewrite_daemon.languages.python.syntax.newer import parse_newer

if TYPE_CHECKING:
    import ast

MAX_JSON = 512 * 1024 * 1024
# The code the facts depend on: every module of this package, and the newer-syntax readers.
_SYNTAX = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "syntax")
_MODEL = (
    (os.path.dirname(os.path.abspath(__file__)), ""),
    (_SYNTAX, "newer"),
)


@dataclass
class Level:
    """Some roots scanned and cached together (see the module doc)."""

    kind: str  # "typeshed" or "tree"
    roots: list[str]
    key: str
    cache: str
    stub_dirs: tuple[str, ...] = ()  # a typeshed's ``stubs``: their files are grouped by module
    files: tuple[str, ...] | None = None  # listed when first needed
    groups: dict[str, ProtocolFacts] = field(default_factory=dict[str, ProtocolFacts])
    imports: dict[str, frozenset[str]] | None = None  # group -> modules; None: not read yet
    searched: set[str] = field(default_factory=set[str])
    dirty: bool = False
    read: set[str] = field(default_factory=set[str])  # files parsed by this process

    def load(self) -> None:
        """The cached facts, if they are this key's."""
        cached = load_json(self.cache)
        if cached and cached.get("model") == model_version() and cached.get("key") == self.key:
            groups = cast("dict[str, Any]", cached.get("groups", {}))
            self.groups = {str(n): facts_from_json(f) for n, f in groups.items()}
            imports = cast("dict[str, list[Any]] | None", cached.get("imports"))
            if imports is not None:  # else read again: a level never passes for importing nothing
                self.imports = {str(n): frozenset(map(str, m)) for n, m in imports.items()}
            self.searched = {str(w) for w in cached.get("searched", [])}

    def save(self) -> None:
        body: dict[str, Any] = {"model": model_version(), "kind": self.kind, "key": self.key}
        body |= {"roots": self.roots, "searched": sorted(self.searched)}
        body["groups"] = {n: facts_to_json(f) for n, f in sorted(self.groups.items())}
        body["imports"] = {n: sorted(m) for n, m in sorted((self.imports or {}).items())}
        write_atomic(self.cache, json.dumps(body).encode())

    def group_of(self, path: str) -> str:
        """``CORE``, or the top-level module of the stub package ``path`` belongs to."""
        for stubs in self.stub_dirs:
            if path.startswith(stubs + "/"):  # stubs/<dist>/<module>...
                return stub_module(path[len(stubs) + 1 :].partition("/")[2])
        return CORE

    def search(self, words: set[str]) -> None:
        """Read the facts of every file spelling one of ``words``, and, the first time, every
        file's imports."""
        if self.files is None:
            self.files = list_sources(self.roots).files
        alternatives = b"|".join(re.escape(w.encode()) for w in sorted(words))
        pattern = re.compile(rb"(?<![\w])(?:" + alternatives + rb")(?!\w)") if words else None
        imports: dict[str, set[str]] | None = None
        if self.imports is None:
            imports = defaultdict(set[str])
        found: dict[str, list[ProtocolFacts]] = defaultdict(list[ProtocolFacts])
        for path in self.files:
            if path in self.read and imports is None:
                continue  # all its facts are in already
            data = read_bounded(path)
            if data is None:
                continue
            group = self.group_of(path)
            if imports is not None:
                imports[group] |= imported_top_levels(data)
            if path not in self.read and pattern is not None and pattern.search(data):
                found[group].append(file_facts(data, path))
                self.read.add(path)
        for group, facts in found.items():
            self.groups[group] = prune(merge([self.groups.get(group, ProtocolFacts()), *facts]))
        if imports is not None:
            self.imports = {n: frozenset(m) for n, m in imports.items()}
        self.searched |= words
        self.dirty = True


def file_facts(data: bytes, path: str) -> ProtocolFacts:
    """The facts of one source: by ``ast``, else by the newest grammar (``syntax.newer``), else
    every word may be anything (``opaque_facts``)."""
    where = hashlib.sha1(path.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    tree: ast.AST | None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "\d" in a string: the file's own business
            tree = locked.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = parse_newer(data.decode("utf-8", "replace"))
    try:
        if tree is not None:
            return facts_of(tree, where, b":=" in data)
    except RecursionError:
        pass
    return opaque_facts(data.decode("utf-8", "replace"))


def open_level(spec: dict[str, Any], cache_dir: str) -> Level:
    kind = str(spec["kind"])
    roots = [str(r) for r in spec["roots"]]
    stub_dirs: tuple[str, ...] = ()
    if kind == "typeshed":
        stub_dirs = tuple(os.path.join(r, "stubs") for r in roots)
        roots = typeshed_roots(roots)
    files = None
    key = spec.get("key")
    if not isinstance(key, str):
        listing = list_sources(roots)
        files, key = listing.files, listing.stamp
    name = hashlib.sha256(json.dumps([kind, roots]).encode()).hexdigest()[:20]
    cache = os.path.join(cache_dir, f"level-{name}.json")
    return Level(kind, roots, key, cache, stub_dirs, files)


def typeshed_roots(dirs: list[str]) -> list[str]:
    """The import roots of typeshed directories: ``stdlib`` and every ``stubs/<dist>``."""
    found: list[str] = []
    for directory in dirs:
        found.append(os.path.join(directory, "stdlib"))
        stubs = os.path.join(directory, "stubs")
        try:
            found += sorted(e.path for e in os.scandir(stubs) if e.is_dir())
        except OSError:
            continue
    return found


@functools.cache
def model_version() -> str:
    """What the cached facts were read by: this Python's ``ast`` and the code of the model, so
    a changed rule never reuses facts read by the old one."""
    digest = hashlib.sha256(sys.version.encode())
    for here, prefix in _MODEL:
        for name in sorted(os.listdir(here)):
            if name.startswith(prefix) and name.endswith(".py"):
                text = read_bounded(os.path.join(here, name)) or b""
                digest.update(name.encode() + b"\0" + text)
    return digest.hexdigest()[:20]


def load_json(path: str) -> dict[str, Any] | None:
    data = read_bounded(path, MAX_JSON)
    if data is None:
        return None
    try:
        found = json.loads(data)
    except ValueError:
        return None
    return cast("dict[str, Any]", found) if isinstance(found, dict) else None
