"""The checker's configuration as the shadow must see it, so the shadow resolves what the tree does.

pyright runs on the daemon's shadow copy of the workspace, so every path the configuration or the
environment names is resolved from the wrong place unless it is mapped:

- relative paths in the configuration (``extraPaths``, ``stubPath``, ``venvPath``,
  ``typeshedPath``, execution environments' ``root``/``extraPaths``) that point *outside* the root
  (``../shared``) would resolve beside the shadow: they become absolute real paths;
- search paths that an editable install's ``.pth`` file adds *inside* the root (the uv-workspace
  layout: ``packages/lib/src``) name the real, unpatched tree: their shadow copies are put first
  in ``extraPaths``, so a patched module is seen patched by every importer.

The shadow gets one generated ``pyrightconfig.json`` (which pyright prefers over
``[tool.pyright]``) holding the workspace's settings with those paths mapped. Includes, excludes
and ignores stay relative: the shadow has the root's layout.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from prewrite_daemon.languages import jsonc

if TYPE_CHECKING:
    from collections.abc import Iterable

    from prewrite_daemon.languages.readers import Reader

JSON_CONFIG = "pyrightconfig.json"
CONFIG_FILES = frozenset({JSON_CONFIG, "pyproject.toml"})
_PATH_KEYS = ("stubPath", "typeshedPath")

T = TypeVar("T")


@dataclass(frozen=True)
class CheckerConfig:
    """The workspace's pyright settings, where they came from, and whether they parsed."""

    settings: dict[str, Any]
    source: str | None  # "pyrightconfig.json", "pyproject.toml [tool.pyright]" or None
    raw: str | None = None  # the text of a pyrightconfig.json that does not parse (kept as is)


def load_checker_config(read: Reader, sections: tuple[str, ...] = ("pyright",)) -> CheckerConfig:
    """pyright's rule: ``pyrightconfig.json`` at the root wins; else ``[tool.pyright]``.

    ``sections``: the ``pyproject.toml`` tables the checker reads, the first one present wins
    (basedpyright: ``[tool.basedpyright]``, else ``[tool.pyright]``; it refuses a file with
    both, which the shadow's generated file does not reproduce: docs/checkers.md).
    """
    text = read(JSON_CONFIG)
    if text is not None:
        try:
            data: object = jsonc.loads(text)
        except ValueError:
            return CheckerConfig({}, JSON_CONFIG, raw=text)
        if not isinstance(data, dict):
            return CheckerConfig({}, JSON_CONFIG, raw=text)
        return CheckerConfig(cast("dict[str, Any]", data), JSON_CONFIG)
    text = read("pyproject.toml")
    if text is None:
        return CheckerConfig({}, None)
    try:
        tool: object = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        return CheckerConfig({}, None)  # pyright ignores a broken pyproject too
    tables = cast("dict[str, Any]", tool) if isinstance(tool, dict) else {}
    for name in sections:
        section = tables.get(name)
        if isinstance(section, dict):
            return CheckerConfig(cast("dict[str, Any]", section), f"pyproject.toml [tool.{name}]")
    return CheckerConfig({}, None)


def _inside(path: str, root: Path) -> bool:
    return path == str(root) or path.startswith(str(root) + os.sep)


def _absolute(value: str, root: Path) -> str:
    return os.path.normpath(os.path.join(root, os.path.expanduser(value)))


def map_path(value: str, root: Path) -> str:
    """A config path as the shadow must name it: root-relative if inside the root, else absolute."""
    absolute = _absolute(value, root)
    return os.path.relpath(absolute, root) if _inside(absolute, root) else absolute


def _map_section(section: dict[str, Any], root: Path, first: list[str]) -> dict[str, Any]:
    out = dict(section)
    for key in (*_PATH_KEYS, "root"):
        if isinstance(out.get(key), str):
            out[key] = map_path(out[key], root)
    if isinstance(out.get("venvPath"), str):
        # venvs are never mirrored (only a root-level one is linked): always the real place
        out["venvPath"] = _absolute(out["venvPath"], root)
    extra = out.get("extraPaths")
    if isinstance(extra, list):
        mapped = [map_path(v, root) for v in cast("list[object]", extra) if isinstance(v, str)]
        out["extraPaths"] = _unique([*mapped, *first])
    return out


def _environments(settings: dict[str, Any]) -> list[dict[str, Any]]:
    """The execution environments of a configuration (the well-formed ones)."""
    envs = settings.get("executionEnvironments")
    items = cast("list[object]", envs) if isinstance(envs, list) else []
    return [cast("dict[str, Any]", e) for e in items if isinstance(e, dict)]


def _unique(items: Iterable[T]) -> list[T]:
    return list(dict.fromkeys(items))


def _default_extra_paths(root: Path) -> list[str]:
    """pyright's ``autoSearchPaths``: ``src`` when the config names no ``extraPaths``."""
    src = root / "src"
    return ["src"] if src.is_dir() and not (src / "__init__.py").exists() else []


def render_shadow_config(
    config: CheckerConfig,
    root: Path,
    search_dirs: list[str],
    environment: dict[str, str] | None = None,
) -> str:
    """The ``pyrightconfig.json`` text for the shadow of ``root``.

    ``search_dirs`` are root-relative directories that the environment puts on ``sys.path``
    (editable installs inside the root); they are appended to every ``extraPaths``, which pyright
    searches before the environment's own paths, so they resolve to the shadow's copies.
    ``environment`` (``venvPath``, ``venv``, ``pythonVersion``) is set where the configuration
    does not say, so pyright reads the environment from disk instead of running an interpreter.
    """
    if config.raw is not None:
        return config.raw  # pyright reports the broken file; the shadow must see the same text
    settings = dict(environment or {}) | dict(config.settings)
    if "extraPaths" not in settings:
        extra = _default_extra_paths(root)
        if extra or search_dirs:
            settings["extraPaths"] = extra
    mapped = _map_section(settings, root, search_dirs)
    envs = settings.get("executionEnvironments")
    if isinstance(envs, list):
        mapped["executionEnvironments"] = [
            _map_section(cast("dict[str, Any]", env), root, search_dirs)
            if isinstance(env, dict)
            else env
            for env in cast("list[object]", envs)
        ]
    return json.dumps(mapped, indent=1, sort_keys=True)


def outside_dirs(config: CheckerConfig, root: Path) -> list[Path]:
    """Directories outside the root that the configuration makes the checker read."""
    found: list[Path] = []
    for section in [config.settings, *_environments(config.settings)]:
        values: list[object] = [section.get("stubPath")]
        extra = section.get("extraPaths")
        if isinstance(extra, list):
            values += cast("list[object]", extra)
        for value in values:
            if not isinstance(value, str) or any(c in value for c in "*?"):
                continue
            absolute = map_path(value, root)
            if os.path.isabs(absolute) and Path(absolute).is_dir():
                found.append(Path(absolute))
    return _unique(found)
