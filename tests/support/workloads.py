"""Real third-party code for the differential test: a pinned PyPI sdist and a venv for its imports.

The sdist of httpx 0.28.1 (the package the team measured) is unpacked to a workspace holding
its package, its test-suite and its own ``pyproject.toml`` (which has no pyright section, so the
daemon and the cold CLI both run pyright's defaults): 60 modules with real cross-module imports.
A venv with the pinned runtime dependencies (and pytest, which the test-suite imports) lets the
imports resolve; the suite's optional imports (trio, uvicorn, ...) stay unresolved on purpose,
which gives the workspace pre-existing errors.

Everything is cached under ``PREWRITE_TEST_CACHE`` (default ``<repo>/.cache/test-workloads``),
in a folder named by the sdist and a digest of what the spec provisions (``cache_key``): a spec
whose ``keep`` or ``requirements`` changed gets a folder of its own instead of silently reusing a
venv built for the old pins, and two checkouts with different specs sharing the cache never
rebuild each other's. A ``.ready`` marker is written last, so an interrupted preparation is
redone, not trusted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.cache_lock import cache_lock

if TYPE_CHECKING:
    from collections.abc import Iterable

REPO_ROOT = Path(__file__).resolve().parents[2]


class WorkloadUnavailable(RuntimeError):
    """The workload could not be prepared (no network to PyPI, pip failed, ...)."""


@dataclass(frozen=True)
class WorkloadSpec:
    """A pinned sdist, the parts of it that form the workspace, and the venv's requirements."""

    name: str
    version: str
    keep: tuple[str, ...]
    requirements: tuple[str, ...]


@dataclass(frozen=True)
class Workload:
    """A prepared workload: the pristine workspace (never edit it) and the venv's interpreter."""

    root: Path
    python: str


HTTPX = WorkloadSpec(
    name="httpx",
    version="0.28.1",
    keep=("httpx", "tests", "pyproject.toml"),
    # Pinned with --no-deps (versions of httpx's release time), so the venv is reproducible.
    requirements=(
        "anyio==4.7.0",
        "certifi==2024.12.14",
        "h11==0.14.0",
        "httpcore==1.0.7",
        "idna==3.10",
        "sniffio==1.3.1",
        "typing_extensions==4.12.2",
        "pytest==8.3.4",
        "iniconfig==2.0.0",
        "packaging==24.2",
        "pluggy==1.5.0",
    ),
)


# A large, mostly unannotated package for the scale bench (``bench.scale``): Django's package and
# its pyproject, not its tests; its runtime dependencies pinned to releases of Django 5.2.8's time
# (2025-11-05). typing_extensions is asgiref's on Python < 3.11 only.
DJANGO = WorkloadSpec(
    name="django",
    version="5.2.8",
    keep=("django", "pyproject.toml"),
    requirements=("asgiref==3.10.0", "sqlparse==0.5.3", "typing_extensions==4.15.0"),
)


# A large typed library for the scale bench's second shape (``bench.scale --repo sqlalchemy``):
# SQLAlchemy's ``lib/sqlalchemy`` (annotated throughout, generics-heavy) and its pyproject; its
# runtime dependencies pinned to releases of 2.0.36's time (2024-10-15).
SQLALCHEMY = WorkloadSpec(
    name="sqlalchemy",
    version="2.0.36",
    keep=("lib", "pyproject.toml"),
    requirements=("greenlet==3.1.1", "typing_extensions==4.12.2"),
)


def cache_dir() -> Path:
    override = os.environ.get("PREWRITE_TEST_CACHE")
    return Path(override) if override else REPO_ROOT / ".cache" / "test-workloads"


def cache_key(spec: WorkloadSpec) -> str:
    """The cache folder's name: ``httpx-0.28.1-<digest>``, the digest of the parts kept and the
    pinned requirements (what the folder holds beyond the sdist itself)."""
    provisioned = repr((spec.keep, spec.requirements)).encode()
    return f"{spec.name}-{spec.version}-{hashlib.sha256(provisioned).hexdigest()[:12]}"


def prepare_workload(spec: WorkloadSpec = HTTPX, cache: Path | None = None) -> Workload:
    """Download, unpack and provision ``spec`` once; later calls return the cached result."""
    base = (cache or cache_dir()) / cache_key(spec)
    ready = base / ".ready"
    with cache_lock(base):  # another xdist worker may be preparing it right now
        if not ready.is_file():
            if base.exists():
                shutil.rmtree(base)
            base.mkdir(parents=True)
            sdist = _download_sdist(spec, base / "download")
            _unpack(spec, sdist, base / "src")
            _make_venv(spec, base / "venv")
            ready.write_text("ok\n")
    return Workload(root=base / "src", python=str(base / "venv" / "bin" / "python"))


