"""Judge configurations that a patch points outside the workspace: refused.

A patch that adds ``extend = "/home/me/.aws/credentials"`` to a ``ruff.toml`` makes ruff read
that file — and ruff's parse error quoted its key line back to the agent. Whatever a judge reads
is part of what judges the patch, so a patch may not make a judge read outside the root: the
keys below, in the candidate text, may not name a place outside the root that the file on disk
did not already name (a workspace configured by hand to extend a shared file keeps working; the
patch just cannot add such a reach, or move it elsewhere outside).

What is read, per file (by name, at any depth):

- ``ruff.toml`` / ``.ruff.toml``: ``extend``; ``pyproject.toml``: ``[tool.ruff] extend`` and
  ``[tool.pyright]`` / ``[tool.basedpyright]`` as below;
- ``pyrightconfig.json``, ``[tool.pyright]`` and ``[tool.basedpyright]``: ``extends``,
  ``extraPaths``, ``stubPath``, ``typeshedPath``, ``venvPath``, and each execution
  environment's ``root`` / ``extraPaths`` (a stub read from outside shows its literals in
  diagnostics);
- ``tsconfig*.json`` / ``jsconfig.json``: ``extends`` (a path, or a package found in a
  ``node_modules`` above the root), ``references``, ``files``, ``include`` and the path options
  of ``compilerOptions`` (``baseUrl``, ``rootDir``, ``rootDirs``, ``typeRoots``, ``paths``);
- ``biome.json(c)``, ``.eslintrc(.json)``: ``extends`` written as a path.

A place is outside when its real path (links inside the root followed) is not under the root's;
globs count from the directory before their first wildcard. Text that does not parse names
nothing here: the parse rung refuses it.
"""

from __future__ import annotations

import os
import posixpath
import tomllib
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, cast

from prewrite_daemon.languages import jsonc

if TYPE_CHECKING:
    from pathlib import Path

_PYRIGHT_PATHS = ("extends", "stubPath", "typeshedPath", "venvPath")
_TS_PATH_OPTIONS = ("baseUrl", "rootDir")
_TS_PATH_LISTS = ("rootDirs", "typeRoots")
_WILDCARDS = frozenset("*?[{")
Reach = tuple[str, str]  # (the key, as written in the config: "extend"; the place it names)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in cast("list[object]", value) if isinstance(v, str)]
    return []


def _table(value: object) -> dict[str, Any]:
    return cast("dict[str, Any]", value) if isinstance(value, dict) else {}


def _pyright(settings: dict[str, Any], prefix: str) -> list[Reach]:
    found = [(f"{prefix}{k}", v) for k in _PYRIGHT_PATHS for v in _strings(settings.get(k))]
    found += [(f"{prefix}extraPaths", v) for v in _strings(settings.get("extraPaths"))]
    envs = settings.get("executionEnvironments")
    for env in cast("list[object]", envs) if isinstance(envs, list) else []:
        table = _table(env)
        found += [(f"{prefix}executionEnvironments.root", v) for v in _strings(table.get("root"))]
        found += [
            (f"{prefix}executionEnvironments.extraPaths", v)
            for v in _strings(table.get("extraPaths"))
        ]
    return found


def _typescript(config: dict[str, Any]) -> list[Reach]:
    found = [("files", v) for v in _strings(config.get("files"))]
    found += [("include", v) for v in _strings(config.get("include"))]
    refs = config.get("references")
    for ref in cast("list[object]", refs) if isinstance(refs, list) else []:
        found += [("references.path", v) for v in _strings(_table(ref).get("path"))]
    options = _table(config.get("compilerOptions"))
    for key in (*_TS_PATH_OPTIONS, *_TS_PATH_LISTS):
        found += [(f"compilerOptions.{key}", v) for v in _strings(options.get(key))]
    for targets in _table(options.get("paths")).values():
        found += [("compilerOptions.paths", v) for v in _strings(targets)]
    return found


