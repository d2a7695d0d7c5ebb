"""Real TypeScript code for the differential test: pinned npm packages that ship their sources.

Two packages of different sizes, both publishing ``src/*.ts`` in their npm tarball:

- ``mobx`` 7.1.3: 55 modules and a ``global.d.ts``, no dependencies; checked as mobx builds, with
  implicit ``any`` allowed, its sources have 29 stable errors in 10 files (mostly implicit
  ``this``), the same with TS 5.9 and 7.0: the shift patches move them around.
- ``rxjs`` 7.8.2: 251 modules, one dependency (``tslib``); clean with TS 5.9, one stable error with
  TS 7.0 (its ``lib.dom`` narrowed ``BufferSource``).

Neither tarball has a usable ``tsconfig.json`` (mobx ships none; rxjs ships only build configs in
``src/`` that extend a root config left out of the tarball and use ``baseUrl``, which TS 7
removed), so one minimal config is written for both: ``strict`` with modern module settings that
both compilers accept, ``"types": []`` so no ``@types`` from a parent ``node_modules`` leak in.

The scale bench (``bench.scale --repo effect``) adds a third, not part of the differential test:
``effect`` 3.19.9, 362 modules and 235k lines (``EFFECT``, with the compiler options of its own
build and the ``@types/node`` its repository checks against; clean with TS 5.9).

A workspace has its own ``node_modules/typescript``: a symlink to the toolchain of the version
under test (``tests/toolchains``, installed by ``make install``), which the daemon and the cold
oracle both run. Everything is cached under ``cache_dir()`` (see ``workloads.py``), keyed by
``name@version``; a ``.ready`` marker is written last, so an interrupted preparation is redone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.support.cache_lock import cache_lock
from tests.support.workloads import REPO_ROOT, WorkloadUnavailable, cache_dir, copy_parts

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

__all__ = [
    "EFFECT",
    "TS_MAJORS",
    "TS_PACKAGES",
    "TsPackageSpec",
    "TsWorkload",
    "copy_ts_workload",
    "count_ts_files",
    "prepare_ts_workload",
    "toolchain_dir",
]

TS_MAJORS = (5, 7)
TOOLCHAINS = REPO_ROOT / "tests" / "toolchains" / "node_modules"

TSCONFIG: dict[str, Any] = {
    "compilerOptions": {
        "strict": True,
        "target": "es2020",
        "module": "esnext",
        "moduleResolution": "bundler",
        "lib": ["esnext", "dom"],
        "noEmit": True,
        "types": [],
    },
    "include": ["src/**/*.ts"],
}


@dataclass(frozen=True)
class TsPackageSpec:
    """A pinned npm package: what of its tarball forms the workspace, and what to install."""

    name: str
    version: str
    keep: tuple[str, ...]
    drop: tuple[str, ...] = ()  # globs under the kept parts that are not the package's sources
    deps: tuple[str, ...] = ()  # exact npm specs installed into the workspace's node_modules
    options: Mapping[str, object] = field(default_factory=dict[str, object])  # over TSCONFIG's

    def tsconfig(self) -> str:
        options = {**TSCONFIG["compilerOptions"], **self.options}
        return json.dumps({**TSCONFIG, "compilerOptions": options}, indent=2) + "\n"


@dataclass(frozen=True)
class TsWorkload:
    """A prepared TypeScript workspace (the cached one: never edit it; see copy_ts_workload)."""

    root: Path
    name: str
    ts_dir: Path  # the TypeScript package node_modules/typescript links to
    files: int  # .ts sources (declarations included) outside node_modules


# mobx is built with implicit ``any`` allowed; with ``noImplicitAny`` on it has 217 errors.
MOBX = TsPackageSpec(
    name="mobx",
    version="7.1.3",
    keep=("src", "package.json"),
    options={"noImplicitAny": False},
)
RXJS = TsPackageSpec(
    name="rxjs",
    version="7.8.2",
    keep=("src", "package.json"),
    drop=("src/tsconfig.*.json",),
    deps=("tslib@2.8.1",),
)
TS_PACKAGES: dict[str, TsPackageSpec] = {"mobx": MOBX, "rxjs": RXJS}
# The scale bench's TypeScript shape (not in TS_PACKAGES: too slow for the differential test).
# effect's repository checks ``src`` with ``exactOptionalPropertyTypes``, ``noUnusedLocals`` and
# Node's types (its sources read ``process`` and ``Error.stackTraceLimit``); its runtime
# dependencies and @types/node pinned to releases of 3.19.9's time (2026-01-22).
EFFECT = TsPackageSpec(
    name="effect",
    version="3.19.9",
    keep=("src", "package.json"),
    deps=("@standard-schema/spec@1.0.0", "fast-check@3.23.2", "@types/node@22.19.1"),
    options={
        "target": "es2022",
        "lib": ["es2022", "dom", "dom.iterable"],
        "types": ["node"],
        "exactOptionalPropertyTypes": True,
        "noUnusedLocals": True,
        "noFallthroughCasesInSwitch": True,
        "moduleDetection": "force",
    },
)


def toolchain_dir(ts_major: int) -> Path:
    """The installed TypeScript package for ``ts_major`` (5: 5.9.3, 7: 7.0.2)."""
    found = TOOLCHAINS / f"typescript{ts_major}"
    if not (found / "package.json").is_file():
        raise WorkloadUnavailable(f"no TypeScript {ts_major} at {found}; run `make install`")
    return found


def prepare_ts_workload(
    name: str | TsPackageSpec, ts_major: int, cache: Path | None = None
) -> TsWorkload:
    """Download, unpack and provision the package ``name`` (of ``TS_PACKAGES``, or a spec) for
    TypeScript ``ts_major`` once; later calls return the cached workspace."""
    spec = TS_PACKAGES[name] if isinstance(name, str) else name
    ts_dir = toolchain_dir(ts_major)
    base = (cache or cache_dir()) / f"npm-{spec.name}@{spec.version}"
    stamp = repr((spec, spec.tsconfig()))  # a changed spec or config rebuilds the cache
    pristine = _prepare_once(
        base / "pristine", stamp, lambda dest: _build_pristine(spec, base, dest)
    )
    root = _prepare_once(
        base / f"ts{ts_major}",
        f"{stamp} {ts_dir}",
        lambda dest: _link_typescript(pristine, dest, ts_dir),
    )
    return TsWorkload(root=root, name=spec.name, ts_dir=ts_dir, files=count_ts_files(root))


def copy_ts_workload(workload: TsWorkload, dest: Path) -> TsWorkload:
    """A private copy at ``dest``; ``node_modules/typescript`` stays a link to the toolchain."""
    shutil.copytree(workload.root, dest, symlinks=True)
    return TsWorkload(root=dest, name=workload.name, ts_dir=workload.ts_dir, files=workload.files)


def count_ts_files(root: Path) -> int:
    return sum(1 for p in root.rglob("*.ts") if "node_modules" not in p.relative_to(root).parts)


def _prepare_once(dest: Path, stamp: str, build: Callable[[Path], None]) -> Path:
    """``build(dest)`` unless a finished build of the same ``stamp`` is there."""
    ready = dest.with_name(dest.name + ".ready")
    with cache_lock(dest):  # another xdist worker may be building it right now
        if not ready.is_file() or ready.read_text() != stamp:
            ready.unlink(missing_ok=True)
            if dest.exists():
                shutil.rmtree(dest)
            dest.parent.mkdir(parents=True, exist_ok=True)
            build(dest)
            ready.write_text(stamp)
    return dest


def _build_pristine(spec: TsPackageSpec, base: Path, dest: Path) -> None:
    tarball = _npm_pack(spec, base / "download")
    _unpack(spec, tarball, dest)
    (dest / "tsconfig.json").write_text(spec.tsconfig())
    modules = dest / "node_modules"
    modules.mkdir()
    if spec.deps:
        installed = _prepare_once(base / "deps", repr(spec.deps), lambda d: _npm_install(spec, d))
        for entry in sorted((installed / "node_modules").iterdir()):
            if not entry.name.startswith("."):
                shutil.copytree(entry, modules / entry.name, symlinks=True)


def _link_typescript(pristine: Path, dest: Path, ts_dir: Path) -> None:
    shutil.copytree(pristine, dest, symlinks=True)
    (dest / "node_modules" / "typescript").symlink_to(ts_dir.resolve(), target_is_directory=True)


def _run_npm(argv: list[str], cwd: Path, what: str) -> str:
    _progress(f"{what} ...")
    started = time.monotonic()
    env = dict(os.environ, npm_config_update_notifier="false", npm_config_loglevel="error")
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise WorkloadUnavailable(
            f"{what} failed (exit {proc.returncode}); is the npm registry reachable?\n"
            f"$ {' '.join(argv)}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
        )
    _progress(f"{what}: done in {time.monotonic() - started:.1f}s")
    return proc.stdout


def _npm_pack(spec: TsPackageSpec, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    pin = f"{spec.name}@{spec.version}"
    _run_npm(["npm", "pack", pin, "--pack-destination", str(dest)], dest, f"npm pack {pin}")
    found = sorted(dest.glob("*.tgz"))
    if len(found) != 1:
        raise WorkloadUnavailable(f"npm pack {pin} left {len(found)} tarballs in {dest}")
    return found[0]


def _unpack(spec: TsPackageSpec, tarball: Path, dest: Path) -> None:
    staging = dest.with_name(dest.name + ".unpack")
    if staging.exists():
        shutil.rmtree(staging)
    with tarfile.open(tarball) as tar:
        tar.extractall(staging, filter="data")
    copy_parts(staging / "package", dest, spec.keep)  # npm tarballs hold one folder "package"
    for pattern in spec.drop:
        for extra in dest.glob(pattern):
            extra.unlink()
    shutil.rmtree(staging)


def _npm_install(spec: TsPackageSpec, dest: Path) -> None:
    """Install ``spec.deps`` into a project of their own (the package's own package.json would
    pull its whole dependency tree), whose node_modules the workspaces copy."""
    dest.mkdir()
    deps = dict(d.rsplit("@", 1) for d in spec.deps)
    manifest = {"name": "prewrite-ts-workload-deps", "private": True, "dependencies": deps}
    (dest / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    argv = ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts"]
    _run_npm(argv, dest, f"npm install {' '.join(spec.deps)} (for {spec.name})")


def _progress(line: str) -> None:
    print(f"[ts-workload] {line}", file=sys.stderr, flush=True)
