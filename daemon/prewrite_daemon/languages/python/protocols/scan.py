"""The Protocol scan, a process of its own:
``python -I -m prewrite_daemon.languages.python.protocols.scan``.

The daemon (``protocols.library``) starts it isolated (``-I``: no ``PYTHON*`` variables, no
user site, no current directory on ``sys.path``; cwd ``/``) with a request on stdin, and reads
the answer from the file the request names. Parsing thousands of library files takes seconds
of CPU: in a process of its own it holds neither the daemon's event loop nor its GIL, runs at
a lower priority than the checker, and is killed at its deadline (``SIGALRM`` here too, should
the daemon be gone). Nothing scanned is ever imported or run: sources are read and parsed.

A request names **levels** (``protocols.levels``: typeshed keyed by the checker's version, trees
keyed by their listing's stamp, each cached on disk), and the answer (``protocols.answer``: every
Protocol member and alias, split by what a plan always sees and by bundled stub module) is
kept too: a daemon restart reads it without loading any level.

Each level is searched (a word regex over its bytes) for the names of the static closure, which
may grow as files are read, to a fixpoint; a level remembers the names it was searched for. In
this repository's venv that parses 514 files of 5,344.

Exit status: 0 answered (the answer file written), 3 ``lookup`` asked and the caches do not
answer, anything else a failure (the traceback on stderr).
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import resource
import sys
import threading
import time
from collections import defaultdict

from prewrite_daemon.languages.python.protocols.answer import answer, answer_to_json
from prewrite_daemon.languages.python.protocols.files import read_bounded, write_atomic
from prewrite_daemon.languages.python.protocols.levels import (
    MAX_JSON,
    Level,
    model_version,
    open_level,
)
from prewrite_daemon.languages.python.protocols.names import (
    LibraryProtocolSet,
    ProtocolFacts,
    alias_closure,
    closure,
    exported,
)

FORMAT = 2  # of the request and the answer (the caches are keyed by ``model_version``)
MISS = 3
_NICE = 19  # behind everything: the checker the first check waits for, the ladder
PARENT_POLL_S = 1.0
PARENT_GONE = 4  # the exit status when the daemon went first


def scan(levels: list[Level], lookup: bool) -> LibraryProtocolSet | None:
    """The answer over ``levels`` (see the module doc); None when ``lookup`` and it would take
    reading a file."""
    while True:
        facts = [f for level in levels for f in level.groups.values()]
        words = {k.removeprefix(".") for k in exported(alias_closure(facts))}
        pending = [(level, words - level.searched) for level in levels]
        pending = [(lv, new) for lv, new in pending if new or lv.imports is None]
        if not pending:
            break
        if lookup:
            return None
        for level, new in pending:
            level.search(new)
    groups: dict[str, list[ProtocolFacts]] = defaultdict(list[ProtocolFacts])
    imports: dict[str, set[str]] = defaultdict(set[str])
    for level in levels:
        for name, found in level.groups.items():
            groups[name].append(found)
        for name, modules in (level.imports or {}).items():
            imports[name] |= modules
    return answer(groups, imports, closure(facts))


def main() -> int:
    request = json.loads(sys.stdin.buffer.read(MAX_JSON))
    if request.get("format") != FORMAT:
        raise ValueError(f"request format {request.get('format')!r}, expected {FORMAT}")
    # CPU seconds, not wall time: the daemon pauses scans (SIGSTOP) while it serves requests
    seconds = max(1, int(request["seconds"]))
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        seconds = min(seconds, hard)  # never above a limit it was started under
    else:
        hard = seconds + 5
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, hard))  # then SIGXCPU, SIGKILL
    _exit_with_parent()
    os.nice(_NICE)
    gc.disable()  # trees without cycles, thousands of them: the collector only costs
    started = time.monotonic()
    cache_dir = str(request["cache_dir"])
    levels = [open_level(spec, cache_dir) for spec in request["levels"]]
    # The answer depends on the levels' contents only: kept apart, it spares loading them
    combined = json.dumps([model_version(), *((lv.kind, lv.roots, lv.key) for lv in levels)])
    name = f"answer-{hashlib.sha256(combined.encode()).hexdigest()[:20]}.json"
    answer_path = os.path.join(cache_dir, name)
    known = read_bounded(answer_path, MAX_JSON)
    if known is None:
        for level in levels:
            level.load()
        found = scan(levels, bool(request.get("lookup")))
        if found is None:
            return MISS
        for level in levels:
            if level.dirty:
                level.save()
        body = {"format": FORMAT, **answer_to_json(found)}
        body |= {"parsed": sum(len(lv.read) for lv in levels)}
        body |= {"seconds": round(time.monotonic() - started, 3)}
        known = json.dumps(body).encode()
        write_atomic(answer_path, known)
        _forget_old_answers(cache_dir)
    write_atomic(str(request["out"]), known)
    return 0


def _exit_with_parent() -> None:
    """The daemon killed (no ``stop_scans``): nobody will read the answer, so stop within a
    second instead of scanning on to its CPU limit."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(PARENT_GONE)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


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
