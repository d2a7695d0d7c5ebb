"""The Protocol scan, a process of its own: ``python -I -m prewrite_daemon.protocol_scan``.

The daemon (``library_protocols``) starts it isolated (``-I``: no ``PYTHON*`` variables, no
user site, no current directory on ``sys.path``; cwd ``/``) with a request on stdin, and reads
the answer from the file the request names. Parsing thousands of library files takes seconds
of CPU: in a process of its own it holds neither the daemon's event loop nor its GIL, runs at
a lower priority than the checker, and is killed at its deadline (``SIGALRM`` here too, should
the daemon be gone). Nothing scanned is ever imported or run: sources are read and parsed.

A request names **levels**, each one or more roots with a key: the bundled typeshed (stdlib and
every ``stubs/<dist>``, installed or not) keyed by the checker's version, a site dir or another
tree keyed by the stamp of its listing (``protocol_files``). Each level persists its merged
facts under the cache dir, valid while its key holds and the model is the same
(``model_version``: a changed rule never reuses facts read by the old one), so typeshed is read
once per pyright version and a site dir again only when a file under it changes. The answer of
a set of levels is kept too: a daemon restart reads it without loading any level.

Only files that spell a name the closure needs are parsed: a file that spells no alias of
Protocol can declare no Protocol and bind no alias (``protocol_names``: a call's result joins
only where it is bound), so each level is searched (a word regex over its bytes) for the names
of the static closure, which may grow as files are read, to a fixpoint; a level remembers the
names it was searched for. In this repository's venv that is 514 files of 5,344.

Exit status: 0 answered (the answer file written), 3 ``lookup`` asked and the caches do not
answer, anything else a failure (the traceback on stderr).
"""

from __future__ import annotations

import ast
import functools
import gc
import hashlib
import json
import os
import re
import signal
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, cast

from prewrite_daemon import (
    newer_syntax,
    protocol_files,
    protocol_keys,
    protocol_names,
    protocol_scopes,
)
from prewrite_daemon.newer_syntax import parse_newer
from prewrite_daemon.protocol_files import list_sources, read_bounded, write_atomic
from prewrite_daemon.protocol_names import (
    LibraryProtocolSet,
    ProtocolFacts,
    alias_closure,
    closure,
    exported,
    facts_of,
    merge,
    opaque_facts,
    protocol_members,
    prune,
)

FORMAT = 1  # of the request and the answer (the caches are keyed by ``model_version``)
MISS = 3
_MAX_JSON = 512 * 1024 * 1024
_NICE = 10  # behind the checker, which the first check waits for


@dataclass
class Level:
    """Some roots scanned and cached together (see the module doc)."""

    kind: str  # "typeshed" (a typeshed directory: stdlib and stubs/*) or "tree"
    roots: list[str]
    key: str
    cache: str
    files: tuple[str, ...] | None = None  # listed when first needed
    facts: ProtocolFacts = field(default_factory=ProtocolFacts)
    searched: set[str] = field(default_factory=set[str])
    dirty: bool = False
    read: set[str] = field(default_factory=set[str])  # files parsed by this process

    def load(self) -> None:
        """The cached facts, if they are this key's."""
        cached = _load_json(self.cache)
        if cached and cached.get("model") == model_version() and cached.get("key") == self.key:
            self.facts = facts_from_json(cached)
            self.searched = {str(w) for w in cached.get("searched", [])}

    def search(self, words: set[str]) -> None:
        """Read the facts of every file spelling one of ``words``."""
        if self.files is None:
            self.files = list_sources(self.roots).files
        pattern = re.compile(
            rb"(?<![\w])(?:" + b"|".join(re.escape(w.encode()) for w in sorted(words)) + rb")(?!\w)"
        )
        found: list[ProtocolFacts] = [self.facts]
        for path in self.files:
            if path in self.read:
                continue  # all its facts are in already
            data = read_bounded(path)
            if data is not None and pattern.search(data):
                found.append(file_facts(data, path))
                self.read.add(path)
        self.facts = prune(merge(found))
        self.searched |= words
        self.dirty = True