def _parse_toml(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _parse_json(text: str) -> dict[str, Any] | None:
    try:
        data: object = jsonc.loads(text) if text.strip() else {}
    except ValueError:
        return None
    return _table(data)


def named_places(name: str, text: str) -> tuple[list[Reach], list[str]]:
    """(paths the config ``name`` names, TypeScript ``extends`` that may be package names)."""
    lower = name.lower()
    if lower in ("ruff.toml", ".ruff.toml"):
        data = _parse_toml(text) or {}
        return [("extend", v) for v in _strings(data.get("extend"))], []
    if lower == "pyproject.toml":
        tool = _table((_parse_toml(text) or {}).get("tool"))
        ruff = [("[tool.ruff] extend", v) for v in _strings(_table(tool.get("ruff")).get("extend"))]
        pyright = [
            place
            for name in ("pyright", "basedpyright")
            for place in _pyright(_table(tool.get(name)), f"[tool.{name}] ")
        ]
        return ruff + pyright, []
    if not _is_json_judge(lower):
        return [], []  # any other JSON file is data: never parsed here (it may be 100 MB)
    data = _parse_json(text) or {}
    if lower == "pyrightconfig.json":
        return _pyright(data, ""), []
    if lower == "jsconfig.json" or (lower.startswith("tsconfig") and lower.endswith(".json")):
        extends = _strings(data.get("extends"))
        paths = [("extends", v) for v in extends if _is_path(v)]
        return paths + _typescript(data), [v for v in extends if not _is_path(v)]
    if lower in ("biome.json", "biome.jsonc", ".eslintrc", ".eslintrc.json"):
        return [("extends", v) for v in _strings(data.get("extends")) if _is_path(v)], []
    return [], []


def _is_json_judge(lower: str) -> bool:
    return (
        lower in ("pyrightconfig.json", "jsconfig.json", "biome.json", "biome.jsonc")
        or lower in (".eslintrc", ".eslintrc.json")
        or (lower.startswith("tsconfig") and lower.endswith(".json"))
    )


def _is_path(value: str) -> bool:
    return value.startswith(("/", "./", "../", "~")) or value in (".", "..")


def _outside(real_root: str, place: str) -> bool:
    real = os.path.realpath(place)
    return real != real_root and not real.startswith(real_root + os.sep)


def _before_wildcard(value: str) -> str:
    kept: list[str] = []
    for part in PurePosixPath(value).parts:
        if _WILDCARDS & set(part):
            break
        kept.append(part)
    return posixpath.join(*kept) if kept else "."


def _package_place(directory: str, spec: str) -> str | None:
    """Where TypeScript looks for the package of ``spec`` (``@scope/name/sub``: ``@scope/name``):
    the nearest ``node_modules`` holding it, from ``directory`` up."""
    parts = spec.split("/")
    package = "/".join(parts[: 2 if spec.startswith("@") else 1])
    current = directory
    while True:
        candidate = os.path.join(current, "node_modules", package)
        if os.path.lexists(candidate) or os.path.lexists(candidate + ".json"):
            return candidate
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def outside_places(root: Path, rel: str, text: str | None) -> set[str]:
    """The places outside ``root`` that the config ``rel`` with ``text`` makes a judge read,
    each as ``key = 'value'``."""
    if text is None:
        return set()
    real_root = os.path.realpath(root)
    directory = os.path.join(real_root, posixpath.dirname(rel))
    paths, packages = named_places(PurePosixPath(rel).name, text)
    found: set[str] = set()
    for key, value in paths:
        written = value.replace("${configDir}", ".")
        place = os.path.join(directory, os.path.expanduser(_before_wildcard(written)))
        if _outside(real_root, os.path.normpath(place)):
            found.add(f"{key} = {value!r}")
    for spec in packages:
        place = _package_place(directory, spec)
        if place is not None and _outside(real_root, place):
            found.add(f"extends = {spec!r} (found at {place})")
    return found


def new_reaches(root: Path, rel: str, old: str | None, new: str | None) -> list[str]:
    """What the patch's text of ``rel`` reaches outside the root that the disk's did not."""
    return sorted(outside_places(root, rel, new) - outside_places(root, rel, old))
