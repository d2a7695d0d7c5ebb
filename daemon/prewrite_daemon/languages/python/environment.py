"""The environment fingerprint: everything outside the source files that can change a verdict.

Configuration (``pyproject.toml``, ``pyrightconfig.json``, ``setup.cfg``), requirement and lock
files, the interpreter, its installed distributions (``*.dist-info``, ``*.egg-info``, ``.pth``
files, so editable installs too) and the checker's version. Computing it is a handful of stats
and one directory listing per site-packages dir, so it is taken when a check is admitted and again
before its verdict is sent: a verdict is only given if nothing moved in between.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from prewrite.errors import InvalidWorkspace
from prewrite.files import read_or_none
from prewrite_daemon.languages.fingerprint import Fingerprint, digest_files, digest_trees
from prewrite_daemon.languages.python.interpreter_query import ask_interpreter
from prewrite_daemon.languages.python.interpreter_trust import interpreter_places

if TYPE_CHECKING:
    from collections.abc import Callable

# Root-level files that shape the dependency graph (TypeScript's for the backend to come).
GRAPH_FILES = (
    "pyproject.toml",
    "pyrightconfig.json",
    "setup.cfg",
    "setup.py",
    "uv.lock",
    "poetry.lock",
    "Pipfile.lock",
    "pdm.lock",
    "tsconfig.json",
    "package.json",
    "package-lock.json",
)
_REQUIREMENTS_PREFIX = "requirements"
_PACKAGE_MARKERS = (".dist-info", ".egg-info", ".egg-link", ".pth")


def resolve_python(root: Path, given: str | None) -> str:
    """The interpreter whose packages the checker sees: given, else the root's venv, else PATH.

    A given path must be absolute: the daemon runs in ``/``, in no caller's directory. Whether it
    may be run is ``interpreter_trust``'s question.
    """
    if given:
        if not os.path.isabs(given):
            raise InvalidWorkspace(f"the interpreter path must be absolute: {given}")
        if not Path(given).exists():
            raise InvalidWorkspace(f"interpreter not found: {given}")
        return given
    for name in (".venv", "venv"):
        candidate = root / name / "bin" / "python"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("python3") or shutil.which("python")
    if not found:
        raise InvalidWorkspace("no Python interpreter found; pass --python")
    return found


def is_graph_file(rel: str) -> bool:
    """Whether a root-relative path is one of the files the fingerprint covers."""
    if "/" in rel:
        return False
    return rel in GRAPH_FILES or (rel.startswith(_REQUIREMENTS_PREFIX) and rel.endswith(".txt"))


def site_dirs(python: str) -> list[Path]:
    """The interpreter's package directories (``interpreter_query``; fixed per interpreter)."""
    return ask_interpreter(python).site_dirs


def pth_dirs(dirs: list[Path]) -> list[Path]:
    """The directories that ``.pth`` files in ``dirs`` put on ``sys.path``, read as site.py does.

    Read, never executed: ``import`` lines are skipped (pyright does not run them either).
    Bounded: a ``.pth`` that is not a regular file of at most ``CONFIG_LIMIT`` bytes (a FIFO, a
    link to ``/dev/zero``, a sparse giant) is skipped unread, as if absent.
    """
    found: list[Path] = []
    for directory in dirs:
        try:
            pth_files = sorted(p for p in directory.iterdir() if p.name.endswith(".pth"))
        except OSError:
            continue
        for pth in pth_files:
            data = read_or_none(pth)
            for line in (data or b"").decode("utf-8", "replace").splitlines():
                if not line.strip() or line.startswith(("#", "import ", "import\t")):
                    continue
                path = Path(os.path.abspath(os.path.join(directory, line.rstrip())))
                if path.is_dir() and path not in found:
                    found.append(path)
    return found


def read_venv(python: str) -> tuple[Path, str | None] | None:
    """The venv of ``python`` and its Python version, read from disk without running anything:
    the first venv (``pyvenv.cfg`` one level above) on its way through links to the file that
    runs (``interpreter_places``), so a link to a venv's python names that venv."""
    for place in interpreter_places(python):
        venv = place.parent.parent
        data = read_or_none(venv / "pyvenv.cfg")  # bounded: the venv may be the repository's
        if data is not None:
            break
    else:
        return None
    version: str | None = None
    for line in data.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("version", "version_info"):
            version = ".".join(value.strip().split(".")[:2])
    return venv, version


def read_site_dirs(python: str) -> list[Path]:
    """The package directories of ``python``'s venv, found on disk (the untrusted mode)."""
    found = read_venv(python)
    if found is None:
        return []
    venv, _version = found
    dirs = sorted(venv.glob("lib*/python3*/site-packages"))
    return list(dict.fromkeys(d.resolve() for d in dirs if d.is_dir()))


def _digest_packages(dirs: list[Path]) -> str:
    """Installed distributions: names, versions (in the names) and metadata stamps, .pth text."""
    h = hashlib.sha256()
    for directory in dirs:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            h.update(f"{directory}: unreadable".encode())
            continue
        for entry in entries:
            if not entry.name.endswith(_PACKAGE_MARKERS):
                continue
            try:
                st = entry.stat()
            except OSError:
                continue
            h.update(f"{entry.name}:{st.st_mtime_ns}:{st.st_size}\n".encode())
            if entry.name.endswith((".pth", ".egg-link")):
                h.update(read_or_none(entry.path) or b"unreadable")
    return h.hexdigest()[:16]


def fingerprint(
    root: Path,
    python: str,
    dirs: list[Path],
    checker_version: str,
    outside: list[Path] | None = None,
    libraries: int = 0,
    graph_file: Callable[[str], bool] = is_graph_file,
) -> Fingerprint:
    """Take the fingerprint of ``root`` checked with ``python``'s packages.

    ``outside`` are the directories outside the root that the checker reads sources from
    (editable installs' sources, ``extraPaths``); ``libraries`` counts in-place edits the
    watcher saw under the package directories.
    """
    graph = sorted(p for p in root.iterdir() if p.is_file() and graph_file(p.name))
    try:
        st = Path(python).resolve().stat()
        interpreter = f"{Path(python).resolve()}:{st.st_mtime_ns}:{st.st_size}"
    except OSError:
        interpreter = f"{python}: missing"
    return Fingerprint(
        (
            ("config", digest_files(graph)),
            ("interpreter", interpreter),
            ("packages", _digest_packages(dirs)),
            ("checker", checker_version),
            ("outside", digest_trees(outside or [])),
            ("libraries", str(libraries)),
        )
    )