def file_facts(data: bytes, path: str) -> ProtocolFacts:
    """The facts of one source: by ``ast``, else by the newest grammar (``newer_syntax``), else
    every word may be anything (``opaque_facts``)."""
    where = hashlib.sha1(path.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    tree: ast.AST | None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "\d" in a string: the file's own business
            tree = ast.parse(data)
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
    if kind == "typeshed":
        roots = typeshed_roots(roots)
    files = None
    key = spec.get("key")
    if not isinstance(key, str):
        listing = list_sources(roots)
        files, key = listing.files, listing.stamp
    name = hashlib.sha256(json.dumps([kind, roots]).encode()).hexdigest()[:20]
    return Level(kind, roots, key, os.path.join(cache_dir, f"level-{name}.json"), files)


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


def scan(levels: list[Level], lookup: bool) -> LibraryProtocolSet | None:
    """The answer over ``levels`` (see the module doc); None when ``lookup`` and it would take
    reading a file."""
    while True:
        facts = [level.facts for level in levels]
        words = {k.removeprefix(".") for k in exported(alias_closure(facts))}
        pending = [(level, words - level.searched) for level in levels]
        pending = [(level, new) for level, new in pending if new]
        if not pending:
            break
        if lookup:
            return None
        for level, new in pending:
            level.search(new)
    full = closure(facts)
    return LibraryProtocolSet(protocol_members(facts, full), exported(full))


def facts_to_json(facts: ProtocolFacts) -> dict[str, Any]:
    return {
        "aliases": [[k, sorted(s)] for k, s in facts.aliases],
        "classes": [[sorted(b), sorted(m)] for b, m in facts.classes],
    }


def facts_from_json(data: dict[str, Any]) -> ProtocolFacts:
    aliases = cast("list[list[Any]]", data.get("aliases", []))
    classes = cast("list[list[Any]]", data.get("classes", []))
    return ProtocolFacts(
        tuple((str(k), frozenset(map(str, s))) for k, s in aliases),
        tuple((frozenset(map(str, b)), frozenset(map(str, m))) for b, m in classes),
    )


@functools.cache
def model_version() -> str:
    """What the cached facts were read by: this Python's ``ast`` and the code of the model, so
    a changed rule never reuses facts read by the old one."""
    digest = hashlib.sha256(sys.version.encode())
    for module in (protocol_names, protocol_keys, protocol_scopes, protocol_files, newer_syntax):
        digest.update(read_bounded(str(module.__file__)) or b"")
    digest.update(read_bounded(__file__) or b"")
    return digest.hexdigest()[:20]


def _load_json(path: str) -> dict[str, Any] | None:
    data = read_bounded(path, _MAX_JSON)
    if data is None:
        return None
    try:
        found = json.loads(data)
    except ValueError:
        return None
    return cast("dict[str, Any]", found) if isinstance(found, dict) else None


def _save(level: Level) -> None:
    body = {"model": model_version(), "kind": level.kind, "roots": level.roots, "key": level.key}
    body |= {"searched": sorted(level.searched), **facts_to_json(level.facts)}
    write_atomic(level.cache, json.dumps(body).encode())


def main() -> int:
    request = json.loads(sys.stdin.buffer.read(_MAX_JSON))
    if request.get("format") != FORMAT:
        raise ValueError(f"request format {request.get('format')!r}, expected {FORMAT}")
    signal.alarm(max(1, int(request["seconds"])))  # the daemon kills it too; this if it is gone
    os.nice(_NICE)
    gc.disable()  # trees without cycles, thousands of them: the collector only costs
    started = time.monotonic()
    cache_dir = str(request["cache_dir"])
    levels = [open_level(spec, cache_dir) for spec in request["levels"]]
    # The answer depends on the levels' contents only: kept apart, it spares loading them
    combined = json.dumps([model_version(), *((lv.kind, lv.roots, lv.key) for lv in levels)])
    name = f"answer-{hashlib.sha256(combined.encode()).hexdigest()[:20]}.json"
    answer_path = os.path.join(cache_dir, name)
    known = read_bounded(answer_path, _MAX_JSON)
    if known is None:
        for level in levels:
            level.load()
        found = scan(levels, bool(request.get("lookup")))
        if found is None:
            return MISS
        for level in levels:
            if level.dirty:
                _save(level)
        answer = {"format": FORMAT, "members": sorted(found.members)}
        answer |= {"aliases": sorted(found.aliases), "parsed": sum(len(lv.read) for lv in levels)}
        answer |= {"seconds": round(time.monotonic() - started, 3)}
        known = json.dumps(answer).encode()
        write_atomic(answer_path, known)
        _forget_old_answers(cache_dir)
    write_atomic(str(request["out"]), known)
    return 0


def _forget_old_answers(cache_dir: str, keep: int = 32) -> None:
    """Answers of environments long changed: the newest ``keep`` stay."""
    try:
        answers = [e for e in os.scandir(cache_dir) if e.name.startswith("answer-")]
        answers.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for entry in answers[keep:]:
            os.unlink(entry.path)
    except OSError:
        pass  # another scan removed one first


if __name__ == "__main__":
    sys.exit(main())