def _run_quietly(argv: list[str], what: str) -> None:
    """Run a pip/venv command, keeping its output unless it fails."""
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise WorkloadUnavailable(
            f"{what} failed (exit {proc.returncode}); is PyPI reachable?\n"
            f"$ {' '.join(argv)}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
        )


def _download_sdist(spec: WorkloadSpec, dest: Path) -> Path:
    pin = f"{spec.name}=={spec.version}"
    _run_quietly(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            # The sdist of this package only: its build requirements (Cython, for one) may come
            # as wheels, as pip needs them to read its metadata.
            "--no-binary",
            spec.name,
            "--dest",
            str(dest),
            pin,
        ],
        f"downloading the sdist {pin}",
    )
    found = sorted(dest.glob(f"{spec.name}-{spec.version}.tar.gz"))
    if not found:
        raise WorkloadUnavailable(f"pip download {pin} produced no sdist in {dest}")
    return found[0]


def _unpack(spec: WorkloadSpec, sdist: Path, dest: Path) -> None:
    staging = dest.with_name(dest.name + ".unpack")
    with tarfile.open(sdist) as tar:
        tar.extractall(staging, filter="data")
    copy_parts(staging / f"{spec.name}-{spec.version}", dest, spec.keep)
    shutil.rmtree(staging)


def copy_parts(top: Path, dest: Path, keep: Iterable[str]) -> None:
    """Copy the files and directories ``keep`` of the unpacked archive ``top`` to a new ``dest``."""
    dest.mkdir()
    for part in keep:
        source = top / part
        if source.is_dir():
            shutil.copytree(source, dest / part)
        else:
            shutil.copy2(source, dest / part)


def _make_venv(spec: WorkloadSpec, dest: Path) -> None:
    _run_quietly([sys.executable, "-m", "venv", str(dest)], "creating the workload venv")
    _run_quietly(
        [
            str(dest / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            *spec.requirements,
        ],
        f"installing {spec.name}'s dependencies",
    )


def copy_workspace(workload: Workload, dest: Path, *, leave_out: tuple[str, ...] = ()) -> Workload:
    """A private copy of the workspace at ``dest``, checked to sit outside any pyright config.

    pyright looks for ``pyrightconfig.json`` / ``[tool.pyright]`` in parent directories too, so a
    copy under this repository would be checked with prewrite's own strict settings.
    ``leave_out``: top-level directories not copied (``PACKAGE_ONLY``).
    """
    for parent in dest.resolve().parents:
        pyproject = parent / "pyproject.toml"
        if (parent / "pyrightconfig.json").is_file() or (
            pyproject.is_file() and "[tool.pyright]" in pyproject.read_text()
        ):
            raise WorkloadUnavailable(f"{dest} is inside the pyright project at {parent}")
    skip = set(leave_out)
    shutil.copytree(
        workload.root, dest, ignore=lambda d, _names: skip if d == str(workload.root) else ()
    )
    return Workload(root=dest, python=workload.python)


# httpx without its own tests: what a test whose claim is about configuration, files changed on
# disk or a checker's plumbing (not about reaching importers) is judged on. httpx's 37 test
# modules are 37 of the 60 files a cold pyright checks and ~45% of its CPU (5.5 s of 9.9 s
# measured); ``test_differential`` and ``test_differential_names`` keep them as importers.
PACKAGE_ONLY = ("tests",)


# httpx configures mypy, which would judge it (``languages.checkers``): these workloads measure
# pyright (or basedpyright), so they name it.
TYPECHECK_FOR = '\n[tool.prewrite]\nformat = false\nlint = false\ntypecheck = ["{checker}"]\n'
TYPECHECK_ONLY = TYPECHECK_FOR.format(checker="pyright")


def typecheck_only(workload: Workload, checker: str = "pyright") -> Workload:
    """Turn the ladder's ruff rungs off in a copy, ``checker`` judging (``[tool.prewrite]``).

    The httpx workspace configures ruff, so the daemon would format and lint its patches; the
    differential tests compare the type-check rung alone with the cold checker's oracle.
    """
    pyproject = workload.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + TYPECHECK_FOR.format(checker=checker))
    return workload
