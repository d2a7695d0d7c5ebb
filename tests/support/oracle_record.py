"""Recorded cold runs: an oracle's answer for an input it has judged before, kept in the repo.

A cold checker run is a function of what it reads: the checker (its version, its flags), the
tree, the packages it resolves. The slow differential tests make a few hundred such runs per
``make test`` (most of the tier's CPU on a 2-core machine), on pinned workloads and seeded
patches, so the same inputs come back run after run. Their answers are kept under
``tests/data/oracle/``, each named by a digest of everything the run reads; a run whose digest has
a record reads it instead of running the checker. Anything that changes the input changes the
digest, and a miss runs the checker cold (and records its answer). What keeps this honest:

- **checked live**: the first record of each checker a test process reads is run cold as well
  and must be equal (``OracleRecordStale`` otherwise, naming the way out);
- **the whole input**: every regular file of the tree (except the directories a checker never
  reads as sources: ``.git``, ``__pycache__``, caches), the interpreter's version and its package
  directories' sources (``.pth`` targets included), or ``node_modules``' typings; a tree whose
  configuration names a path outside itself (absolute, or ``..``) is never recorded: its digest
  would not cover what the run reads;
- ``PREWRITE_ORACLE=live`` reads no record (every oracle cold, as before); every test session
  prints how many answers were read, checked and run (``oracle_summary``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import subprocess
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

import msgspec

from prewrite.protocol import Diagnostic

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

RECORDS = Path(__file__).resolve().parent.parent / "data" / "oracle"
SKIP_DIRS = frozenset(
    {".git", "__pycache__", "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox"}
    | {".venv", "venv"}
)
PACKAGE_SOURCES = (".py", ".pyi", ".pth", "py.typed")
TYPINGS = (".ts", ".mts", ".cts", ".json")
CONFIGS = (
    "pyproject.toml",
    "pyrightconfig.json",
    "mypy.ini",
    ".mypy.ini",
    "setup.cfg",
    "tsconfig.json",
)
CHECKER_TABLES = ("pyright", "basedpyright", "mypy", "ty", "pyrefly")
MAX_FILES = 20_000  # a tree larger than this is run cold: hashing it is no longer cheap
# A string in a configuration that starts at the filesystem root, a home directory or a parent.
_OUTSIDE = re.compile(r"""(["'=\s]|^)(/|~/|\.\./)|["']\.\.["']""", re.MULTILINE)

_decoder = msgspec.json.Decoder(list[Diagnostic])
_checked: set[str] = set()  # checkers whose first record this process ran cold as well
STATS: dict[str, int] = {"read": 0, "checked": 0, "run": 0, "unrecordable": 0}


class OracleRecordStale(AssertionError):
    """A recorded answer differs from the cold run on the same input."""


def live() -> bool:
    return os.environ.get("PREWRITE_ORACLE", "recorded") == "live"


def answer(
    checker: Iterable[str], inputs: Iterable[str], tree: Path, run: Callable[[], list[Diagnostic]]
) -> list[Diagnostic]:
    """``run()``'s answer for ``tree``, from its record when one exists. ``checker``: the
    checker's name, version and flags (its name first); ``inputs``: digests of what else it
    reads (``python_packages``, ``typings``)."""
    if live():
        STATS["run"] += 1
        return run()
    checker = list(checker)
    key = _key(checker, list(inputs), tree)
    if key is None:
        STATS["unrecordable"] += 1
        return run()
    record = RECORDS / key[:2] / f"{key}.json.gz"
    if record.is_file():
        recorded = _decoder.decode(gzip.decompress(record.read_bytes()))
        STATS["read"] += 1
        os.utime(record)  # used: a record no full run touches any more can be deleted
        if checker[0] not in _checked:
            _check_live(checker[0], record, recorded, run())
        return recorded
    found = run()
    STATS["run"] += 1
    record.parent.mkdir(parents=True, exist_ok=True)
    partial = record.with_name(f"{record.name}.{os.getpid()}.partial")
    partial.write_bytes(gzip.compress(msgspec.json.encode(found), mtime=0))
    partial.replace(record)  # two workers recording one key write the same bytes
    return found


def _check_live(
    name: str, record: Path, recorded: list[Diagnostic], cold: list[Diagnostic]
) -> None:
    _checked.add(name)
    STATS["checked"] += 1
    if sorted(map(_order, recorded)) != sorted(map(_order, cold)):
        raise OracleRecordStale(
            f"the recorded {name} answer {record.name} differs from a cold run on the same input "
            f"({len(recorded)} vs {len(cold)} diagnostics): the digest misses something the "
            "checker reads. Delete tests/data/oracle/ (or run with PREWRITE_ORACLE=live)."
        )


def _order(d: Diagnostic) -> tuple[str, int, int, str, str]:
    return (d.path, d.line, d.column, d.rule, d.message)


def _key(checker: list[str], inputs: list[str], tree: Path) -> str | None:
    files = tree_digest(tree)
    if files is None:
        return None
    h = hashlib.sha256(json.dumps([checker, inputs, files]).encode())
    return h.hexdigest()


def tree_digest(tree: Path) -> str | None:
    """Every regular file of ``tree`` (path and bytes), or None: a configuration points outside
    the tree, or the tree is too large to hash cheaply."""
    h, count = hashlib.sha256(), 0
    for rel, path in _walk(tree, SKIP_DIRS):
        count += 1
        if count > MAX_FILES:
            return None
        if path.is_symlink():
            h.update(f"L {rel} {os.readlink(path)}\0".encode())
            continue
        data = path.read_bytes()
        if path.name in CONFIGS and _points_outside(path.name, data.decode("utf-8", "replace")):
            return None
        h.update(f"F {rel} {len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def _points_outside(name: str, text: str) -> bool:
    """Whether a configuration may name a path outside its tree. ``pyproject.toml``: the
    checkers' tables only (a build backend's root-anchored ``/src`` patterns are not paths)."""
    if name != "pyproject.toml":
        return _OUTSIDE.search(text) is not None
    try:
        tools = cast("dict[str, object]", tomllib.loads(text).get("tool", {}))
    except tomllib.TOMLDecodeError:
        return True
    tables = {k: v for k, v in tools.items() if k in CHECKER_TABLES}
    return any(_outside_value(v) for v in _strings(tables))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in cast("dict[str, object]", value).values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in cast("list[object]", value):
            yield from _strings(item)


def _outside_value(value: str) -> bool:
    return value.startswith(("/", "~")) or value == ".." or "../" in value


def _walk(
    root: Path, skip: frozenset[str], suffixes: tuple[str, ...] = ()
) -> Iterator[tuple[str, Path]]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        for name in sorted(filenames):
            if suffixes and not name.endswith(suffixes):
                continue
            path = Path(dirpath, name)
            if path.is_file() or path.is_symlink():
                yield path.relative_to(root).as_posix(), path


def _content_digest(root: Path, suffixes: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for rel, path in _walk(root, frozenset({"__pycache__"}), suffixes):
        if path.is_file():
            data = path.read_bytes()
            h.update(f"{rel} {len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


@cache
def _search_path(python: str) -> tuple[str, list[str]]:
    code = "import json, sys; print(json.dumps([sys.version, sys.path[1:]]))"
    out = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, check=True)
    version, path = cast("tuple[str, list[str]]", json.loads(out.stdout))
    return version, path


def python_packages(python: str) -> str:
    """The interpreter's version and the sources of its package directories (and of what their
    ``.pth`` files add), read afresh: a test may change an installed package between runs. The
    standard library is named by the version."""
    version, path = _search_path(python)
    parts = [version]
    for entry in path:
        directory = Path(entry)
        if directory.is_dir() and directory.name in ("site-packages", "dist-packages"):
            parts.append(_content_digest(directory, PACKAGE_SOURCES))
            parts += [_content_digest(d, PACKAGE_SOURCES) for d in _pth_dirs(directory)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _pth_dirs(site: Path) -> list[Path]:
    dirs: list[Path] = []
    for pth in sorted(site.glob("*.pth")):
        for line in pth.read_text(encoding="utf-8", errors="replace").splitlines():
            if line and not line.startswith(("#", "import")) and Path(line).is_dir():
                dirs.append(Path(line))
    return dirs


@cache
def typings(node_modules: Path) -> str:
    """The TypeScript sources and manifests under ``node_modules`` (no test edits them)."""
    return _content_digest(node_modules.resolve(), TYPINGS)
