"""The bench's workloads: pinned PyPI sdists of three sizes, and the bundled demo repository.

Preparation (download, unpack, venv with pinned dependencies installed ``--no-deps``) is the test
suite's, reused from ``tests.support.workloads`` with the same cache (``PREWRITE_TEST_CACHE``,
default ``<repo>/.cache/test-workloads``, git-ignored): the httpx workspace the differential test
prepares is the bench's medium workload, downloaded once for both.

Every measurement runs on a private copy under /tmp ("staged"), outside this repository's pyright
configuration, with the ladder's ruff rungs turned off: warm, cold, floor and the dmypy peer then
all measure type checking; the ruff rungs are measured on their own (``bench.rungs``).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.support.workloads import (
    HTTPX,
    TYPECHECK_ONLY,
    Workload,
    WorkloadSpec,
    copy_workspace,
    prepare_workload,
)

DEMO_ROOT = Path(__file__).parent / "demo" / "repo"

CLICK = WorkloadSpec(
    name="click",
    version="8.1.8",
    keep=("src", "tests", "pyproject.toml"),
    # The test-suite imports pytest; click itself has no dependencies on Linux.
    requirements=("pytest==8.3.4", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0"),
)

PYTEST = WorkloadSpec(
    name="pytest",
    version="8.3.4",
    # scripts/: its [tool.mypy] files name it (mypy refuses a missing one), as its CI checks it.
    keep=("src", "testing", "scripts", "pyproject.toml"),
    # pytest's own dependencies, not pytest itself: the workspace's src/ is what gets imported.
    # The suite's optional imports (hypothesis, xmlschema, ...) stay unresolved on purpose.
    # And the mypy its CI runs (the sdist's .pre-commit-config.yaml: mirrors-mypy v1.11.2), its
    # dependencies on Python 3.11 and the hook's additional_dependencies (releases of
    # 2024-12-01's time): its [tool.mypy] targets Python 3.8, which prewrite's bundled mypy 2.x
    # refuses; trusted, the workspace is judged by this mypy, as its CI judges it.
    requirements=(
        "iniconfig==2.0.0",
        "packaging==24.2",
        "pluggy==1.5.0",
        "pygments==2.18.0",
        "mypy==1.11.2",
        "mypy-extensions==1.0.0",
        "typing_extensions==4.12.2",
        "attrs==24.2.0",
        "tomli==2.2.1",
        "types-setuptools==75.6.0.20241126",
        "types-tabulate==0.9.0.20240106",
        "exceptiongroup==1.2.2",
    ),
)


@dataclass(frozen=True)
class BenchWorkload:
    """A workload as the bench runs it: where its sources are and what dmypy should check."""

    name: str
    spec: WorkloadSpec | None  # None: the bundled demo repository
    mypy_targets: tuple[str, ...]  # the source dirs, relative to the root


CATALOGUE: dict[str, BenchWorkload] = {
    "demo": BenchWorkload("demo", None, ("shop",)),
    "click": BenchWorkload("click", CLICK, ("src", "tests")),
    "httpx": BenchWorkload("httpx", HTTPX, ("httpx", "tests")),
    "pytest": BenchWorkload("pytest", PYTEST, ("src", "testing")),
}
FULL = ("click", "httpx", "pytest")
QUICK = ("demo",)


@dataclass(frozen=True)
class Staged:
    """A private, typecheck-only copy of a workload, and its interpreter."""

    name: str
    label: str  # e.g. "httpx 0.28.1"
    root: Path
    python: str
    files: int  # .py files in the workspace
    mypy_targets: tuple[str, ...]


def prepare(workload: BenchWorkload) -> Workload:
    """The cached pristine workspace (downloaded and provisioned on first use)."""
    if workload.spec is None:
        return Workload(root=DEMO_ROOT, python=_system_python())
    return prepare_workload(workload.spec)


def stage(workload: BenchWorkload, pristine: Workload, dest: Path) -> Staged:
    """Copy ``pristine`` to ``dest`` and turn the ladder's ruff rungs off in the copy."""
    copy = copy_workspace(pristine, dest)
    pyproject = copy.root / "pyproject.toml"
    existing = pyproject.read_text() if pyproject.is_file() else ""
    pyproject.write_text(existing + TYPECHECK_ONLY)
    spec = workload.spec
    label = f"{spec.name} {spec.version}" if spec else "demo repo"
    files = sum(1 for p in copy.root.rglob("*.py") if p.is_file())
    return Staged(workload.name, label, copy.root, copy.python, files, workload.mypy_targets)


def _system_python() -> str:
    found = shutil.which("python3")
    if found is None:
        raise RuntimeError("python3 is not on PATH (the demo workload's interpreter)")
    return found
